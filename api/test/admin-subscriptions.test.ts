/**
 * Subscribe & Save plans in the back office, against the real database: the table (search, filters,
 * paging), a plan with its billing history, the at-risk list, and pause, resume, skip, reschedule and
 * cancel on a customer's behalf — each audited with before and after and emailed through the outbox,
 * each under the plan's row lock (the renewal's). Roles: support may do all of it, fulfilment none.
 * (The renewal after a skip, and the emails themselves, are tested with the workers: renewals.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import type { LineItem } from '@nh/server/db/schema';
import { toCents } from '@nh/shared/money';
import {
  ADMIN_SUBSCRIPTION_MESSAGES,
  AT_RISK_REASON_LABELS,
  adminSubscriptionDetailSchema,
  adminSubscriptionsPageSchema,
  atRiskPageSchema,
  rescheduleWindow,
  type AdminSubscriptionDetail,
} from '@nh/shared/contracts/admin-subscriptions';
import { billingPeriodOf, nextBillingDate } from '@nh/shared/contracts/subscriptions';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let support: StaffClient;
let fulfilment: StaffClient;
/** A word only this file's plans carry in their customer name, so searches see none of another file's. */
const TAG = `Subtest${randomUUID().slice(0, 6)}`;

const DAY = 86_400_000;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);
const startOfToday = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
};
/** `days` from today (UTC) at `hours` o'clock. */
const onDay = (days: number, hours = 14.5) => new Date(startOfToday().getTime() + days * DAY + hours * 3_600_000);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

let productCount = 0;
async function makeProduct(inventory = 50, status: 'active' | 'inactive' | 'out_of_stock' = 'active'): Promise<{ id: number; name: string }> {
  productCount++;
  const name = `${TAG} product ${productCount}`;
  const [row] = await api.ctx.db
    .insert(tables.products)
    .values({ name, slug: `${TAG.toLowerCase()}-${productCount}`, price: toCents('20.00'), inventory, status })
    .returning({ id: tables.products.id });
  return { id: row!.id, name };
}
const line = (product: { id: number; name: string }, quantity = 1): LineItem => ({ productId: product.id, productName: product.name, variantSku: null, sku: null, itemNumber: null, quantity, price: '20.00' });

let healthyProduct: { id: number; name: string };

interface PlanInput {
  name?: string;
  email?: string;
  due?: Date;
  status?: 'active' | 'paused' | 'cancelled';
  failedAttempts?: number;
  retryAt?: Date | null;
  card?: boolean;
  items?: LineItem[];
  /** yyyy-MM-dd: the last day the stored card is good (null: not known). */
  cardExpiresOn?: string | null;
}

async function makePlan(input: PlanInput = {}): Promise<string> {
  const [row] = await api.ctx.db
    .insert(tables.subscriptions)
    .values({
      customerName: input.name ?? `${TAG} Ada Saver`,
      customerEmail: input.email ?? `ada.${randomUUID().slice(0, 8)}@example.com`,
      items: input.items ?? [line(healthyProduct, 2)],
      amount: toCents('36.72'),
      nextBillingDate: input.due ?? onDay(10),
      status: input.status ?? 'active',
      shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
      failedAttempts: input.failedAttempts ?? 0,
      retryAt: input.retryAt ?? null,
      authnetCustomerProfileId: input.card === false ? null : '9001',
      authnetPaymentProfileId: input.card === false ? null : '9002',
      cardExpiresOn: input.cardExpiresOn ?? null,
    })
    .returning({ id: tables.subscriptions.id });
  return row!.id;
}

const plan = async (id: string) => (await api.ctx.db.select().from(tables.subscriptions).where(eq(tables.subscriptions.id, id)))[0]!;
const auditOf = (id: string) =>
  q<{ action: string; actor_email: string; actor_role: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null; id: number }>(
    `select id, action, actor_email, actor_role, before, after from audit_events where entity_type = 'subscription' and entity_id = $1 order by id`,
    [id],
  );
const outboxOf = (id: string) =>
  q<{ payload: { subscriptionId: string; auditId: number } }>(`select payload from outbox where topic = 'subscription.changed-by-staff' and payload->>'subscriptionId' = $1 order by id`, [id]);
const skippedOf = (id: string) => q<{ billing_period: string; reason: string }>('select billing_period, reason from subscription_skipped_periods where subscription_id = $1 order by billing_period', [id]);

const post = (client: StaffClient, id: string, action: string, body: unknown = {}) => client.request(`/api/admin/subscriptions/${id}/${action}`, { method: 'POST', body });
async function detail(res: Response): Promise<AdminSubscriptionDetail> {
  expect(res.status, await res.clone().text()).toBe(200);
  return adminSubscriptionDetailSchema.parse(await res.json());
}
async function refusal(res: Response, status: number, code: string, message?: string) {
  const body = (await res.json()) as { code: string; message: string };
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  if (message) expect(body.message).toBe(message);
  return body;
}

