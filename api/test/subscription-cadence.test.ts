/**
 * Cadence (issue 21): the cadences offered (PLAN_CADENCE_MONTHS, GET /api/subscriptions/cadences), a plan
 * started every 2 months at checkout (subscribe-nonce `intervalCount`), and a change of cadence by the
 * shopper (POST /api/subscriptions/{id}/frequency) and by staff (POST /api/admin/subscriptions/{id}/frequency):
 * the next date becomes the last delivery + the new cadence, never before tomorrow, moved once however often
 * it is changed; each change with its outbox row (and staff's audit row); refusals change nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, priceCart, toPayloadStrings } from '@nh/shared';
import { adminSubscriptionDetailSchema } from '@nh/shared/contracts/admin-subscriptions';
import {
  billingPeriodOf,
  nextBillingDate,
  nextBillingDateForCadence,
  SUBSCRIPTION_MESSAGES as MSG,
  subscribeNonceResponseSchema,
  subscriptionViewSchema,
} from '@nh/shared/contracts/subscriptions';
import { loadApiConfig } from '../src/lib/config';
import { startTestApi, type TestApi } from './support/harness';
import { dayOf, insertPlan as insertPlanRow, type PlanOptions } from './support/plans';
import { signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let support: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

let me: Shopper;
let other: Shopper;
beforeAll(async () => {
  api = await startTestApi();
  support = await signInAs(api, 'support');
  me = await signUpShopper(api, 'cadence');
  other = await signUpShopper(api, 'cadence');
});
afterAll(() => api.close());

/** An active plan of `userId` (every `intervalCount` months), billed at 14:00 UTC `dueInDays` ahead, last charged for `lastPeriod`. */
async function insertPlan(userId: string, { lastPeriod, ...o }: PlanOptions & { lastPeriod?: string | null } = {}) {
  const plan = await insertPlanRow(api, userId, o);
  const charged = lastPeriod === undefined ? dayOf((o.dueInDays ?? 10) - 30) : lastPeriod;
  if (charged) {
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status, card_type, card_last_four) values ($1, $2, '22.95', 'approved', 'Visa', '1111')`, [plan.id, charged]);
  }
  return plan;
}

const planRow = (id: string) =>
  q<{ interval_count: number; next_billing_date: Date; status: string }>('select interval_count, next_billing_date, status from subscriptions where id = $1', [id]).then((r) => r[0]!);
const changeRows = (id: string) => q<{ payload: Record<string, unknown> }>(`select payload from outbox where topic = 'subscription.changed' and payload->>'subscriptionId' = $1 order by id`, [id]);
const staffRows = (id: string) => q<{ payload: { auditId: number } }>(`select payload from outbox where topic = 'subscription.changed-by-staff' and payload->>'subscriptionId' = $1 order by id`, [id]);
const auditOf = (id: string) =>
  q<{ id: number; action: string; before: unknown; after: unknown }>(`select id, action, before, after from audit_events where entity_type = 'subscription' and entity_id = $1 order by id`, [id]);
/** The billing date `months` after `period` at 14:00 UTC. */
const afterPeriod = (period: string, months: number) => nextBillingDate(new Date(`${period}T14:00:00.000Z`), 'monthly', months);

describe('PLAN_CADENCE_MONTHS', () => {
  it('defaults to 1,2,3 and is served to the storefront without signing in', async () => {
    const res = await api.request('/api/subscriptions/cadences');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ months: [1, 2, 3] });
  });

  it('is read as positive whole numbers, sorted and unique; anything else stops the start with a message', () => {
    expect(loadApiConfig({ PLAN_CADENCE_MONTHS: ' 1, 3 ,6' }).PLAN_CADENCE_MONTHS).toEqual([1, 3, 6]);
    for (const bad of ['0,1', '1,1,2', '2,1', '1.5', 'monthly', '']) {
      expect(() => loadApiConfig({ PLAN_CADENCE_MONTHS: bad }), bad).toThrow(/PLAN_CADENCE_MONTHS/);
    }
  });
});

describe('POST /api/payments/subscribe-nonce with intervalCount', () => {
  async function tokenize(zip: string) {
    const res = await api.request('/api/payments/sandbox/tokenize', {
      body: { authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' }, cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip } },
    });
    return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
  }
  async function body(extra: Record<string, unknown>) {
    const name = `Cadence Test ${randomUUID().slice(0, 8)}`;
    const [product] = await q<{ id: number }>(`insert into products (name, slug, price, inventory, status, sku) values ($1, $2, '9.99', 10, 'active', $3) returning id`, [
      name,
      name.toLowerCase().replace(/\s+/g, '-'),
      `C-${name.slice(-8)}`,
    ]);
    const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' };
    return {
      amount: toPayloadStrings(priceCart([{ price: 999, quantity: 1 }], { promo: null, subscribe: true })).total,
      ...(await tokenize(address.zip)),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      ...address,
      interval: 'monthly',
      items: [{ productId: product!.id, variantSku: null, quantity: 1, price: centsToDecimal(999) }],
      shippingAddress: address,
      ...extra,
    };
  }
  const subscribe = async (b: unknown) => me.call('/api/payments/subscribe-nonce', { body: b, headers: { 'Idempotency-Key': randomUUID() } });

  it('starts a plan every 2 months: stored on the plan, the next billing date 2 months on', async () => {
    const before = new Date();
    const res = await subscribe(await body({ intervalCount: 2 }));
    expect(res.status, await res.clone().text()).toBe(200);
    const { subscriptionId, nextBillingDate: next } = subscribeNonceResponseSchema.parse(await res.json());
    const row = await planRow(subscriptionId);
    expect(row.interval_count).toBe(2);
    expect(billingPeriodOf(row.next_billing_date)).toBe(billingPeriodOf(nextBillingDate(before, 'monthly', 2)));
    expect(next).toBe(row.next_billing_date.toISOString());
  });

  it('defaults to every month', async () => {
    const res = await subscribe(await body({}));
    expect(res.status).toBe(200);
    const { subscriptionId } = subscribeNonceResponseSchema.parse(await res.json());
    expect((await planRow(subscriptionId)).interval_count).toBe(1);
  });

  it('refuses a cadence not offered (400, with the choices) and a malformed one, charging nothing', async () => {
    const charges = api.payments.sandbox!.charges.length;
    const plans = (await q('select id from subscriptions where user_id = $1', [me.id])).length;
    const refused = await subscribe(await body({ intervalCount: 4 }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: MSG.cadenceNotOffered([1, 2, 3]), offered: [1, 2, 3] });
    expect(MSG.cadenceNotOffered([1, 2, 3])).toBe('Choose how often to deliver: every 1, 2 or 3 months.');
    const malformed = await subscribe(await body({ intervalCount: 'often' }));
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { message: string }).message).toBe(MSG.intervalCount);
    expect(api.payments.sandbox!.charges.length).toBe(charges);
    expect(await q('select id from subscriptions where user_id = $1', [me.id])).toHaveLength(plans);
  });
});

describe('POST /api/subscriptions/{id}/frequency', () => {
  it('moves the next date to the last delivery + the new cadence, with the confirmation email; twice in one period moves it once', async () => {
    const last = dayOf(-20);
    const plan = await insertPlan(me.id, { dueInDays: 10, lastPeriod: last });
    const res = await me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 2 } });
    expect(res.status, await res.clone().text()).toBe(200);
    const view = subscriptionViewSchema.parse(await res.json());
    const twoMonths = afterPeriod(last, 2);
    expect(view).toMatchObject({ intervalCount: 2, nextBillingDate: twoMonths.toISOString() });
    const rows = await changeRows(plan.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({ change: { kind: 'frequency', fromIntervalCount: 1, intervalCount: 2 }, nextBillingDate: twoMonths.toISOString(), status: 'active' });

    // Changed again in the same period: counted from the same last delivery, not from the moved date.
    const three = subscriptionViewSchema.parse(await (await me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 3 } })).json());
    expect(three).toMatchObject({ intervalCount: 3, nextBillingDate: afterPeriod(last, 3).toISOString() });
    // The same cadence again (a double click): nothing changes, no second email.
    const again = await me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 3 } });
    expect(again.status).toBe(200);
    expect(await changeRows(plan.id)).toHaveLength(2);
  });

  it('never moves the next date into the past: tomorrow, at the plan\'s time of day', async () => {
    // Every 3 months, last delivered 70 days ago: a month after it is already past.
    const plan = await insertPlan(me.id, { intervalCount: 3, dueInDays: 20, lastPeriod: dayOf(-70) });
    const view = subscriptionViewSchema.parse(await (await me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 1 } })).json());
    expect(view.nextBillingDate).toBe(`${dayOf(1)}T14:00:00.000Z`);
    expect(nextBillingDateForCadence(dayOf(-70), plan.nextBillingDate, 'monthly', 1, new Date())).toEqual(new Date(`${dayOf(1)}T14:00:00.000Z`));
  });

  it('counts from a skipped period too, and from the plan\'s start when it has no delivery yet', async () => {
    const plan = await insertPlan(me.id, { dueInDays: 25, lastPeriod: dayOf(-35) });
    await q(`insert into subscription_skipped_periods (subscription_id, billing_period, reason) values ($1, $2, 'shopper-skip')`, [plan.id, dayOf(-5)]);
    const view = subscriptionViewSchema.parse(await (await me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 2 } })).json());
    expect(view.nextBillingDate).toBe(afterPeriod(dayOf(-5), 2).toISOString());

    const fresh = await insertPlan(me.id, { dueInDays: 30, lastPeriod: null });
    const started = subscriptionViewSchema.parse(await (await me.call(`/api/subscriptions/${fresh.id}/frequency`, { body: { intervalCount: 2 } })).json());
    expect(started.nextBillingDate).toBe(afterPeriod(dayOf(0), 2).toISOString());
  });

  it('refuses a cadence not offered (422), someone else\'s plan (404), an ended one (409), one in dunning (409) and a charge under way (409): nothing changed', async () => {
    const plan = await insertPlan(me.id);
    const before = await planRow(plan.id);
    const notOffered = await me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 6 } });
    expect(notOffered.status).toBe(422);
    expect(await notOffered.json()).toEqual({ code: 'SUBSCRIPTION_CADENCE_NOT_OFFERED', message: MSG.cadenceNotOffered([1, 2, 3]), offered: [1, 2, 3] });
    const bad = await me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 0 } });
    expect(bad.status).toBe(400);
    expect((await other.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 2 } })).status).toBe(404);

    const ended = await insertPlan(me.id, { status: 'cancelled' });
    expect(await (await me.call(`/api/subscriptions/${ended.id}/frequency`, { body: { intervalCount: 2 } })).json()).toMatchObject({ code: 'SUBSCRIPTION_ENDED' });
    const dunning = await insertPlan(me.id, { failedAttempts: 1 });
    const inDunning = await me.call(`/api/subscriptions/${dunning.id}/frequency`, { body: { intervalCount: 2 } });
    expect(inDunning.status).toBe(409);
    expect(await inDunning.json()).toMatchObject({ code: 'SUBSCRIPTION_IN_DUNNING' });
    const busy = await insertPlan(me.id);
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '22.95', 'pending')`, [busy.id, billingPeriodOf(busy.nextBillingDate)]);
    const underWay = await me.call(`/api/subscriptions/${busy.id}/frequency`, { body: { intervalCount: 2 } });
    expect(underWay.status).toBe(409);
    expect(await underWay.json()).toMatchObject({ code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS' });

    expect(await planRow(plan.id)).toEqual(before);
    for (const id of [plan.id, ended.id, dunning.id, busy.id]) expect(await changeRows(id)).toEqual([]);
  });
});

