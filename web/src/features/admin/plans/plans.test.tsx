import { formatStaffTime } from '@nh/shared/days';
import {
  ADMIN_SUBSCRIPTION_MESSAGES,
  type AdminSubscriptionDetail,
  type AtRiskPlan,
} from '@nh/shared/contracts/admin-subscriptions';
import type { AuditPage } from '@nh/shared/contracts/audit';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAdmin } from '../testing/render-admin';
import { stubApi, type Call, type Handler, type Reply } from '../testing/stub-api';
import SubscriptionDetailPage from './screens/subscription-detail';
import SubscriptionsPage from './screens/subscriptions';
import { stubBrowserForRadix } from '../testing/jsdom';
import { PLAN_ID, planDetail, planSummary } from '../testing/plan-fixtures';

stubBrowserForRadix();

const SUPPORT: StaffMe = { id: 's4', email: 'sam@example.com', name: 'Sam Support', role: 'support' };
const MANAGER: StaffMe = { id: 's2', email: 'mia@example.com', name: 'Mia Manager', role: 'manager' };
const FULFILMENT: StaffMe = { id: 's3', email: 'fran@example.com', name: 'Fran Fulfil', role: 'fulfilment' };

const ORDER_ID = 'a1b2c3d4-1111-4222-8333-944455566677';
const DECLINED_ORDER = 'b2c3d4e5-1111-4222-8333-944455566677';

/** The plan page's plan: its billing history and an order, a window to move the next delivery in; items, address and card link not offered. */
const detail = (overrides: Partial<AdminSubscriptionDetail> = {}): AdminSubscriptionDetail =>
  planDetail({
    actions: { pause: true, resume: false, skip: true, reschedule: true, frequency: true, cancel: true, items: false, address: false, cardLink: false },
    rescheduleWindow: { earliest: '2025-03-31', latest: '2025-05-09' },
    history: [
      {
        period: '2025-03-10',
        outcome: 'charged',
        amount: '36.72',
        orderId: ORDER_ID,
        message: 'This transaction has been approved.',
        cardType: 'Visa',
        cardLastFour: '4242',
        skipReason: null,
        at: '2025-03-10T14:31:00.000Z',
      },
      {
        period: '2025-02-10',
        outcome: 'skipped',
        amount: null,
        orderId: null,
        message: null,
        cardType: null,
        cardLastFour: null,
        skipReason: 'staff-skip',
        at: '2025-02-01T09:00:00.000Z',
      },
      {
        period: '2025-01-10',
        outcome: 'declined',
        amount: '36.72',
        orderId: DECLINED_ORDER,
        message: 'This transaction has been declined.',
        cardType: 'Visa',
        cardLastFour: '0002',
        skipReason: null,
        at: '2025-01-10T14:31:00.000Z',
      },
    ],
    orders: [{ id: ORDER_ID, status: 'processing', total: '36.72', createdAt: '2025-03-10T14:31:00.000Z' }],
    ...overrides,
  });

const me = (staff: StaffMe): Reply => ({ status: 200, body: staff });
const requests = (calls: Call[]) => calls.map((c) => `${c.method} ${c.url}`);

