import type { Dashboard } from '@nh/shared/contracts/admin-dashboard';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PromoManagerPage from '../promos/screens/promo-manager';
import { renderAdmin } from '../testing/render-admin';
import { stubApi } from '../testing/stub-api';
import { chartSummary, niceTop } from './components/sales-chart';
import DashboardPage from './screens/dashboard';

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const FULFILMENT: StaffMe = { id: 's3', email: 'fran@example.com', name: 'Fran Fulfil', role: 'fulfilment' };
const MANAGER: StaffMe = { id: 's2', email: 'mia@example.com', name: 'Mia Manager', role: 'manager' };

/** 30 UTC days ending 2025-03-30; sales on three of them. */
const daily = Array.from({ length: 30 }, (_, i) => {
  const day = new Date(Date.UTC(2025, 2, 1 + i)).toISOString().slice(0, 10);
  const sales: Record<string, [number, string]> = { '2025-03-05': [2, '40.00'], '2025-03-20': [1, '125.50'], '2025-03-30': [3, '60.00'] };
  const [orders, revenue] = sales[day] ?? [0, '0.00'];
  return { day, orders, revenue };
});

const DASHBOARD: Dashboard = {
  generatedAt: '2025-03-30T12:00:00.000Z',
  today: { orders: 3, revenue: '60.00', refunded: '0.00' },
  last30Days: { orders: 6, revenue: '225.50', refunded: '40.00', averageOrderValue: '37.58' },
  daily,
  plans: {
    active: 42,
    monthlyRecurringRevenue: '1234.56',
    renewalsDueNext7Days: 5,
    renewalsDueNext7DaysAmount: '183.60',
    inDunning: 2,
    paused: 7,
  },
  cadenceSuggestions: { shown: 40, accepted: 9, declined: 12 },
  netsuite: { counts: { synced: 120, pending: 4, failed: 1, not_configured: 9 }, oldestPendingAt: '2025-03-29T08:00:00.000Z' },
  queues: {
    'erp-sync': { waiting: 4, active: 1, delayed: 0, failed: 2, oldestWaitingAt: '2025-03-30T11:58:00.000Z' },
    emails: { waiting: 0, active: 0, delayed: 3, failed: 0, oldestWaitingAt: null },
    renewals: null,
  },
};

const dashboardAt = (staff: StaffMe, routes: Parameters<typeof stubApi>[0] = {}) => {
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: staff },
    'GET /api/admin/dashboard': { status: 200, body: DASHBOARD },
    ...routes,
  });
  renderAdmin('/admin', {
    signedIn: [
      { path: '/admin', Component: DashboardPage },
      { path: '/admin/promos', Component: PromoManagerPage },
    ],
  });
  return calls;
};

