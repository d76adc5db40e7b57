import type { Dashboard } from '@nh/shared/contracts/admin-dashboard';
import type { CustomersReport, RevenueMixReport, SalesReport, StockCoverReport, SubscriptionsReport, TopProductsReport } from '@nh/shared/contracts/admin-reports';
import { REPORT_MESSAGES } from '@nh/shared/contracts/admin-reports';
import type { StaffMe } from '@nh/shared/contracts/staff';
import type { ClaimRates } from '@nh/shared/contracts/claims';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DashboardPage from '../dashboard/screens/dashboard';
import { renderAdmin } from '../testing/render-admin';
import { stubApi } from '../testing/stub-api';
import { changeWords } from './components/range-reports';

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const MANAGER: StaffMe = { id: 's2', email: 'mia@example.com', name: 'Mia Manager', role: 'manager' };
const SUPPORT: StaffMe = { id: 's4', email: 'sam@example.com', name: 'Sam Support', role: 'support' };
const DASHBOARD: Dashboard = {
  generatedAt: '2026-03-10T12:00:00.000Z',
  today: { orders: 0, revenue: '0.00', refunded: '0.00' },
  last30Days: { orders: 0, revenue: '0.00', refunded: '0.00', averageOrderValue: '0.00' },
  daily: [],
  plans: { active: 0, monthlyRecurringRevenue: '0.00', renewalsDueNext7Days: 0, renewalsDueNext7DaysAmount: '0.00', inDunning: 0, paused: 0 },
  cadenceSuggestions: { shown: 0, accepted: 0, declined: 0 },
  netsuite: { counts: { synced: 0, pending: 0, failed: 0, not_configured: 0 }, oldestPendingAt: null },
  queues: {},
};
const periods = { from: '2026-03-01', to: '2026-03-10', previousFrom: '2026-02-19', previousTo: '2026-02-28' };
const SALES: SalesReport = {
  ...periods,
  current: { salesCents: 950000, orders: 200, averageOrderCents: 3000, units: 410, refundsCents: 35000, netRevenueCents: 915000 },
  previous: { salesCents: 800000, orders: 200, averageOrderCents: 4000, units: 0, refundsCents: 0, netRevenueCents: 800000 },
};
const TOP: TopProductsReport = { ...periods, products: [{ productId: 1, name: 'Flush Probiotic Toilet Cleaner', units: 300, salesCents: 389700, previousUnits: 250, previousSalesCents: 0 }] };
const CUSTOMERS: CustomersReport = {
  ...periods,
  current: { newCustomers: 12, returningCustomers: 30, newOrders: 12, returningOrders: 40, newRevenueCents: 48000, returningRevenueCents: 160000 },
  previous: { newCustomers: 10, returningCustomers: 25, newOrders: 10, returningOrders: 30, newRevenueCents: 40000, returningRevenueCents: 120000 },
};
const MIX: RevenueMixReport = {
  ...periods,
  current: { subscriptionOrders: 40, subscriptionRevenueCents: 120000, oneTimeOrders: 12, oneTimeRevenueCents: 88000 },
  previous: { subscriptionOrders: 30, subscriptionRevenueCents: 90000, oneTimeOrders: 10, oneTimeRevenueCents: 70000 },
};

const SUBSCRIPTIONS: SubscriptionsReport = {
  from: periods.from,
  to: periods.to,
  mrrNowCents: 123456,
  activePlansNow: 42,
  snapshotsFrom: '2026-02-01',
  movement: {
    startDay: '2026-02-28',
    endDay: '2026-03-10',
    startMrrCents: 9500,
    endMrrCents: 7000,
    newCents: 0,
    expansionCents: 1000,
    contractionCents: 0,
    churnedCents: 3500,
    reactivatedCents: 0,
    plans: { new: 0, expansion: 1, contraction: 0, churned: 2, reactivated: 0 },
    plansAtStart: 4,
    planChurnRatePercent: 50,
    mrrChurnRatePercent: 36.8,
  },
  cancellations: { total: 2, byReason: [{ reason: 'It costs too much', count: 2 }], offersShown: 2, offersAccepted: 1, plansSaved: 1, saveRatePercent: 33.3 },
};
const STOCK: StockCoverReport = {
  generatedAt: '2026-03-10T12:00:00.000Z',
  products: [
    { productId: 1, name: 'Refill', inStock: 10, renewalUnits: 8, addOnUnits: 3, soldLast30Days: 6, daysOfCover: 17.6, runsShortOn: '2026-03-20', plansShort: 1 },
    { productId: 2, name: 'Soap', inStock: 100, renewalUnits: 1, addOnUnits: 0, soldLast30Days: 0, daysOfCover: 3000, runsShortOn: null, plansShort: 0 },
  ],
};

const CLAIMS: ClaimRates = {
  from: periods.from,
  to: periods.to,
  claims: 3,
  byReason: [
    { reason: 'leaking', label: 'Arrived leaking', claims: 2 },
    { reason: 'arrived_damaged', label: 'Arrived damaged', claims: 1 },
  ],
  byProduct: [{ productId: 1, productName: 'Flush Probiotic Toilet Cleaner', unitsSold: 300, unitsClaimed: 3, rate: 0.01 }],
};