describe('the plan table', () => {
  it('reads its filters from the URL, lists plans in staff words and pages', async () => {
    const calls = stubApi({
      'GET /api/admin/me': me(SUPPORT),
      'GET /api/admin/subscriptions': (_body, url) => {
        const offset = Number(new URL(url, 'http://x').searchParams.get('offset'));
        const plans =
          offset === 0
            ? [planSummary({ failedAttempts: 2, retryAt: '2025-04-11T00:00:00.000Z', interval: 'quarterly' })]
            : [planSummary({ id: 'f'.repeat(8) + PLAN_ID.slice(8), customerName: 'Bea Later' })];
        return { status: 200, body: { subscriptions: plans, total: 51 } };
      },
    });
    renderAdmin('/admin/subscriptions?status=active&minFailedAttempts=1', {
      signedIn: [{ path: '/admin/subscriptions', Component: SubscriptionsPage }],
    });
    const row = await screen.findByTestId(`plan-${PLAN_ID}`);
    expect(row.textContent).toContain('Ada Saver');
    expect(row.textContent).toContain('2 × Surfy Cleaner');
    expect(row.textContent).toContain('Every 3 months');
    expect(row.textContent).toContain('Apr 10, 2025');
    expect(row.textContent).toContain('Retry Apr 11, 2025');
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Ada Saver' }).getAttribute('href')).toBe(`/admin/subscriptions/${PLAN_ID}`);
    expect(calls.find((c) => c.url.startsWith('/api/admin/subscriptions'))!.url).toBe(
      '/api/admin/subscriptions?status=active&minFailedAttempts=1&limit=50&offset=0',
    );

    expect(screen.getByText('1–1 of 51')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Bea Later')).toBeTruthy();
    expect(calls.at(-1)!.url).toBe('/api/admin/subscriptions?status=active&minFailedAttempts=1&limit=50&offset=50');
  });

  it("checks the dates with the contract's messages before searching", async () => {
    const calls = stubApi({
      'GET /api/admin/me': me(SUPPORT),
      'GET /api/admin/subscriptions': { status: 200, body: { subscriptions: [], total: 0 } },
    });
    renderAdmin('/admin/subscriptions', { signedIn: [{ path: '/admin/subscriptions', Component: SubscriptionsPage }] });
    expect(await screen.findByText('No plans match these filters.')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search plans'), 'ada@');
    fireEvent.change(screen.getByLabelText('Next billing from'), { target: { value: '2025-05-01' } });
    fireEvent.change(screen.getByLabelText('Next billing to'), { target: { value: '2025-04-01' } });
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText(ADMIN_SUBSCRIPTION_MESSAGES.dateOrder)).toBeTruthy();
    const listed = () => calls.filter((c) => c.url.startsWith('/api/admin/subscriptions'));
    expect(listed()).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Next billing to'), { target: { value: '2025-05-31' } });
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(listed()).toHaveLength(2));
    expect(listed()[1]!.url).toBe('/api/admin/subscriptions?search=ada%40&dueFrom=2025-05-01&dueTo=2025-05-31&limit=50&offset=0');
  });

  it('lists the plans at risk on their own tab, with why', async () => {
    const atRisk = {
      ...planSummary({ failedAttempts: 1, retryAt: '2025-04-11T14:30:00.000Z' }),
      reasons: ['item-unavailable', 'dunning', 'card-expiring', 'stock-short'],
      unavailableItems: [{ productId: 1, productName: 'Surfy Cleaner', problem: 'out-of-stock', wanted: 2, available: 0 }],
      lastPaymentMessage: 'This transaction has been declined.',
      cardExpiresOn: '2025-03-31',
      shortItems: [{ productId: 2, productName: 'Lavender Refill', inStock: 12, runsShortOn: '2025-04-08' }],
    } as AtRiskPlan;
    const calls = stubApi({
      'GET /api/admin/me': me(SUPPORT),
      'GET /api/admin/subscriptions': { status: 200, body: { subscriptions: [planSummary()], total: 1 } },
      'GET /api/admin/subscriptions/at-risk': { status: 200, body: { plans: [atRisk], total: 1 } },
    });
    const router = renderAdmin('/admin/subscriptions', { signedIn: [{ path: '/admin/subscriptions', Component: SubscriptionsPage }] });
    await screen.findByTestId(`plan-${PLAN_ID}`);
    await userEvent.setup().click(screen.getByRole('tab', { name: 'At risk' }));
    const row = await screen.findByTestId(`at-risk-${PLAN_ID}`);
    expect(within(row).getByText('Item unavailable')).toBeTruthy();
    expect(within(row).getByText('Payment failing')).toBeTruthy();
    expect(row.textContent).toContain('Surfy Cleaner: Out of stock (needs 2, 0 in stock)');
    expect(row.textContent).toContain('1 failed payment attempt, next try Apr 11, 2025');
    expect(row.textContent).toContain('Last answer: This transaction has been declined.');
    expect(within(row).getByText('Card expires before the next billing date')).toBeTruthy();
    expect(row.textContent).toContain('Saved card good until Mar 31, 2025');
    // Issue 23: the stock cover's shortage, in words.
    expect(within(row).getByText('Stock runs short before this delivery')).toBeTruthy();
    expect(row.textContent).toContain('Lavender Refill: 12 in stock, not enough for the renewals and sales due by this delivery (short from Apr 8, 2025)');
    expect(router.state.location.search).toBe('?tab=at-risk');
    expect(calls.at(-1)!.url).toBe('/api/admin/subscriptions/at-risk?limit=50&offset=0');
  });

  it('shows fulfilment the role message and calls no plan API', async () => {
    const calls = stubApi({ 'GET /api/admin/me': me(FULFILMENT) });
    renderAdmin('/admin/subscriptions', { signedIn: [{ path: '/admin/subscriptions', Component: SubscriptionsPage }] });
    expect(await screen.findByText('Your role (Fulfilment) cannot view subscriptions. Ask an owner if you need it.')).toBeTruthy();
    expect(requests(calls)).toEqual(['GET /api/admin/me']);
  });
});