describe('the dashboard at /admin', () => {
  it('shows fulfilment the sales, plans, NetSuite and queues in staff words, and no plan links or plan calls', async () => {
    const calls = dashboardAt(FULFILMENT);
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    const stat = async (id: string) => (await screen.findByTestId(id)).textContent;
    expect(await stat('stat-orders-today')).toBe('Orders today3');
    expect(await stat('stat-revenue-today')).toBe('Revenue today$60.00');
    // Revenue is net of refunds and voids, and says what was given back (nothing today).
    expect(await stat('stat-revenue-30')).toBe('Revenue, last 30 days$225.50After $40.00 refunded');
    expect(await stat('stat-aov')).toContain('$37.58');
    expect(await stat('stat-mrr')).toContain('$1,234.56');
    expect(await stat('stat-renewals-due')).toContain('5$183.60 to charge');
    expect(await stat('stat-dunning')).toContain('2');
    expect(await stat('stat-paused')).toContain('7');
    expect(await stat('stat-cadence-suggestions')).toContain('9 of 40');
    expect(await stat('stat-cadence-suggestions')).toContain('12 declined');
    // Fulfilment cannot see plans: no links to them, no at-risk figure (and no call for it).
    expect(within(screen.getByTestId('stat-paused')).queryByRole('link')).toBeNull();
    expect(screen.queryByTestId('stat-at-risk')).toBeNull();

    const netsuite = screen.getByTestId('dashboard-netsuite');
    for (const words of ['Synced120', 'Pending4', 'Failed1', 'Not configured9']) expect(netsuite.textContent).toContain(words);
    expect(netsuite.textContent).not.toContain('not_configured');

    expect(screen.getByTestId('queue-erp-sync').textContent).toMatch(/^NetSuite sync4102/);
    expect(screen.getByTestId('queue-emails').textContent).toContain('Emails');
    expect(screen.getByTestId('queue-renewals').textContent).toBe('RenewalsNot known right now (the queue service did not answer in time)');

    // The chart: an image with a title and a summary, one bar per day, today named.
    const chart = screen.getByRole('img', { name: /Revenue per day, last 30 days/ });
    expect(chart.querySelectorAll('rect')).toHaveLength(30);
    expect(within(chart).getByText('Today')).toBeTruthy();
    expect(screen.getByTestId('chart-day-2025-03-20').querySelector('title')?.textContent).toBe('Mar 20, 2025: $125.50, 1 order');

    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/admin/me', 'GET /api/admin/dashboard']);
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Orders']);
  });

  it('switches the chart to orders and lists every day as a table', async () => {
    dashboardAt(FULFILMENT);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Orders' }));
    expect(screen.getByRole('button', { name: 'Orders' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('img', { name: /Orders per day, last 30 days/ })).toBeTruthy();
    await user.click(screen.getByText('Daily figures'));
    const rows = within(screen.getByRole('table', { name: 'Orders and revenue per day, newest first' })).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(rows[1]!.textContent).toBe('Mar 30, 20253$60.00');
  });

  it('gives a manager the at-risk count and links to the plan lists; the promo codes live at /admin/promos', async () => {
    const calls = dashboardAt(MANAGER, {
      'GET /api/admin/subscriptions/at-risk': { status: 200, body: { plans: [], total: 3 } },
      'POST /api/promo-codes/list': { status: 200, body: [] },
    });
    const atRisk = await screen.findByTestId('stat-at-risk');
    await waitFor(() => expect(atRisk.textContent).toContain('3'));
    expect(within(atRisk).getByRole('link').getAttribute('href')).toBe('/admin/subscriptions?tab=at-risk');
    expect(within(screen.getByTestId('stat-dunning')).getByRole('link').getAttribute('href')).toBe(
      '/admin/subscriptions?status=active&minFailedAttempts=1',
    );
    expect(calls.find((c) => c.url.startsWith('/api/admin/subscriptions/at-risk'))?.url).toBe(
      '/api/admin/subscriptions/at-risk?limit=1&offset=0',
    );

    const user = userEvent.setup();
    await user.click(within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: 'Promo codes' }));
    expect(await screen.findByRole('heading', { name: 'Promo Code Manager', level: 1 })).toBeTruthy();
  });

  it('says so when the dashboard cannot be loaded, and tries again', async () => {
    let fail = true;
    stubApi({
      'GET /api/admin/me': { status: 200, body: FULFILMENT },
      'GET /api/admin/dashboard': () =>
        fail ? { status: 500, body: { message: 'Something went wrong' } } : { status: 200, body: DASHBOARD },
    });
    renderAdmin('/admin', { signedIn: [{ path: '/admin', Component: DashboardPage }] });
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('stat-orders-today')).toBeTruthy();
  });
});

describe('the chart helpers', () => {
  it('rounds the axis up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 22, 125.5, 240, 999].map(niceTop)).toEqual([1, 1, 5, 10, 25, 200, 250, 1000]);
  });

  it('sums up the days in a sentence', () => {
    expect(chartSummary(daily, 'revenue')).toBe('Revenue over the last 30 days: $225.50 in all; highest $125.50 on Mar 20, 2025.');
    expect(chartSummary(daily, 'orders')).toBe('Orders over the last 30 days: 6 in all; highest 3 orders on Mar 30, 2025.');
    expect(
      chartSummary(
        daily.map((d) => ({ ...d, orders: 0, revenue: '0.00' })),
        'orders',
      ),
    ).toBe('Orders over the last 30 days: none yet.');
  });
});