const open = (staff: StaffMe, path: string) => {
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: staff },
    'GET /api/admin/dashboard': { status: 200, body: DASHBOARD },
    'GET /api/admin/subscriptions/at-risk': { status: 200, body: { plans: [], total: 0 } },
    'GET /api/admin/reports/sales': { status: 200, body: SALES },
    'GET /api/admin/reports/top-products': { status: 200, body: TOP },
    'GET /api/admin/reports/customers': { status: 200, body: CUSTOMERS },
    'GET /api/admin/reports/revenue-mix': { status: 200, body: MIX },
    'GET /api/admin/reports/subscriptions': { status: 200, body: SUBSCRIPTIONS },
    'GET /api/admin/reports/stock-cover': { status: 200, body: STOCK },
    'GET /api/admin/reports/claims': { status: 200, body: CLAIMS },
  });
  renderAdmin(path, { signedIn: [{ path: '/admin', Component: DashboardPage }] });
  return calls;
};

describe("the dashboard's date range reports", () => {
  it('shows a manager the range from the URL, each figure with the previous period beside it, in words', async () => {
    const calls = open(MANAGER, '/admin?from=2026-03-01&to=2026-03-10');
    const sales = await screen.findByTestId('range-salesCents');
    expect(sales.textContent).toBe('Sales$9,500.00Previous period $8,000.00 (up 19%)');
    expect(screen.getByTestId('range-averageOrderCents').textContent).toContain('(down 25%)');
    expect(screen.getByTestId('range-orders').textContent).toContain('(no change)');
    expect(screen.getByTestId('range-units').textContent).toBe('Units sold410Previous period 0 (new this period)');
    expect(screen.getByText('March 1, 2026 to March 10, 2026 (UTC days), compared with February 19, 2026 to February 28, 2026.')).toBeTruthy();
    const top = await screen.findByTestId('top-products');
    expect(within(top).getAllByRole('row')[1]!.textContent).toBe('Flush Probiotic Toilet Cleaner300$3,897.00250');
    expect((await screen.findByRole('row', { name: /^New customers/ })).textContent).toBe('New customers1210');
    expect((await screen.findByRole('row', { name: /^Subscribe & Save revenue/ })).textContent).toBe('Subscribe & Save revenue$1,200.00$900.00');
    for (const name of ['sales', 'top-products', 'customers', 'revenue-mix']) {
      expect(calls.some((c) => c.url === `/api/admin/reports/${name}?from=2026-03-01&to=2026-03-10`)).toBe(true);
    }
  });

  it('shows MRR, its movement, churn and the save rate, and flags the product that runs short', async () => {
    open(MANAGER, '/admin?from=2026-03-01&to=2026-03-10');
    const plans = await screen.findByTestId('subscriptions-report');
    await within(plans).findByText(/Monthly recurring revenue now/);
    expect(plans.textContent).toContain('Monthly recurring revenue now: $1,234.56 from 42 active plans.');
    expect(plans.textContent).toContain('Expansion (plans raised): +$10.00 (1 plans)');
    expect(plans.textContent).toContain('Churned (cancelled or paused): −$35.00 (2 plans)');
    expect(plans.textContent).toContain('Churn: 50% of plans, 36.8% of recurring revenue.');
    expect(plans.textContent).toContain('save rate 33.3%');
    const stock = await screen.findByTestId('stock-cover');
    const short = await within(stock).findByRole('list', { name: 'Running short' });
    expect(short.textContent).toBe('Refill runs short on March 20, 2026: 10 in stock, 1 plan deliveries from then on not covered.');
    // Issue 23: the same shortage on the plans' at-risk list, one click away.
    expect(within(stock).getByRole('link', { name: 'The plans these deliveries belong to (at-risk list)' }).getAttribute('href')).toBe('/admin/subscriptions?tab=at-risk&reason=stock-short');
    expect(within(stock).getAllByRole('row')[1]!.textContent).toBe('Refill101717.6 days');
  });

  it('shows the damage claims of the same range by reason, and the claim rate by product', async () => {
    const calls = open(MANAGER, '/admin?from=2026-03-01&to=2026-03-10');
    const card = await screen.findByTestId('claim-rates');
    const reasons = await within(card).findByRole('list', { name: 'Claims by reason' });
    expect(within(reasons).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Arrived leaking2', 'Arrived damaged1']);
    expect(within(card).getAllByRole('row')[1]!.textContent).toBe('Flush Probiotic Toilet Cleaner3 / 3001.0%');
    expect(calls.some((c) => c.url === '/api/admin/reports/claims?from=2026-03-01&to=2026-03-10')).toBe(true);
  });

  it('defaults to the last 30 days ending today', async () => {
    const calls = open(MANAGER, '/admin');
    await screen.findByTestId('range-salesCents');
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    expect(calls.find((c) => c.url.startsWith('/api/admin/reports/sales'))?.url).toBe(`/api/admin/reports/sales?from=${from}&to=${today}`);
  });

  it('says what to fix about a bad range, and asks the server nothing', async () => {
    const calls = open(MANAGER, '/admin?from=2026-03-10&to=2026-03-01');
    expect((await screen.findByRole('alert')).textContent).toBe(REPORT_MESSAGES.order);
    expect(calls.some((c) => c.url.startsWith('/api/admin/reports/'))).toBe(false);
  });

  it('is not shown to support (reports are for owners and managers)', async () => {
    const calls = open(SUPPORT, '/admin');
    await screen.findByTestId('stat-orders-today');
    expect(screen.queryByTestId('range-reports')).toBeNull();
    expect(screen.queryByText('Damage claims')).toBeNull();
    expect(calls.some((c) => c.url.startsWith('/api/admin/reports/'))).toBe(false);
  });

  it('words a change', () => {
    expect([changeWords(5, 5), changeWords(3, 0), changeWords(110, 100), changeWords(90, 100), changeWords(1001, 1000)]).toEqual([
      'no change',
      'new this period',
      'up 10%',
      'down 10%',
      'up less than 1%',
    ]);
  });
});
