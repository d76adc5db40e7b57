/**
 * Issue 21 on My Subscriptions: pause for 1, 2 or 3 deliveries (resumesOn), who paused a plan (the shopper,
 * or staff with their reason), the shopper's changes on the staff plan page, and the cadence suggestion
 * (shown once per plan and period, declined for three periods, accepted by a change of cadence).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSubscriptionDetailSchema } from '@nh/shared/contracts/admin-subscriptions';
import { billingPeriodOf, nextBillingDate, SUBSCRIPTION_MESSAGES as MSG, subscriptionViewSchema, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { startTestApi, type TestApi } from './support/harness';
import { insertPlan } from './support/plans';
import { json, signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let support: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

let me: Shopper;
let other: Shopper;
beforeAll(async () => {
  api = await startTestApi();
  me = await signUpShopper(api, 'pauses');
  other = await signUpShopper(api, 'pauses');
  support = await signInAs(api, 'support');
});
afterAll(() => api.close());

const view = async (res: Response) => subscriptionViewSchema.parse(await json(res, 200));
const listed = async (shopper: Shopper, id: string): Promise<SubscriptionView> => {
  const list = (await json(await shopper.call('/api/subscriptions'), 200)) as unknown as SubscriptionView[];
  return subscriptionViewSchema.parse(list.find((s) => s.id === id));
};
const pause = (shopper: Shopper, id: string, body?: unknown) => shopper.call(`/api/subscriptions/${id}/pause`, { method: 'POST', body });
const planRow = (id: string) => q<{ status: string; resumes_on: string | null; next_billing_date: Date }>(`select status, to_char(resumes_on, 'YYYY-MM-DD') as resumes_on, next_billing_date from subscriptions where id = $1`, [id]).then((r) => r[0]!);

describe('pause for 1, 2 or 3 deliveries', () => {
  it('pauses until the billing date that many deliveries on, says so on the page and in the email', async () => {
    const plan = await insertPlan(api, me.id);
    const resumesOn = billingPeriodOf(nextBillingDate(nextBillingDate(plan.nextBillingDate)));
    const paused = await view(await pause(me, plan.id, { deliveries: 2 }));
    expect(paused).toMatchObject({ status: 'paused', resumesOn, pausedBy: { by: 'shopper', reason: null }, resumableOnSavedCard: true });
    expect(await planRow(plan.id)).toMatchObject({ status: 'paused', resumes_on: resumesOn, next_billing_date: plan.nextBillingDate });
    const [email] = await q<{ payload: { change: unknown } }>(`select payload from outbox where topic = 'subscription.changed' and payload->>'subscriptionId' = $1`, [plan.id]);
    expect(email!.payload.change).toEqual({ kind: 'paused', resumesOn });
    // The list shows it as paused with its day to resume.
    expect(await listed(me, plan.id)).toMatchObject({ status: 'paused', resumesOn });

    // Resumed early by the shopper: the day to resume is forgotten.
    expect(await view(await me.call(`/api/subscriptions/${plan.id}/unpause`, { method: 'POST' }))).toMatchObject({ status: 'active', resumesOn: null, pausedBy: null });
    expect((await planRow(plan.id)).resumes_on).toBeNull();
  });

  it('one delivery: resumes on the billing date after the next; an open-ended pause (no body) has no day', async () => {
    const plan = await insertPlan(api, me.id);
    expect((await view(await pause(me, plan.id, { deliveries: 1 }))).resumesOn).toBe(billingPeriodOf(nextBillingDate(plan.nextBillingDate)));
    const open = await insertPlan(api, me.id);
    expect(await view(await pause(me, open.id))).toMatchObject({ status: 'paused', resumesOn: null });
    expect((await planRow(open.id)).resumes_on).toBeNull();
  });

  it('refuses other counts (422), a plan whose payment is failing or has no saved card (409), someone else\'s plan (404): nothing written', async () => {
    const plan = await insertPlan(api, me.id);
    for (const deliveries of [0, 4, 1.5, '2']) {
      expect(await json(await pause(me, plan.id, { deliveries }), 400)).toMatchObject({ message: MSG.pauseDeliveries, code: 'VALIDATION_FAILED' });
    }
    const dunning = await insertPlan(api, me.id, { failedAttempts: 1 });
    expect(await json(await pause(me, dunning.id, { deliveries: 1 }), 409)).toMatchObject({ message: MSG.timedPauseNeedsCard });
    const noCard = await insertPlan(api, me.id, { profiles: null });
    expect(await json(await pause(me, noCard.id, { deliveries: 3 }), 409)).toMatchObject({ message: MSG.timedPauseNeedsCard });
    expect(await json(await pause(other, plan.id, { deliveries: 1 }), 404)).toMatchObject({ message: MSG.notFound });
    for (const id of [plan.id, dunning.id, noCard.id]) expect(await planRow(id)).toMatchObject({ status: 'active', resumes_on: null });
    expect(await q(`select 1 from subscription_changes where subscription_id = any($1)`, [[plan.id, dunning.id, noCard.id]])).toEqual([]);
  });
});

describe('who paused a plan', () => {
  it('staff pause with a reason: the shopper sees the shop paused it, and why; their own later pause says they did', async () => {
    const plan = await insertPlan(api, me.id);
    const noReason = await support.request(`/api/admin/subscriptions/${plan.id}/pause`, { method: 'POST', body: {} });
    expect(noReason.status).toBe(400);
    expect((await planRow(plan.id)).status).toBe('active');

    const staffPaused = await support.request(`/api/admin/subscriptions/${plan.id}/pause`, { method: 'POST', body: { reason: 'Customer is away until spring' } });
    expect(staffPaused.status).toBe(200);
    expect(await listed(me, plan.id)).toMatchObject({ status: 'paused', pausedBy: { by: 'shop', reason: 'Customer is away until spring' }, resumesOn: null });
    const staffDetail = adminSubscriptionDetailSchema.parse(await staffPaused.json());
    expect(staffDetail).toMatchObject({ pausedBy: { by: 'staff', reason: 'Customer is away until spring' }, resumesOn: null });

    await view(await me.call(`/api/subscriptions/${plan.id}/unpause`, { method: 'POST' }));
    expect((await listed(me, plan.id)).pausedBy).toBeNull();
    await view(await pause(me, plan.id, { deliveries: 1 }));
    expect((await listed(me, plan.id)).pausedBy).toEqual({ by: 'shopper', reason: null });
    const detail = adminSubscriptionDetailSchema.parse(await (await support.request(`/api/admin/subscriptions/${plan.id}`)).json());
    expect(detail).toMatchObject({ pausedBy: { by: 'customer', reason: null }, resumesOn: billingPeriodOf(nextBillingDate(plan.nextBillingDate)) });
  });

  it('a plan paused by a failed payment says so', async () => {
    const plan = await insertPlan(api, me.id, { status: 'paused', failedAttempts: 4 });
    expect((await listed(me, plan.id)).pausedBy).toEqual({ by: 'payment', reason: null });
  });

  it('an active plan whose renewal payment is being retried says so (paymentRetrying); others do not', async () => {
    expect((await listed(me, (await insertPlan(api, me.id, { failedAttempts: 1 })).id)).paymentRetrying).toBe(true);
    expect((await listed(me, (await insertPlan(api, me.id)).id)).paymentRetrying).toBe(false);
    expect((await listed(me, (await insertPlan(api, me.id, { status: 'paused', failedAttempts: 4 })).id)).paymentRetrying).toBe(false);
  });

  it('the staff plan page lists the customer\'s own changes, newest first', async () => {
    const plan = await insertPlan(api, me.id);
    const period = billingPeriodOf(plan.nextBillingDate);
    await view(await me.call(`/api/subscriptions/${plan.id}/skip`, { body: { period } }));
    await view(await pause(me, plan.id, { deliveries: 1 }));
    const res = await support.request(`/api/admin/subscriptions/${plan.id}`);
    expect(res.status).toBe(200);
    const detail = adminSubscriptionDetailSchema.parse(await res.json());
    expect(detail.customerChanges.map((c) => [c.actor, c.kind])).toEqual([
      ['customer', 'paused'],
      ['customer', 'skipped'],
    ]);
    expect(detail.customerChanges[1]!.after).toMatchObject({ skippedPeriod: period });
    expect(detail.customerChanges[0]!.after).toMatchObject({ status: 'paused', deliveries: 1 });
  });
});

describe('the cadence suggestion', () => {
  /** A plan whose shopper skipped its last two deliveries (recorded as the shopper's skips). */
  async function skippedTwice(o: { intervalCount?: number } = {}) {
    const plan = await insertPlan(api, me.id, { dueInDays: 40, intervalCount: o.intervalCount });
    await q(`insert into subscription_skipped_periods (subscription_id, billing_period, reason) values ($1, $2, 'shopper-skip'), ($1, $3, 'shopper-skip')`, [
      plan.id,
      billingPeriodOf(new Date(plan.nextBillingDate.getTime() - 60 * 86_400_000)),
      billingPeriodOf(new Date(plan.nextBillingDate.getTime() - 30 * 86_400_000)),
    ]);
    return plan;
  }
  const suggestions = (id: string) =>
    q<{ billing_period: string; interval_count: number; accepted: boolean; dismissed: boolean }>(
      `select billing_period, interval_count, accepted_at is not null as accepted, dismissed_at is not null as dismissed from subscription_cadence_suggestions where subscription_id = $1`,
      [id],
    );

  it('after two skips in a row the list suggests the next longer cadence, recorded as shown once per period', async () => {
    const plan = await skippedTwice();
    expect((await listed(me, plan.id)).cadenceSuggestion).toEqual({ direction: 'longer', intervalCount: 2, reason: 'skipped-twice' });
    await listed(me, plan.id);
    expect(await suggestions(plan.id)).toEqual([{ billing_period: billingPeriodOf(plan.nextBillingDate), interval_count: 2, accepted: false, dismissed: false }]);
  });

  it('after two ship-nows within one cadence the list suggests the next shorter cadence; ordinary deliveries suggest nothing', async () => {
    const shippedEarlyTwice = async (shipNow: boolean) => {
      const plan = await insertPlan(api, me.id, { dueInDays: 40, intervalCount: 2 });
      const days = [25, 5].map((ago) => billingPeriodOf(new Date(Date.now() - ago * 86_400_000)));
      for (const day of days) {
        await q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '36.72', 'approved')`, [plan.id, day]);
        if (shipNow) await q(`insert into subscription_ship_nows (subscription_id, billing_period, key_hash, requested_by_user_id) values ($1, $2, $3, $4)`, [plan.id, day, `hash-${day}-${plan.id}`, me.id]);
      }
      return plan;
    };
    expect((await listed(me, (await shippedEarlyTwice(true)).id)).cadenceSuggestion).toEqual({ direction: 'shorter', intervalCount: 1, reason: 'shipped-early-twice' });
    expect((await listed(me, (await shippedEarlyTwice(false)).id)).cadenceSuggestion).toBeNull();
  });

  it('nothing on the longest cadence offered, nor for a plan without two skips', async () => {
    expect((await listed(me, (await skippedTwice({ intervalCount: 3 })).id)).cadenceSuggestion).toBeNull();
    expect((await listed(me, (await insertPlan(api, me.id)).id)).cadenceSuggestion).toBeNull();
  });

  it('accepting is the change of cadence: the suggestion counts as accepted and is gone', async () => {
    const plan = await skippedTwice();
    await listed(me, plan.id);
    const changed = await view(await me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 2 } }));
    expect(changed.intervalCount).toBe(2);
    expect(await suggestions(plan.id)).toMatchObject([{ accepted: true, dismissed: false }]);
    expect((await listed(me, plan.id)).cadenceSuggestion).toBeNull();
  });

  it('the dashboard counts the suggestions shown, accepted and declined', async () => {
    const owner = await signInAs(api, 'owner');
    const counts = async () => {
      const res = await owner.request('/api/admin/dashboard');
      expect(res.status).toBe(200);
      return ((await res.json()) as { cadenceSuggestions: { shown: number; accepted: number; declined: number } }).cadenceSuggestions;
    };
    const before = await counts();
    const accepted = await skippedTwice();
    await listed(me, accepted.id);
    await view(await me.call(`/api/subscriptions/${accepted.id}/frequency`, { body: { intervalCount: 2 } }));
    const declined = await skippedTwice();
    await listed(me, declined.id);
    await view(await me.call(`/api/subscriptions/${declined.id}/cadence-suggestion/dismiss`, { method: 'POST' }));
    const after = await counts();
    // Other test files share the database: at least this file's own.
    expect(after.shown - before.shown).toBeGreaterThanOrEqual(2);
    expect(after.accepted - before.accepted).toBeGreaterThanOrEqual(1);
    expect(after.declined - before.declined).toBeGreaterThanOrEqual(1);
  });

  it('declining hides it (for three periods) and is recorded; someone else\'s plan is not found, an ended one 409', async () => {
    const plan = await skippedTwice();
    await listed(me, plan.id);
    expect(await json(await other.call(`/api/subscriptions/${plan.id}/cadence-suggestion/dismiss`, { method: 'POST' }), 404)).toMatchObject({ message: MSG.notFound });
    expect(await suggestions(plan.id)).toMatchObject([{ dismissed: false }]);
    const dismissed = await view(await me.call(`/api/subscriptions/${plan.id}/cadence-suggestion/dismiss`, { method: 'POST' }));
    expect(dismissed.status).toBe('active');
    expect(await suggestions(plan.id)).toMatchObject([{ dismissed: true, accepted: false }]);
    expect((await listed(me, plan.id)).cadenceSuggestion).toBeNull();
    // A later change to that cadence is not an accepted suggestion (it was declined).
    await view(await me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 2 } }));
    expect(await suggestions(plan.id)).toMatchObject([{ dismissed: true, accepted: false }]);

    const ended = await insertPlan(api, me.id, { status: 'cancelled' });
    expect(await json(await me.call(`/api/subscriptions/${ended.id}/cadence-suggestion/dismiss`, { method: 'POST' }), 409)).toMatchObject({ code: 'SUBSCRIPTION_ENDED' });
    expect(await suggestions(ended.id)).toEqual([]);
  });
});