function openPlan(staff: StaffMe, routes: Record<string, Reply | Handler> = {}, plan = detail()) {
  const calls = stubApi({
    'GET /api/admin/me': me(staff),
    [`GET /api/admin/subscriptions/${PLAN_ID}`]: { status: 200, body: plan },
    ...routes,
  });
  renderAdmin(`/admin/subscriptions/${PLAN_ID}`, { signedIn: [{ path: '/admin/subscriptions/:id', Component: SubscriptionDetailPage }] });
  return calls;
}

describe('a plan', () => {
  it('says who paused a plan: the customer (until the day it resumes) or staff with their reason', async () => {
    openPlan(SUPPORT, {}, detail({ status: 'paused', pauseCause: 'staff', pausedBy: { by: 'customer', reason: null }, resumesOn: '2025-06-10' }));
    expect(await screen.findByText('Paused by the customer until Jun 10, 2025')).toBeTruthy();
  });

  it('says staff paused a plan, with their reason', async () => {
    openPlan(SUPPORT, {}, detail({ status: 'paused', pauseCause: 'staff', pausedBy: { by: 'staff', reason: 'Customer away' }, resumesOn: null }));
    expect(await screen.findByText('Paused by staff: Customer away')).toBeTruthy();
  });

  it("shows the customer's own changes, each time and date in words, never a raw ISO string", async () => {
    const changes = [
      { id: 2, at: '2027-02-03T10:26:00.000Z', actor: 'customer' as const, kind: 'paused', before: { status: 'active' }, after: { status: 'paused', deliveries: 2, resumesOn: '2027-04-03' } },
      { id: 1, at: '2027-01-20T08:00:00.000Z', actor: 'customer' as const, kind: 'rescheduled', before: { nextBillingDate: '2027-02-03T14:00:00.000Z' }, after: { nextBillingDate: '2027-02-10T14:00:00.000Z' } },
    ];
    openPlan(SUPPORT, {}, detail({ customerChanges: changes }));
    const list = await screen.findByTestId('plan-customer-changes');
    const paused = within(list).getByTestId('customer-change-2');
    expect(within(paused).getByText('Customer: Paused the plan')).toBeTruthy();
    expect(within(paused).getByText(formatStaffTime('2027-02-03T10:26:00.000Z'))).toBeTruthy();
    expect(paused.textContent).toContain('Resumes on: April 3, 2027');
    const moved = within(list).getByTestId('customer-change-1');
    expect(moved.textContent).toContain(`Next billing date: ${formatStaffTime('2027-02-03T14:00:00.000Z')}`);
    expect(list.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('shows its terms, billing history with order links and its orders; support sees no audit', async () => {
    const calls = openPlan(SUPPORT);
    expect(await screen.findByRole('heading', { name: 'Plan 0f6d2b1c', level: 1 })).toBeTruthy();
    expect(await screen.findByText('Ada Saver')).toBeTruthy();
    expect(screen.getByTestId('plan-next-billing').textContent).toBe('Apr 10, 2025');
    for (const words of [
      '$36.72 · Monthly',
      '15% Subscribe & Save discount',
      'Visa ending 4242',
      'Saved for renewals',
      '1 Main St',
      'Springfield, IL 62701',
    ]) {
      expect(document.body.textContent).toContain(words);
    }
    const charged = screen.getByTestId('billing-2025-03-10');
    expect(within(charged).getByText('Charged')).toBeTruthy();
    expect(within(charged).getByRole('link', { name: 'Order a1b2c3d4' }).getAttribute('href')).toBe(`/admin-orders/${ORDER_ID}`);
    expect(screen.getByTestId('billing-2025-02-10').textContent).toContain(
      'Skipped: Feb 10, 2025 — not charged (skipped by staff for the customer)',
    );
    const declined = screen.getByTestId('billing-2025-01-10');
    expect(within(declined).getByText('Declined')).toBeTruthy();
    expect(declined.textContent).toContain('This transaction has been declined.');
    expect(within(declined).getByRole('link', { name: 'Order b2c3d4e5' }).getAttribute('href')).toBe(`/admin-orders/${DECLINED_ORDER}`);
    expect(screen.getByText('Processing')).toBeTruthy();

    expect(screen.queryByTestId('plan-history')).toBeNull();
    expect(calls.some((c) => c.url.startsWith('/api/admin/audit'))).toBe(false);
    // Support may act: the plan's open actions are offered, the closed one (resume) is not.
    for (const name of ['Pause plan', 'Skip next delivery', 'Change next date', 'Cancel plan'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resume plan' })).toBeNull();
  });

  it("shows the plan's card (the customer's latest), not the card of its last charge", async () => {
    openPlan(SUPPORT, {}, detail({ cardType: 'MasterCard', cardLastFour: '0015', cardExpiresOn: '2030-12-31' }));
    await waitFor(() => expect(screen.getByTestId('plan-card').textContent).toBe('Mastercard ending 0015'));
    expect(document.body.textContent).toContain('Good until Dec 31, 2030');
    // The billing history still names the card each charge was taken on.
    expect(screen.getByTestId('billing-2025-03-10').textContent).toContain('Visa ending 4242');
  });

  it('skips the next delivery after a confirmation that names the dates; the plan shows its new date', async () => {
    const calls = openPlan(SUPPORT, {
      [`POST /api/admin/subscriptions/${PLAN_ID}/skip`]: { status: 200, body: detail({ nextBillingDate: '2025-05-10T14:30:00.000Z' }) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Skip next delivery' }));
    const dialog = await screen.findByRole('dialog', { name: 'Skip the next delivery?' });
    expect(dialog.textContent).toContain(
      'The delivery of Apr 10, 2025 is not charged or sent. The next one is on May 10, 2025. Ada Saver is emailed about the change.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Skip next delivery' }));
    expect(await screen.findByText(ADMIN_SUBSCRIPTION_MESSAGES.skipped)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('plan-next-billing').textContent).toBe('May 10, 2025');
    const skip = calls.find((c) => c.method === 'POST')!;
    expect(skip).toMatchObject({ url: `/api/admin/subscriptions/${PLAN_ID}/skip`, body: {} });
  });

  it("keeps the dialog open with the server's message when it refuses; the date is offered within the window", async () => {
    const refusal = ADMIN_SUBSCRIPTION_MESSAGES.dateNotAllowed('2025-03-31', '2025-05-09');
    const calls = openPlan(SUPPORT, {
      [`POST /api/admin/subscriptions/${PLAN_ID}/reschedule`]: {
        status: 422,
        body: { code: 'SUBSCRIPTION_DATE_NOT_ALLOWED', message: refusal, earliest: '2025-03-31', latest: '2025-05-09' },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change next date' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the next delivery date' });
    expect(dialog.textContent).toContain('Choose a day from Mar 31, 2025 to May 9, 2025');
    const date = within(dialog).getByLabelText('New date of the next delivery');
    expect([date.getAttribute('min'), date.getAttribute('max'), (date as HTMLInputElement).value]).toEqual([
      '2025-03-31',
      '2025-05-09',
      '2025-03-31',
    ]);
    fireEvent.change(date, { target: { value: '2025-04-20' } });
    await user.click(within(dialog).getByRole('button', { name: 'Change next date' }));
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ nextBillingDate: '2025-04-20' });
    // The plan is read again after a refusal (it may have changed meanwhile).
    await waitFor(() => expect(calls.filter((c) => c.url === `/api/admin/subscriptions/${PLAN_ID}`)).toHaveLength(2));
  });

  it('asks for the reason before cancelling', async () => {
    const calls = openPlan(SUPPORT, {
      [`POST /api/admin/subscriptions/${PLAN_ID}/cancel`]: {
        status: 200,
        body: detail({
          status: 'cancelled',
          cancelledAt: '2025-03-30T10:00:00.000Z',
          actions: { pause: false, resume: false, skip: false, reschedule: false, frequency: false, cancel: false, items: false, address: false, cardLink: false },
        }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this plan?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel plan' }));
    expect(await within(dialog).findByText(ADMIN_SUBSCRIPTION_MESSAGES.cancelReason)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(within(dialog).getByLabelText('Reason (for the audit trail)'), 'Moving abroad');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel plan' }));
    expect(await screen.findByText(ADMIN_SUBSCRIPTION_MESSAGES.cancelled)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ reason: 'Moving abroad' });
    expect(await screen.findByText('Nothing can be changed on this plan now.')).toBeTruthy();
    expect(screen.getByTestId('plan-next-billing').textContent).toBe('—');
  });

  it('changes the delivery frequency with a reason; the plan then reads every 2 months', async () => {
    const calls = openPlan(SUPPORT, {
      [`POST /api/admin/subscriptions/${PLAN_ID}/frequency`]: { status: 200, body: detail({ intervalCount: 2, nextBillingDate: '2025-05-10T14:30:00.000Z' }) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change delivery frequency' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the delivery frequency' });
    expect(within(dialog).getByText(/The plan is delivered every month\./)).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLInputElement>('Every month').checked).toBe(true);
    await user.click(within(dialog).getByLabelText('Every 2 months'));
    await user.click(within(dialog).getByRole('button', { name: 'Change delivery frequency' }));
    expect(await within(dialog).findByText(ADMIN_SUBSCRIPTION_MESSAGES.frequencyReason)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(within(dialog).getByLabelText('Reason (for the audit trail)'), 'Too much product');
    await user.click(within(dialog).getByRole('button', { name: 'Change delivery frequency' }));
    expect(await screen.findByText(ADMIN_SUBSCRIPTION_MESSAGES.frequencyChanged)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ intervalCount: 2, reason: 'Too much product' });
    expect(await screen.findByText(/Every 2 months/)).toBeTruthy();
  });

  it('says why staff cannot resume a plan paused by a failed payment', async () => {
    openPlan(
      SUPPORT,
      {},
      detail({
        status: 'paused',
        pauseCause: 'payment-failed',
        actions: { pause: false, resume: false, skip: false, reschedule: false, frequency: false, cancel: true, items: false, address: false, cardLink: false },
      }),
    );
    expect(await screen.findByText(ADMIN_SUBSCRIPTION_MESSAGES.needsNewCard)).toBeTruthy();
    expect(screen.getByText('Paused: renewal payment failed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resume plan' })).toBeNull();
  });

  it("says why nothing can be changed while the period's charge is under way", async () => {
    openPlan(SUPPORT, {}, detail({ actions: { pause: false, resume: false, skip: false, reschedule: false, frequency: false, cancel: false, items: false, address: false, cardLink: false } }));
    expect(await screen.findByText('Nothing can be changed on this plan now.')).toBeTruthy();
    expect(screen.getByTestId('charge-under-way').textContent).toBe(ADMIN_SUBSCRIPTION_MESSAGES.chargeInProgress);
    expect(screen.queryByRole('button', { name: 'Cancel plan' })).toBeNull();
  });

  it("shows a manager the plan's staff changes from the audit trail", async () => {
    const audit: AuditPage = {
      total: 1,
      entries: [
        {
          id: 77,
          at: '2025-03-29T10:00:00.000Z',
          actorId: 's4',
          actorEmail: 'sam@example.com',
          actorRole: 'support',
          action: 'subscription.skipped',
          entityType: 'subscription',
          entityId: PLAN_ID,
          before: { nextBillingDate: '2025-03-10' },
          after: { nextBillingDate: '2025-04-10' },
          ip: null,
          userAgent: null,
          requestId: null,
        },
      ],
    };
    const calls = openPlan(MANAGER, { 'GET /api/admin/audit': { status: 200, body: audit } });
    const entry = await screen.findByTestId('plan-history-77');
    expect(entry.textContent).toContain('Skipped subscription delivery');
    expect(entry.textContent).toContain('sam@example.com (Support)');
    expect(entry.textContent).toContain('Next billing date: March 10, 2025 → changed to April 10, 2025');
    expect(calls.find((c) => c.url.startsWith('/api/admin/audit'))!.url).toBe(
      `/api/admin/audit?entityType=subscription&entityId=${PLAN_ID}&limit=50&offset=0`,
    );
  });

  it('says when the plan does not exist', async () => {
    stubApi({
      'GET /api/admin/me': me(SUPPORT),
      [`GET /api/admin/subscriptions/${PLAN_ID}`]: { status: 404, body: { message: ADMIN_SUBSCRIPTION_MESSAGES.notFound } },
    });
    renderAdmin(`/admin/subscriptions/${PLAN_ID}`, { signedIn: [{ path: '/admin/subscriptions/:id', Component: SubscriptionDetailPage }] });
    expect(await screen.findByText(ADMIN_SUBSCRIPTION_MESSAGES.notFound)).toBeTruthy();
  });
});