describe('a change of cadence and the renewal at the same moment', () => {
  it('waits for a renewal holding the plan, then refuses: the period it is charging keeps its date', async () => {
    const plan = await insertPlan(me.id, { dueInDays: -1, lastPeriod: dayOf(-32) });
    const before = await planRow(plan.id);
    const client = await api.ctx.db.$client.connect();
    let answered = false;
    try {
      // The renewal's first step: the plan locked, the period's payment row written as pending before the charge.
      await client.query('begin');
      await client.query('select id from subscriptions where id = $1 for update', [plan.id]);
      const change = me.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 2 } }).then((res) => {
        answered = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(answered).toBe(false);
      await client.query(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '22.95', 'pending')`, [
        plan.id,
        billingPeriodOf(plan.nextBillingDate),
      ]);
      await client.query('commit');
      const res = await change;
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS', message: MSG.chargeInProgress });
    } finally {
      await client.query('rollback').catch(() => {});
      client.release();
    }
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changeRows(plan.id)).toEqual([]);
  });
});

describe('POST /api/admin/subscriptions/{id}/frequency', () => {
  it('changes the cadence on the customer\'s behalf: audited with the reason, emailed through the outbox', async () => {
    const last = dayOf(-10);
    const plan = await insertPlan(me.id, { dueInDays: 20, lastPeriod: last });
    const res = await support.request(`/api/admin/subscriptions/${plan.id}/frequency`, { method: 'POST', body: { intervalCount: 2, reason: 'Too much product, asked by phone' } });
    expect(res.status, await res.clone().text()).toBe(200);
    const detail = adminSubscriptionDetailSchema.parse(await res.json());
    const next = afterPeriod(last, 2);
    expect(detail).toMatchObject({ intervalCount: 2, nextBillingDate: next.toISOString(), actions: { frequency: true } });
    const audit = await auditOf(plan.id);
    expect(audit).toEqual([
      {
        id: expect.any(Number),
        action: 'subscription.frequency_changed',
        before: { intervalCount: 1, nextBillingDate: plan.nextBillingDate.toISOString() },
        after: { intervalCount: 2, nextBillingDate: next.toISOString(), reason: 'Too much product, asked by phone' },
      },
    ]);
    expect((await staffRows(plan.id)).map((r) => r.payload.auditId)).toEqual([audit[0]!.id]);
  });

  it('asks for a reason and an offered cadence, writing nothing otherwise', async () => {
    const plan = await insertPlan(me.id);
    const noReason = await support.request(`/api/admin/subscriptions/${plan.id}/frequency`, { method: 'POST', body: { intervalCount: 2 } });
    expect(noReason.status).toBe(400);
    const notOffered = await support.request(`/api/admin/subscriptions/${plan.id}/frequency`, { method: 'POST', body: { intervalCount: 12, reason: 'Asked' } });
    expect(notOffered.status).toBe(422);
    expect(await notOffered.json()).toMatchObject({ code: 'SUBSCRIPTION_CADENCE_NOT_OFFERED' });
    expect((await planRow(plan.id)).interval_count).toBe(1);
    expect(await auditOf(plan.id)).toEqual([]);
    expect(await staffRows(plan.id)).toEqual([]);
  });
});
