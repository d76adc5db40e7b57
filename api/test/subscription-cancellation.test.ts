/**
 * Issue 22, cancellation that listens: cancel with and without a reason (the spec's empty body), a bad
 * reason refused, the save offer per reason, the discount's cool-down and acceptance, staff cancelling
 * with the customer's reason, and the cancellations report's figures.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPeriodOf, subscriptionViewSchema } from '@nh/shared/contracts/subscriptions';
import { CANCEL_REASONS, type CancellationReport } from '@nh/shared/contracts/cancellation';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let support: StaffClient;
let manager: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

interface Shopper {
  id: string;
  call: (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Response>;
}

async function signUp(): Promise<Shopper> {
  const email = `cancel.${randomBytes(4).toString('hex')}@example.com`;
  const res = await api.request('/api/register', { body: { firstName: 'Ada', lastName: 'Lovelace', email, password: 'correct horse battery' } });
  expect(res.status).toBe(201);
  const { user } = (await res.json()) as { user: { id: string } };
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))!;
  return { id: user.id, call: (path, init = {}) => api.request(path, { ...init, headers: { ...init.headers, cookie } }) };
}

let me: Shopper;
let other: Shopper;
beforeAll(async () => {
  api = await startTestApi();
  me = await signUp();
  other = await signUp();
  support = await signInAs(api, 'support');
  manager = await signInAs(api, 'manager');
});
afterAll(() => api.close());

/** An active plan of `userId` every `intervalCount` months, billed `dueInDays` days ahead on a saved card. */
async function insertPlan(userId: string, o: { intervalCount?: number; dueInDays?: number } = {}) {
  const items = [{ productId: 1, productName: 'Test Cleaner', quantity: 2, price: '12.50', variantSku: null, sku: null, itemNumber: null }];
  const [row] = await q<{ id: string; next_billing_date: Date }>(
    `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, interval_count, shipping_address,
       authnet_customer_profile_id, authnet_payment_profile_id)
     values ($1, 'cancel@example.com', 'Ada Lovelace', $2, '22.95', date_trunc('day', now(), 'UTC') + make_interval(days => $3) + interval '14 hours', 'active', $4, $5, '111', '222')
     returning id, next_billing_date`,
    [userId, JSON.stringify(items), o.dueInDays ?? 10, o.intervalCount ?? 1, JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' })],
  );
  return { id: row!.id, nextBillingDate: row!.next_billing_date };
}

const cancel = (who: Shopper, id: string, body?: unknown) => who.call(`/api/subscriptions/${id}/cancel`, { method: 'POST', body });
const offer = async (who: Shopper, id: string, reason: string) => {
  const res = await who.call(`/api/subscriptions/${id}/cancel-offer`, { method: 'POST', body: { reason } });
  return { status: res.status, body: (await res.json()) as { offer: Record<string, unknown> | null; message?: string } };
};
const accept = (who: Shopper, id: string, kind: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  who.call(`/api/subscriptions/${id}/cancel-offer/accept`, { method: 'POST', body: { kind, ...extra }, headers });
const planRow = (id: string) =>
  q<{ interval_count: number; status: string; next_billing_date: Date }>(`select interval_count, status, next_billing_date from subscriptions where id = $1`, [id]).then((r) => r[0]!);
const changesOf = (id: string) => q<{ kind: string }>(`select kind from subscription_changes where subscription_id = $1 order by at`, [id]).then((r) => r.map((c) => c.kind));
const cancellations = (id: string) => q<{ actor: string; reason: string | null; comment: string | null }>(`select actor, reason, comment from subscription_cancellations where subscription_id = $1`, [id]);
const offersOf = (id: string) => q<{ kind: string; accepted: boolean }>(`select kind, accepted_at is not null as accepted from subscription_cancel_offers where subscription_id = $1 order by id`, [id]);

describe('cancelling with an optional reason', () => {
  it('cancels with the spec\'s empty body, recording no reason', async () => {
    const plan = await insertPlan(me.id);
    const res = await cancel(me, plan.id);
    expect(res.status).toBe(200);
    expect(subscriptionViewSchema.parse(await res.json()).status).toBe('cancelled');
    expect(await cancellations(plan.id)).toEqual([{ actor: 'customer', reason: null, comment: null }]);
  });

  it('records the reason and comment with the cancellation and in the plan history', async () => {
    const plan = await insertPlan(me.id);
    const res = await cancel(me, plan.id, { reason: 'other', comment: '  Moving abroad  ' });
    expect(res.status).toBe(200);
    expect(await cancellations(plan.id)).toEqual([{ actor: 'customer', reason: 'other', comment: 'Moving abroad' }]);
    const [change] = await q<{ after: Record<string, unknown> }>(`select after from subscription_changes where subscription_id = $1 and kind = 'cancelled'`, [plan.id]);
    expect(change!.after).toMatchObject({ status: 'cancelled', reason: 'other', comment: 'Moving abroad' });
  });

  it('refuses an unknown reason or an overlong comment with 400 and leaves the plan running', async () => {
    const plan = await insertPlan(me.id);
    const bad = await cancel(me, plan.id, { reason: 'bored' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/reasons/);
    expect((await cancel(me, plan.id, { reason: 'other', comment: 'x'.repeat(501) })).status).toBe(400);
    const [row] = await q<{ status: string }>(`select status from subscriptions where id = $1`, [plan.id]);
    expect(row!.status).toBe('active');
    expect(await cancellations(plan.id)).toEqual([]);
  });

  it("does not cancel or offer on someone else's plan", async () => {
    const plan = await insertPlan(other.id);
    expect((await cancel(me, plan.id, { reason: 'price' })).status).toBe(404);
    expect((await offer(me, plan.id, 'price')).status).toBe(404);
  });
});

describe('the save offer matched to the reason', () => {
  it('offers a longer cadence, or a skip at the longest, for too much product', async () => {
    const monthly = await insertPlan(me.id, { intervalCount: 1 });
    expect((await offer(me, monthly.id, 'too-much')).body.offer).toEqual({ kind: 'longer-cadence', intervalCount: 2 });
    const longest = await insertPlan(me.id, { intervalCount: 3 });
    expect((await offer(me, longest.id, 'too-much')).body.offer).toEqual({ kind: 'skip', period: billingPeriodOf(longest.nextBillingDate) });
  });

  it('offers a shorter cadence, or ship now at the shortest, for running out', async () => {
    const every3 = await insertPlan(me.id, { intervalCount: 3 });
    expect((await offer(me, every3.id, 'ran-out')).body.offer).toEqual({ kind: 'shorter-cadence', intervalCount: 2 });
    const monthly = await insertPlan(me.id, { intervalCount: 1 });
    expect((await offer(me, monthly.id, 'ran-out')).body.offer).toEqual({ kind: 'ship-now' });
  });

  it('offers a change of items for a disliked product, nothing for no longer needed, and refuses an unknown reason', async () => {
    const plan = await insertPlan(me.id);
    expect((await offer(me, plan.id, 'dislike-product')).body.offer).toEqual({ kind: 'change-items' });
    expect((await offer(me, plan.id, 'no-longer-needed')).body.offer).toBeNull();
    expect((await offer(me, plan.id, 'other')).body.offer).toBeNull();
    expect((await offer(me, plan.id, 'nope')).status).toBe(400);
    expect(await offersOf(plan.id)).toEqual([{ kind: 'change-items', accepted: false }]);
  });

  it('is asked for by a POST (it records the offer shown); a GET writes nothing', async () => {
    const plan = await insertPlan(me.id);
    expect((await me.call(`/api/subscriptions/${plan.id}/cancel-offer?reason=too-much`)).status).toBe(404);
    expect(await offersOf(plan.id)).toEqual([]);
    expect((await offer(me, plan.id, 'too-much')).status).toBe(200);
    expect(await offersOf(plan.id)).toEqual([{ kind: 'longer-cadence', accepted: false }]);
  });
});

describe('taking the offer: the change and its acceptance in one request', () => {
  it('a longer cadence: the plan changes, the offer is accepted, the change is in the history and emailed; a second take is refused', async () => {
    const plan = await insertPlan(me.id);
    expect((await offer(me, plan.id, 'too-much')).body.offer).toEqual({ kind: 'longer-cadence', intervalCount: 2 });
    const res = await accept(me, plan.id, 'longer-cadence', { intervalCount: 2 });
    expect(res.status).toBe(200);
    expect(subscriptionViewSchema.parse(await res.json()).intervalCount).toBe(2);
    expect((await planRow(plan.id)).interval_count).toBe(2);
    expect(await offersOf(plan.id)).toEqual([{ kind: 'longer-cadence', accepted: true }]);
    expect(await changesOf(plan.id)).toEqual(['frequency']);
    const emails = await q(`select 1 from outbox where topic = 'subscription.changed' and payload->>'subscriptionId' = $1`, [plan.id]);
    expect(emails).toHaveLength(1);
    // Taking it again, or an offer never shown: 409, nothing more written.
    expect((await accept(me, plan.id, 'longer-cadence')).status).toBe(409);
    expect((await accept(me, plan.id, 'skip')).status).toBe(409);
    expect(await changesOf(plan.id)).toEqual(['frequency']);
  });

  it('a refused change leaves the offer untaken: the plan moved since the dialog showed it', async () => {
    const plan = await insertPlan(me.id);
    expect((await offer(me, plan.id, 'too-much')).body.offer).toEqual({ kind: 'longer-cadence', intervalCount: 2 });
    // Another tab changes the cadence; the offer the dialog shows (every 2 months) is no longer what the server would do.
    expect((await me.call(`/api/subscriptions/${plan.id}/frequency`, { method: 'POST', body: { intervalCount: 2 } })).status).toBe(200);
    const res = await accept(me, plan.id, 'longer-cadence', { intervalCount: 2 });
    expect(res.status).toBe(409);
    expect(await offersOf(plan.id)).toEqual([{ kind: 'longer-cadence', accepted: false }]);
    expect((await planRow(plan.id)).interval_count).toBe(2);
    expect(await changesOf(plan.id)).toEqual(['frequency']);
  });

  it('a skip at the longest cadence: the period is skipped and the offer accepted together', async () => {
    const plan = await insertPlan(me.id, { intervalCount: 3 });
    const period = billingPeriodOf(plan.nextBillingDate);
    expect((await offer(me, plan.id, 'too-much')).body.offer).toEqual({ kind: 'skip', period });
    expect((await accept(me, plan.id, 'skip', { period: '2000-01-01' })).status).toBe(409);
    expect(await offersOf(plan.id)).toEqual([{ kind: 'skip', accepted: false }]);
    expect((await accept(me, plan.id, 'skip', { period })).status).toBe(200);
    const skipped = await q<{ billing_period: string; reason: string }>(`select billing_period::text, reason from subscription_skipped_periods where subscription_id = $1`, [plan.id]);
    expect(skipped).toEqual([{ billing_period: period, reason: 'shopper-skip' }]);
    expect(await offersOf(plan.id)).toEqual([{ kind: 'skip', accepted: true }]);
    expect((await planRow(plan.id)).next_billing_date.getTime()).toBeGreaterThan(plan.nextBillingDate.getTime());
  });

  it('ship now at the shortest cadence: asked with its Idempotency-Key, recorded with the ship-now request; a repeat of the key changes nothing', async () => {
    const plan = await insertPlan(me.id, { intervalCount: 1 });
    expect((await offer(me, plan.id, 'ran-out')).body.offer).toEqual({ kind: 'ship-now' });
    expect((await accept(me, plan.id, 'ship-now')).status).toBe(400);
    const key = { 'Idempotency-Key': randomUUID() };
    expect((await accept(me, plan.id, 'ship-now', {}, key)).status).toBe(200);
    expect((await accept(me, plan.id, 'ship-now', {}, key)).status).toBe(200);
    expect(await q(`select 1 from subscription_ship_nows where subscription_id = $1`, [plan.id])).toHaveLength(1);
    expect(await q(`select 1 from outbox where topic = 'subscription.ship-now-requested' and payload->>'subscriptionId' = $1`, [plan.id])).toHaveLength(1);
    expect(await offersOf(plan.id)).toEqual([{ kind: 'ship-now', accepted: true }]);
    // Never shown on this plan: refused, no ship-now.
    const other = await insertPlan(me.id, { intervalCount: 1 });
    expect((await accept(me, other.id, 'ship-now', {}, { 'Idempotency-Key': randomUUID() })).status).toBe(409);
    expect(await q(`select 1 from subscription_ship_nows where subscription_id = $1`, [other.id])).toHaveLength(0);
  });

  it('change items: recorded as taken, the plan unchanged until the shopper saves new items', async () => {
    const plan = await insertPlan(me.id);
    await offer(me, plan.id, 'dislike-product');
    expect((await accept(me, plan.id, 'change-items')).status).toBe(200);
    expect(await offersOf(plan.id)).toEqual([{ kind: 'change-items', accepted: true }]);
    expect(await changesOf(plan.id)).toEqual([]);
  });
});

describe('the price discount', () => {
  it('is offered, accepted once onto the next delivery (audited as the customer, emailed), then not offered again for 12 months', async () => {
    const plan = await insertPlan(me.id);
    const percent = api.ctx.config.CANCEL_SAVE_DISCOUNT_PERCENT;
    expect(percent).toBeGreaterThan(0);
    expect((await offer(me, plan.id, 'price')).body.offer).toEqual({ kind: 'discount', percent });
    // The dialog opened again the same day shows the same offer, recorded once.
    expect((await offer(me, plan.id, 'price')).body.offer).toEqual({ kind: 'discount', percent });
    expect(await offersOf(plan.id)).toEqual([{ kind: 'discount', accepted: false }]);

    const res = await accept(me, plan.id, 'discount');
    expect(res.status).toBe(200);
    const [row] = await q<{ next_delivery_discount_percent: number | null }>(`select next_delivery_discount_percent from subscriptions where id = $1`, [plan.id]);
    expect(row!.next_delivery_discount_percent).toBe(percent);
    const [change] = await q<{ actor: string; kind: string }>(`select actor, kind from subscription_changes where subscription_id = $1 and kind = 'discount'`, [plan.id]);
    expect(change).toEqual({ actor: 'customer', kind: 'discount' });
    const [email] = await q<{ payload: { change: unknown } }>(`select payload from outbox where topic = 'subscription.changed' and payload->>'subscriptionId' = $1`, [plan.id]);
    expect(email!.payload.change).toEqual({ kind: 'discount', percent });

    // Cool-down: no discount offer again, and a second acceptance is refused.
    expect((await offer(me, plan.id, 'price')).body.offer).toBeNull();
    expect((await accept(me, plan.id, 'discount')).status).toBe(409);
  });

  it('is not offered again when one was shown on an earlier day in the last 12 months, and is after', async () => {
    const plan = await insertPlan(me.id);
    await q(`insert into subscription_cancel_offers (subscription_id, reason, kind, shown_at) values ($1, 'price', 'discount', now() - interval '3 days')`, [plan.id]);
    expect((await offer(me, plan.id, 'price')).body.offer).toBeNull();
    const later = await insertPlan(me.id);
    await q(`insert into subscription_cancel_offers (subscription_id, reason, kind, shown_at, accepted_at) values ($1, 'price', 'discount', now() - interval '13 months', now() - interval '13 months')`, [later.id]);
    expect((await offer(me, later.id, 'price')).body.offer).toMatchObject({ kind: 'discount' });
  });
});

describe('staff cancelling on the customer\'s behalf', () => {
  it("records the customer's reason beside staff's own, and refuses an unknown one", async () => {
    const plan = await insertPlan(me.id);
    expect((await support.request(`/api/admin/subscriptions/${plan.id}/cancel`, { method: 'POST', body: { reason: 'Phoned in', customerReason: 'bored' } })).status).toBe(400);
    const res = await support.request(`/api/admin/subscriptions/${plan.id}/cancel`, { method: 'POST', body: { reason: 'Phoned in', customerReason: 'price' } });
    expect(res.status).toBe(200);
    expect(await cancellations(plan.id)).toEqual([{ actor: 'staff', reason: 'price', comment: null }]);
    const [audit] = await q<{ after: Record<string, unknown> }>(`select after from audit_events where entity_id = $1 and action = 'subscription.cancelled'`, [plan.id]);
    expect(audit!.after).toMatchObject({ reason: 'Phoned in', customerReason: CANCEL_REASONS.price });
  });
});

describe('the cancellations report', () => {
  it('counts by week: cancellations by reason in words, offers shown and accepted, plans saved and days kept', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const report = async (who: StaffClient) => who.request(`/api/admin/reports/cancellations?from=${today}&to=${today}`);
    const before = (await (await report(manager)).json()) as CancellationReport;
    const week = (r: CancellationReport) => r.weeks.at(-1);
    const count = (r: CancellationReport, reason: string) => week(r)?.cancellations.find((c) => c.reason === reason)?.count ?? 0;

    const saved = await insertPlan(me.id);
    await offer(me, saved.id, 'dislike-product');
    expect((await accept(me, saved.id, 'change-items')).status).toBe(200);
    const lost = await insertPlan(me.id, { intervalCount: 3 });
    await offer(me, lost.id, 'too-much');
    expect((await cancel(me, lost.id, { reason: 'too-much' })).status).toBe(200);

    const after = (await (await report(manager)).json()) as CancellationReport;
    expect(week(after)!.weekLabel).toMatch(/^Week of [A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(count(after, CANCEL_REASONS['too-much']) - count(before, CANCEL_REASONS['too-much'])).toBe(1);
    expect(week(after)!.offersShown - (week(before)?.offersShown ?? 0)).toBe(2);
    expect(week(after)!.offersAccepted - (week(before)?.offersAccepted ?? 0)).toBe(1);
    expect(week(after)!.plansSaved - (week(before)?.plansSaved ?? 0)).toBe(1);
    expect(week(after)!.averageDaysKept).not.toBeNull();

    // Support may not read it; a bad range is 400.
    expect((await report(support)).status).toBe(403);
    expect((await manager.request(`/api/admin/reports/cancellations?from=${today}&to=2000-01-01`)).status).toBe(400);
  });
});