/** Each action leaves exactly one more audit row (by the staff member, with before and after) and one outbox row naming it. */
async function expectRecorded(id: string, action: string, before: Record<string, unknown>, after: Record<string, unknown>) {
  const audit = await auditOf(id);
  const last = audit[audit.length - 1]!;
  expect(last).toMatchObject({ action, actor_email: support.email, actor_role: 'support', before, after });
  const outbox = await outboxOf(id);
  expect(outbox).toHaveLength(audit.length);
  expect(outbox[outbox.length - 1]!.payload).toEqual({ subscriptionId: id, auditId: last.id });
}

beforeAll(async () => {
  api = await startTestApi();
  support = await signInAs(api, 'support');
  fulfilment = await signInAs(api, 'fulfilment');
  healthyProduct = await makeProduct(1000);
});
afterAll(() => api.close());

describe('the plan table (GET /api/admin/subscriptions)', () => {
  let soon: string, later: string, paused: string, dunning: string;
  beforeAll(async () => {
    soon = await makePlan({ name: `${TAG} Lista Soon`, email: `lista.soon.${TAG}@example.com`, due: onDay(2) });
    later = await makePlan({ name: `${TAG} Lista Later`, due: onDay(20) });
    paused = await makePlan({ name: `${TAG} Lista Paused`, due: onDay(5), status: 'paused' });
    dunning = await makePlan({ name: `${TAG} Lista Dunning`, due: onDay(-2), failedAttempts: 2, retryAt: onDay(1, 0) });
  });
  const list = async (query: string) => {
    const res = await support.request(`/api/admin/subscriptions?${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return adminSubscriptionsPageSchema.parse(await res.json());
  };

  it('support searches by name or email, soonest billing first, with a total and pages', async () => {
    const all = await list(`search=${TAG}%20Lista`);
    expect(all.subscriptions.map((s) => s.id)).toEqual([dunning, soon, paused, later]);
    expect(all.total).toBe(4);
    expect(all.subscriptions[1]).toMatchObject({ customerName: `${TAG} Lista Soon`, status: 'active', amount: '36.72', interval: 'monthly', failedAttempts: 0, retryAt: null });
    expect(all.subscriptions[1]!.items).toEqual([{ productId: healthyProduct.id, productName: healthyProduct.name, variantSku: null, quantity: 2, price: '20.00' }]);
    const page = await list(`search=${TAG}%20Lista&limit=2&offset=2`);
    expect(page.subscriptions.map((s) => s.id)).toEqual([paused, later]);
    expect(page.total).toBe(4);
    expect((await list(`search=LISTA.SOON.${TAG}`)).subscriptions.map((s) => s.id)).toEqual([soon]);
  });

  it('finds a plan by the start of its id', async () => {
    const found = await list(`search=${later.slice(0, 8)}`);
    expect(found.subscriptions.map((s) => s.id)).toContain(later);
    expect(found.subscriptions.every((s) => s.id.startsWith(later.slice(0, 8)))).toBe(true);
  });

  it('filters by status, next billing date (UTC days, both ends) and failed attempts', async () => {
    const search = `search=${TAG}%20Lista`;
    expect((await list(`${search}&status=paused`)).subscriptions.map((s) => s.id)).toEqual([paused]);
    expect((await list(`${search}&dueFrom=${dayOf(onDay(2))}&dueTo=${dayOf(onDay(5))}`)).subscriptions.map((s) => s.id)).toEqual([soon, paused]);
    expect((await list(`${search}&dueTo=${dayOf(onDay(0))}`)).subscriptions.map((s) => s.id)).toEqual([dunning]);
    const inDunning = await list(`${search}&minFailedAttempts=1`);
    expect(inDunning.subscriptions.map((s) => s.id)).toEqual([dunning]);
    expect(inDunning.subscriptions[0]).toMatchObject({ failedAttempts: 2, retryAt: onDay(1, 0).toISOString() });
  });

  it('answers 400 with a message for a bad filter', async () => {
    for (const [query, message] of [
      ['status=sleeping', ADMIN_SUBSCRIPTION_MESSAGES.status],
      ['dueFrom=2026-13-01', ADMIN_SUBSCRIPTION_MESSAGES.date],
      ['dueFrom=2026-05-02&dueTo=2026-05-01', ADMIN_SUBSCRIPTION_MESSAGES.dateOrder],
      ['minFailedAttempts=-1', ADMIN_SUBSCRIPTION_MESSAGES.minFailedAttempts],
      ['limit=500', ADMIN_SUBSCRIPTION_MESSAGES.pageLimit],
    ]) {
      const res = await support.request(`/api/admin/subscriptions?${query}`);
      await refusal(res, 400, 'VALIDATION_FAILED', message);
    }
  });

  it('fulfilment may not see plans, nor act on them', async () => {
    for (const res of [
      await fulfilment.request('/api/admin/subscriptions'),
      await fulfilment.request('/api/admin/subscriptions/at-risk'),
      await fulfilment.request(`/api/admin/subscriptions/${soon}`),
      await post(fulfilment, soon, 'skip'),
      await post(fulfilment, soon, 'pause', { reason: 'Customer asked on the phone' }),
      await post(fulfilment, soon, 'cancel', { reason: 'asked' }),
    ]) {
      await refusal(res, 403, 'STAFF_FORBIDDEN');
    }
    expect(await auditOf(soon)).toEqual([]);
  });
});

describe('a plan and its billing history (GET /api/admin/subscriptions/{id})', () => {
  it('shows the plan, the card of its latest approved payment, each period charged, declined or skipped with its order, and every order', async () => {
    const due = onDay(12);
    const id = await makePlan({ name: `${TAG} History`, due });
    const order = async (status: string, createdAt: string) =>
      (
        await q<{ id: string }>(
          `insert into orders (customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status, subscription_id, created_at)
           values ('h@example.com', 'History', '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}', '[]', '40.00', '0', '2.72', '36.72', $1, $2, $3) returning id`,
          [status, id, createdAt],
        )
      )[0]!.id;
    const first = await order('delivered', '2026-01-05T10:00:00Z');
    const declinedOrder = await order('cancelled', '2026-02-05T10:00:00Z');
    const retried = await order('cancelled', '2026-02-06T10:00:00Z');
    const paid = await order('processing', '2026-04-05T10:00:00Z');
    const pay = (period: string, status: string, orderId: string | null, card: string | null, message: string, createdAt: string) =>
      q(
        `insert into payment_transactions (subscription_id, billing_period, order_id, amount, status, card_type, card_last_four, response_message, created_at)
         values ($1, $2, $3, '36.72', $4, $5, $6, $7, $8)`,
        [id, period, orderId, status, card ? 'Visa' : null, card, message, createdAt],
      );
    await pay('2026-01-05', 'approved', first, '1111', 'This transaction has been approved.', '2026-01-05T10:00:00Z');
    await pay('2026-02-05', 'declined', retried, '0002', 'This transaction has been declined.', '2026-02-05T10:00:00Z');
    await pay('2026-04-05', 'approved', paid, '4242', 'This transaction has been approved.', '2026-04-05T10:00:00Z');
    await q(`insert into subscription_skipped_periods (subscription_id, billing_period, reason, created_at) values ($1, '2026-03-05', 'renewals-late', '2026-04-05T10:00:00Z')`, [id]);

    const view = await detail(await support.request(`/api/admin/subscriptions/${id}`));
    expect(view).toMatchObject({
      id,
      customerName: `${TAG} History`,
      status: 'active',
      amount: '36.72',
      interval: 'monthly',
      intervalCount: 1,
      nextBillingDate: due.toISOString(),
      failedAttempts: 0,
      retryAt: null,
      discountPercent: 15,
      cardType: 'Visa',
      cardLastFour: '4242',
      hasStoredCard: true,
      pauseCause: null,
      actions: { pause: true, resume: false, skip: true, reschedule: true, cancel: true },
      rescheduleWindow: rescheduleWindow(due, 'monthly', 1, startOfToday()),
      shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
    });
    expect(view.history.map((h) => [h.period, h.outcome, h.orderId, h.cardLastFour, h.skipReason])).toEqual([
      ['2026-04-05', 'charged', paid, '4242', null],
      ['2026-03-05', 'skipped', null, null, 'renewals-late'],
      ['2026-02-05', 'declined', retried, '0002', null],
      ['2026-01-05', 'charged', first, '1111', null],
    ]);
    expect(view.history[2]).toMatchObject({ amount: '36.72', message: 'This transaction has been declined.' });
    expect(view.orders.map((o) => [o.id, o.status])).toEqual([
      [paid, 'processing'],
      [retried, 'cancelled'],
      [declinedOrder, 'cancelled'],
      [first, 'delivered'],
    ]);
  });

  it('shows the plan’s own card after the customer changed it, not the card of its last charge (issue 19)', async () => {
    // A shopper whose plan was last charged on a Visa ending 1111 gives it a Mastercard ending 0015 on My Subscriptions.
    const email = `card.${randomUUID().slice(0, 8)}@example.com`;
    const registered = await api.request('/api/register', { body: { firstName: 'Ada', lastName: `${TAG} Card`, email, password: 'correct horse battery' } });
    expect(registered.status).toBe(201);
    const { user } = (await registered.json()) as { user: { id: string } };
    const cookie = registered.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))!;
    const id = await makePlan({ name: `${TAG} Card Changer`, email, cardExpiresOn: '2030-12-31' });
    await q('update subscriptions set user_id = $2 where id = $1', [id, user.id]);
    await q(
      `insert into payment_transactions (subscription_id, billing_period, amount, status, card_type, card_last_four, created_at)
       values ($1, '2026-01-05', '36.72', 'approved', 'Visa', '1111', now() - interval '1 day')`,
      [id],
    );
    const before = await detail(await support.request(`/api/admin/subscriptions/${id}`));
    expect(before).toMatchObject({ cardType: 'Visa', cardLastFour: '1111', cardExpiresOn: '2030-12-31' });

    const token = await api.request('/api/payments/sandbox/tokenize', {
      body: { authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' }, cardData: { cardNumber: '5424000000000015', month: '12', year: '2031', cardCode: '123', zip: '62701' } },
    });
    const { opaqueData } = (await token.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } };
    const changed = await api.request(`/api/subscriptions/${id}/card`, { body: opaqueData, headers: { cookie } });
    expect(changed.status, await changed.clone().text()).toBe(200);

    // Staff read the card renewals will charge: the new brand and last four (its expiry is not known yet), not the last charge's.
    const after = await detail(await support.request(`/api/admin/subscriptions/${id}`));
    expect(after).toMatchObject({ cardType: 'MasterCard', cardLastFour: '0015', cardExpiresOn: null, hasStoredCard: true });
    // The billing history still says which card each past charge was taken on.
    expect(after.history.map((h) => [h.period, h.cardType, h.cardLastFour])).toEqual([['2026-01-05', 'Visa', '1111']]);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    await refusal(await support.request(`/api/admin/subscriptions/${randomUUID()}`), 404, 'NOT_FOUND', ADMIN_SUBSCRIPTION_MESSAGES.notFound);
    await refusal(await support.request('/api/admin/subscriptions/not-a-plan'), 404, 'NOT_FOUND');
    await refusal(await post(support, randomUUID(), 'pause', { reason: 'Customer asked on the phone' }), 404, 'NOT_FOUND');
  });
});

describe('staff actions on a customer’s behalf', () => {
  it('pause, then resume: a plan staff paused goes back to active on its saved card; each audited and emailed', async () => {
    const due = onDay(8);
    const id = await makePlan({ due });
    const paused = await detail(await post(support, id, 'pause', { reason: 'Customer asked on the phone' }));
    expect(paused).toMatchObject({ status: 'paused', pauseCause: 'staff', actions: { pause: false, resume: true, skip: false, reschedule: false, cancel: true }, rescheduleWindow: null });
    await expectRecorded(id, 'subscription.paused', { status: 'active' }, { status: 'paused' });
    await refusal(await post(support, id, 'pause', { reason: 'Customer asked on the phone' }), 409, 'SUBSCRIPTION_NOT_ACTIVE', ADMIN_SUBSCRIPTION_MESSAGES.pauseNotActive);
    await refusal(await post(support, id, 'skip'), 409, 'SUBSCRIPTION_NOT_ACTIVE', ADMIN_SUBSCRIPTION_MESSAGES.skipNotActive);

    const resumed = await detail(await post(support, id, 'resume'));
    expect(resumed).toMatchObject({ status: 'active', pauseCause: null, nextBillingDate: due.toISOString() });
    await expectRecorded(id, 'subscription.resumed', { status: 'paused' }, { status: 'active' });
    await refusal(await post(support, id, 'resume'), 409, 'SUBSCRIPTION_NOT_PAUSED', ADMIN_SUBSCRIPTION_MESSAGES.notPaused);
    expect(await auditOf(id)).toHaveLength(2);
  });

  it('resuming a plan staff paused long ago skips the billing dates that went by (never charged later)', async () => {
    const due = onDay(-40);
    const id = await makePlan({ due, status: 'paused' });
    const missed = [due, nextBillingDate(due)].filter((d) => d < startOfToday());
    const next = missed.length === 2 ? nextBillingDate(nextBillingDate(due)) : nextBillingDate(due);
    const resumed = await detail(await post(support, id, 'resume'));
    expect(resumed.nextBillingDate).toBe(next.toISOString());
    expect(await skippedOf(id)).toEqual(missed.map((d) => ({ billing_period: billingPeriodOf(d), reason: 'plan-paused' })));
    await expectRecorded(
      id,
      'subscription.resumed',
      { status: 'paused', nextBillingDate: due.toISOString() },
      { status: 'active', nextBillingDate: next.toISOString(), skippedPeriods: missed.map(billingPeriodOf) },
    );
  });

  it('a plan paused by failed payments, or with no saved card, is not resumed by staff: 409 saying the customer needs a new card', async () => {
    const dunned = await makePlan({ status: 'paused', failedAttempts: 4, due: onDay(-9) });
    const view = await detail(await support.request(`/api/admin/subscriptions/${dunned}`));
    expect(view).toMatchObject({ pauseCause: 'payment-failed', actions: { resume: false, cancel: true } });
    await refusal(await post(support, dunned, 'resume'), 409, 'SUBSCRIPTION_NEEDS_NEW_CARD', ADMIN_SUBSCRIPTION_MESSAGES.needsNewCard);
    const noCard = await makePlan({ status: 'paused', card: false });
    await refusal(await post(support, noCard, 'resume'), 409, 'SUBSCRIPTION_NEEDS_NEW_CARD', ADMIN_SUBSCRIPTION_MESSAGES.noStoredCard);
    expect(await plan(dunned)).toMatchObject({ status: 'paused', failedAttempts: 4 });
    expect([...(await auditOf(dunned)), ...(await auditOf(noCard))]).toEqual([]);
  });

  it('skip: the next period recorded as skipped by staff, the date one interval on, dunning of that period over', async () => {
    const due = onDay(3);
    const id = await makePlan({ due });
    const skipped = await detail(await post(support, id, 'skip'));
    const next = nextBillingDate(due);
    expect(skipped.nextBillingDate).toBe(next.toISOString());
    expect(skipped.history[0]).toMatchObject({ period: billingPeriodOf(due), outcome: 'skipped', skipReason: 'staff-skip', orderId: null });
    expect(await skippedOf(id)).toEqual([{ billing_period: billingPeriodOf(due), reason: 'staff-skip' }]);
    await expectRecorded(id, 'subscription.skipped', { nextBillingDate: due.toISOString() }, { nextBillingDate: next.toISOString(), skippedPeriod: billingPeriodOf(due) });

    // A period in dunning: skipped, and the next one starts clean.
    const dunningDue = onDay(-3);
    const dunned = await makePlan({ due: dunningDue, failedAttempts: 2, retryAt: onDay(2, 0) });
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '36.72', 'declined')`, [dunned, billingPeriodOf(dunningDue)]);
    await detail(await post(support, dunned, 'skip'));
    expect(await plan(dunned)).toMatchObject({ failedAttempts: 0, retryAt: null, nextBillingDate: nextBillingDate(dunningDue) });
    expect((await auditOf(dunned))[0]).toMatchObject({
      before: { nextBillingDate: dunningDue.toISOString(), failedAttempts: 2, retryAt: onDay(2, 0).toISOString() },
      after: { nextBillingDate: nextBillingDate(dunningDue).toISOString(), skippedPeriod: billingPeriodOf(dunningDue), failedAttempts: 0, retryAt: null },
    });
  });

  it('skip waits for a renewal holding the plan, then refuses: the period it is charging must not move', async () => {
    const due = onDay(-1);
    const id = await makePlan({ due });
    const client = await api.ctx.db.$client.connect();
    let answered = false;
    try {
      // The renewal's first step: the plan locked, the period's payment row written as pending before the charge.
      await client.query('begin');
      await client.query('select id from subscriptions where id = $1 for update', [id]);
      const skip = post(support, id, 'skip').then((res) => {
        answered = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(answered).toBe(false);
      await client.query(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '36.72', 'pending')`, [id, billingPeriodOf(due)]);
      await client.query('commit');
      await refusal(await skip, 409, 'SUBSCRIPTION_CHARGE_IN_PROGRESS', ADMIN_SUBSCRIPTION_MESSAGES.chargeInProgress);
    } finally {
      await client.query('rollback').catch(() => {});
      client.release();
    }
    expect(await plan(id)).toMatchObject({ nextBillingDate: due });
    expect(await skippedOf(id)).toEqual([]);
    expect(await auditOf(id)).toEqual([]);
    const view = await detail(await support.request(`/api/admin/subscriptions/${id}`));
    expect(view.actions).toMatchObject({ skip: false, reschedule: false, pause: false, cancel: false });
    await refusal(await post(support, id, 'reschedule', { nextBillingDate: dayOf(onDay(5)) }), 409, 'SUBSCRIPTION_CHARGE_IN_PROGRESS');
  });

  it('pause and cancel are refused like skip while the period is being charged (it goes ahead and ships); allowed again once it failed', async () => {
    const due = onDay(-1);
    const id = await makePlan({ due });
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '36.72', 'pending')`, [id, billingPeriodOf(due)]);
    const before = await plan(id);
    await refusal(await post(support, id, 'pause', { reason: 'Customer asked on the phone' }), 409, 'SUBSCRIPTION_CHARGE_IN_PROGRESS', ADMIN_SUBSCRIPTION_MESSAGES.chargeInProgress);
    await refusal(await post(support, id, 'cancel', { reason: 'Customer asked on the phone' }), 409, 'SUBSCRIPTION_CHARGE_IN_PROGRESS', ADMIN_SUBSCRIPTION_MESSAGES.chargeInProgress);
    expect(await plan(id)).toEqual(before);
    expect(await auditOf(id)).toEqual([]);
    expect(await outboxOf(id)).toEqual([]);

    // Approved, the renewal still finishing its bookkeeping: under way too.
    await q(`update payment_transactions set status = 'approved' where subscription_id = $1`, [id]);
    await refusal(await post(support, id, 'cancel', { reason: 'Customer asked on the phone' }), 409, 'SUBSCRIPTION_CHARGE_IN_PROGRESS');

    // Declined: the period waits for its retry, and the plan may be paused or cancelled.
    await q(`update payment_transactions set status = 'declined' where subscription_id = $1`, [id]);
    expect((await detail(await support.request(`/api/admin/subscriptions/${id}`))).actions).toMatchObject({ pause: true, cancel: true });
    expect((await detail(await post(support, id, 'pause', { reason: 'Customer asked on the phone' }))).status).toBe('paused');
    expect((await detail(await post(support, id, 'cancel', { reason: 'Customer asked on the phone' }))).status).toBe('cancelled');
  });

  it('a charge held for review or whose answer was lost never stops pause or cancel (they go through, audited, and the plan says it stands); skip and move are refused with their own sentence', async () => {
    for (const outcome of [
      { code: '4', message: 'This transaction is being held for review.' },
      { code: null, message: 'We could not confirm your payment with the payment service. Please contact support before trying again.' },
    ]) {
      const due = onDay(-1);
      const id = await makePlan({ due });
      await q(`insert into payment_transactions (subscription_id, billing_period, amount, status, response_code, response_message) values ($1, $2, '36.72', 'pending', $3, $4)`, [
        id,
        billingPeriodOf(due),
        outcome.code,
        outcome.message,
      ]);
      const shown = await detail(await support.request(`/api/admin/subscriptions/${id}`));
      expect(shown.actions).toMatchObject({ pause: true, skip: false, reschedule: false, cancel: true });
      expect(shown.chargeBeingChecked).toBe(true);
      const before = await plan(id);
      await refusal(await post(support, id, 'skip'), 409, 'SUBSCRIPTION_CHARGE_BEING_CHECKED', ADMIN_SUBSCRIPTION_MESSAGES.chargeBeingChecked);
      await refusal(await post(support, id, 'reschedule', { nextBillingDate: dayOf(onDay(3)) }), 409, 'SUBSCRIPTION_CHARGE_BEING_CHECKED', ADMIN_SUBSCRIPTION_MESSAGES.chargeBeingChecked);
      expect(await plan(id)).toEqual(before);

      expect(await detail(await post(support, id, 'pause', { reason: 'Customer asked on the phone' }))).toMatchObject({ status: 'paused', chargeBeingChecked: true });
      expect(await detail(await post(support, id, 'cancel', { reason: 'Customer asked on the phone' }))).toMatchObject({ status: 'cancelled', chargeBeingChecked: false });
      expect((await auditOf(id)).length).toBe(2);
      expect(await q('select status from payment_transactions where subscription_id = $1', [id])).toEqual([{ status: 'pending' }]);
    }
  });

  it('reschedule: from tomorrow, at most 90 days ahead and before the delivery after next; the time of day kept', async () => {
    const due = onDay(10, 14.5);
    const id = await makePlan({ due });
    const afterNext = nextBillingDate(due);
    const window = { earliest: dayOf(onDay(1)), latest: dayOf(new Date(afterNext.getTime() - DAY)) };
    for (const day of [dayOf(onDay(0)), dayOf(onDay(-5)), dayOf(afterNext), dayOf(onDay(91))]) {
      const body = await refusal(await post(support, id, 'reschedule', { nextBillingDate: day }), 422, 'SUBSCRIPTION_DATE_NOT_ALLOWED', ADMIN_SUBSCRIPTION_MESSAGES.dateNotAllowed(window.earliest, window.latest));
      expect(body).toMatchObject(window);
    }
    await refusal(await post(support, id, 'reschedule', { nextBillingDate: '20-01-2030' }), 400, 'VALIDATION_FAILED', ADMIN_SUBSCRIPTION_MESSAGES.nextBillingDate);
    await refusal(await post(support, id, 'reschedule', {}), 400, 'VALIDATION_FAILED', ADMIN_SUBSCRIPTION_MESSAGES.nextBillingDate);
    expect(await auditOf(id)).toEqual([]);

    const moved = await detail(await post(support, id, 'reschedule', { nextBillingDate: window.latest }));
    const expected = new Date(`${window.latest}T14:30:00.000Z`);
    expect(moved.nextBillingDate).toBe(expected.toISOString());
    await expectRecorded(id, 'subscription.rescheduled', { nextBillingDate: due.toISOString() }, { nextBillingDate: expected.toISOString() });
    // Earlier works too (tomorrow), and the same day again changes nothing and records nothing.
    await detail(await post(support, id, 'reschedule', { nextBillingDate: window.earliest }));
    await detail(await post(support, id, 'reschedule', { nextBillingDate: window.earliest }));
    expect(await auditOf(id)).toHaveLength(2);
    expect((await plan(id)).nextBillingDate).toEqual(new Date(`${window.earliest}T14:30:00.000Z`));

    // The 90-day bound, on a quarterly plan (whose delivery after next is further away).
    const quarterly = await makePlan({ due: onDay(60) });
    await q(`update subscriptions set interval = 'quarterly' where id = $1`, [quarterly]);
    await refusal(await post(support, quarterly, 'reschedule', { nextBillingDate: dayOf(onDay(91)) }), 422, 'SUBSCRIPTION_DATE_NOT_ALLOWED');
    await detail(await post(support, quarterly, 'reschedule', { nextBillingDate: dayOf(onDay(90)) }));

    // A plan whose payment is failing keeps its date.
    const dunned = await makePlan({ due: onDay(-2), failedAttempts: 1, retryAt: onDay(1, 0) });
    await refusal(await post(support, dunned, 'reschedule', { nextBillingDate: dayOf(onDay(5)) }), 409, 'SUBSCRIPTION_IN_DUNNING', ADMIN_SUBSCRIPTION_MESSAGES.inDunning);
  });

  it('cancel: with a reason (kept in the audit trail); an ended plan refuses every action', async () => {
    const id = await makePlan({ status: 'paused' });
    await refusal(await post(support, id, 'cancel', {}), 400, 'VALIDATION_FAILED', ADMIN_SUBSCRIPTION_MESSAGES.cancelReason);
    await refusal(await post(support, id, 'cancel', { reason: '   ' }), 400, 'VALIDATION_FAILED', ADMIN_SUBSCRIPTION_MESSAGES.cancelReason);
    const cancelled = await detail(await post(support, id, 'cancel', { reason: 'Customer called: moving abroad' }));
    expect(cancelled).toMatchObject({ status: 'cancelled', actions: { pause: false, resume: false, skip: false, reschedule: false, cancel: false } });
    const row = await plan(id);
    expect(row.cancelledAt).not.toBeNull();
    await expectRecorded(id, 'subscription.cancelled', { status: 'paused' }, { status: 'cancelled', cancelledAt: row.cancelledAt!.toISOString(), reason: 'Customer called: moving abroad' });
    for (const [action, body] of [
      ['cancel', { reason: 'again' }],
      ['pause', { reason: 'again' }],
      ['resume', {}],
      ['skip', {}],
      ['reschedule', { nextBillingDate: dayOf(onDay(3)) }],
    ] as const) {
      await refusal(await post(support, id, action, body), 409, 'SUBSCRIPTION_ENDED', ADMIN_SUBSCRIPTION_MESSAGES.alreadyEnded);
    }
    expect(await auditOf(id)).toHaveLength(1);
  });

  it('the audit trail shows the actions in staff words to an owner', async () => {
    const id = await makePlan();
    await detail(await post(support, id, 'skip'));
    await detail(await post(support, id, 'pause', { reason: 'Customer asked on the phone' }));
    const owner = await signInAs(api, 'owner');
    const res = await owner.request(`/api/admin/audit?entityType=subscription&entityId=${id}`);
    const { entries } = (await res.json()) as { entries: Array<{ action: string; actorEmail: string; before: unknown; after: unknown }> };
    expect(entries.map((e) => [e.action, e.actorEmail])).toEqual([
      ['subscription.paused', support.email],
      ['subscription.skipped', support.email],
    ]);
  });
});

describe('the at-risk list (GET /api/admin/subscriptions/at-risk)', () => {
  it('lists active plans with an item out of stock, no longer sold or removed, and plans in dunning; not healthy, paused or cancelled ones', async () => {
    const scarce = await makeProduct(1);
    const retired = await makeProduct(100, 'inactive');
    const outOfStock = await makeProduct(100, 'out_of_stock');
    const shortPlan = await makePlan({ items: [line(scarce, 2), line(healthyProduct, 1)], due: onDay(4) });
    const retiredPlan = await makePlan({ items: [line(retired, 1), line(outOfStock, 1)], due: onDay(6) });
    const removedPlan = await makePlan({ items: [{ ...line(healthyProduct, 1), productId: 2_000_000_000, productName: 'Long gone' }], due: onDay(7) });
    const dunningPlan = await makePlan({ due: onDay(-2), failedAttempts: 1, retryAt: onDay(1, 0) });
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status, response_message) values ($1, $2, '36.72', 'declined', 'This transaction has been declined.')`, [
      dunningPlan,
      billingPeriodOf(onDay(-2)),
    ]);
    const both = await makePlan({ items: [line(retired, 1)], due: onDay(-1), failedAttempts: 1 });
    const healthy = await makePlan({ due: onDay(2) });
    const pausedShort = await makePlan({ items: [line(retired, 1)], status: 'paused' });
    const cancelledShort = await makePlan({ items: [line(retired, 1)], status: 'cancelled' });
    const mine = new Set([shortPlan, retiredPlan, removedPlan, dunningPlan, both, healthy, pausedShort, cancelledShort]);

    const atRisk = async (query = '') => {
      const res = await support.request(`/api/admin/subscriptions/at-risk?limit=100${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      const page = atRiskPageSchema.parse(await res.json());
      expect(page.total).toBeGreaterThanOrEqual(page.plans.length);
      return page.plans.filter((p) => mine.has(p.id));
    };
    const plans = await atRisk();
    expect(plans.map((p) => [p.id, p.reasons])).toEqual([
      [dunningPlan, ['dunning']],
      [both, ['item-unavailable', 'dunning']],
      [shortPlan, ['item-unavailable']],
      [retiredPlan, ['item-unavailable']],
      [removedPlan, ['item-unavailable']],
    ]);
    const byId = new Map(plans.map((p) => [p.id, p]));
    expect(byId.get(shortPlan)!.unavailableItems).toEqual([{ productId: scarce.id, productName: scarce.name, problem: 'out-of-stock', wanted: 2, available: 1 }]);
    expect(byId.get(retiredPlan)!.unavailableItems.map((i) => [i.productId, i.problem])).toEqual([
      [retired.id, 'inactive'],
      [outOfStock.id, 'out-of-stock'],
    ]);
    expect(byId.get(removedPlan)!.unavailableItems).toEqual([{ productId: 2_000_000_000, productName: 'Long gone', problem: 'removed', wanted: 1, available: 0 }]);
    expect(byId.get(dunningPlan)).toMatchObject({ failedAttempts: 1, lastPaymentMessage: 'This transaction has been declined.', unavailableItems: [] });

    expect((await atRisk('&reason=dunning')).map((p) => p.id)).toEqual([dunningPlan, both]);
    expect((await atRisk('&reason=item-unavailable')).map((p) => p.id)).toEqual([both, shortPlan, retiredPlan, removedPlan]);
    await refusal(await support.request('/api/admin/subscriptions/at-risk?reason=card'), 400, 'VALIDATION_FAILED', ADMIN_SUBSCRIPTION_MESSAGES.reason);
  });

  it('lists the plans whose next delivery the stock will not cover, by the stock cover report\'s own walk (issue 23), with the item in words', async () => {
    const tight = await makeProduct(5);
    const covered = await makePlan({ items: [line(tight, 3)], due: onDay(3) });
    const first = await makePlan({ items: [line(tight, 3), line(healthyProduct, 1)], due: onDay(6) });
    const after = await makePlan({ items: [line(tight, 1)], due: onDay(9) });
    const beyond = await makePlan({ items: [line(tight, 1)], due: onDay(45) });
    const paused = await makePlan({ items: [line(tight, 1)], due: onDay(2), status: 'paused' });
    const mine = new Set([covered, first, after, beyond, paused]);
    const atRisk = async (query = '') => {
      const res = await support.request(`/api/admin/subscriptions/at-risk?limit=100${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return atRiskPageSchema.parse(await res.json()).plans.filter((p) => mine.has(p.id));
    };

    const short = { productId: tight.id, productName: tight.name, inStock: 5, runsShortOn: dayOf(onDay(6)) };
    expect((await atRisk()).map((p) => [p.id, p.reasons, p.shortItems])).toEqual([
      [first, ['stock-short'], [short]],
      [after, ['stock-short'], [short]],
    ]);
    expect((await atRisk('&reason=stock-short')).map((p) => p.id)).toEqual([first, after]);
    expect(await atRisk('&reason=item-unavailable')).toEqual([]);
    expect(AT_RISK_REASON_LABELS['stock-short']).toBe('Stock runs short before this delivery');

    // The dashboard's stock cover says the same: one rule.
    const owner = await signInAs(api, 'owner');
    const report = (await (await owner.request('/api/admin/reports/stock-cover')).json()) as { products: Array<{ productId: number; runsShortOn: string | null; plansShort: number }> };
    expect(report.products.find((p) => p.productId === tight.id)).toMatchObject({ runsShortOn: dayOf(onDay(6)), plansShort: 2 });

    // Out of stock now: "Item unavailable" says it, not twice.
    await q('update products set inventory = 0 where id = $1', [tight.id]);
    const now = await atRisk();
    expect(now.map((p) => [p.id, p.reasons, p.shortItems])).toEqual([
      [covered, ['item-unavailable'], []],
      [first, ['item-unavailable'], []],
      [after, ['item-unavailable'], []],
      [beyond, ['item-unavailable'], []],
    ]);
  });

  it('lists an active plan whose stored card expires before its next billing date; not one whose card is good through that day, not known, or paused', async () => {
    const due = onDay(12, 3);
    // The card is good through the last day of its expiry month: card_expires_on is that day.
    const expiring = await makePlan({ due, cardExpiresOn: dayOf(onDay(11)) });
    const lastDay = await makePlan({ due, cardExpiresOn: dayOf(due) });
    const unknown = await makePlan({ due, cardExpiresOn: null });
    const paused = await makePlan({ due, status: 'paused', cardExpiresOn: dayOf(onDay(1)) });
    const dunningToo = await makePlan({ due: onDay(-1), failedAttempts: 1, cardExpiresOn: dayOf(onDay(-30)) });
    const mine = new Set([expiring, lastDay, unknown, paused, dunningToo]);
    const atRisk = async (query = '') => {
      const res = await support.request(`/api/admin/subscriptions/at-risk?limit=100${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return atRiskPageSchema.parse(await res.json()).plans.filter((p) => mine.has(p.id));
    };

    const plans = await atRisk();
    expect(plans.map((p) => [p.id, p.reasons, p.cardExpiresOn])).toEqual([
      [dunningToo, ['dunning', 'card-expiring'], dayOf(onDay(-30))],
      [expiring, ['card-expiring'], dayOf(onDay(11))],
    ]);
    expect((await atRisk('&reason=card-expiring')).map((p) => p.id)).toEqual([dunningToo, expiring]);
    expect((await atRisk('&reason=dunning')).map((p) => p.id)).toEqual([dunningToo]);
    expect(AT_RISK_REASON_LABELS['card-expiring']).toBe('Card expires before the next billing date');

    // The plan's detail says until when its saved card is good.
    expect(await detail(await support.request(`/api/admin/subscriptions/${expiring}`))).toMatchObject({ hasStoredCard: true, cardExpiresOn: dayOf(onDay(11)) });
    expect(await detail(await support.request(`/api/admin/subscriptions/${unknown}`))).toMatchObject({ cardExpiresOn: null });
  });
});
