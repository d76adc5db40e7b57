/**
 * Shoppers change their own plans on My Subscriptions (issue 13, "Plans"): skip, move the next
 * delivery, pause and resume on the saved card, a new card, new quantities. Each: the change and its
 * confirmation email's outbox row together; bad input, someone else's plan or an ended plan: a 4xx with
 * a message and nothing changed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, PLAN_ITEM_MAX_QUANTITY, PLAN_MAX_LINES, pricePlan, RESCHEDULE_MAX_DAYS_AHEAD } from '@nh/shared';
import { billingPeriodOf, nextBillingDate, SUBSCRIPTION_MESSAGES as MSG, subscriptionViewSchema, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { startTestApi, type TestApi } from './support/harness';
import { dayOf, insertPlan as insertPlanRow, type PlanOptions } from './support/plans';
import { json, signUpShopper, type Shopper } from './support/shopper';

let api: TestApi;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

let me: Shopper;
let other: Shopper;
beforeAll(async () => {
  api = await startTestApi();
  me = await signUpShopper(api, 'plans');
  other = await signUpShopper(api, 'plans');
});
afterAll(() => api.close());

const DAY_MS = 86_400_000;
const OLD_PROFILE = { customer: '11110000', payment: '22220000' };

/** A product of this file's own. */
async function makeProduct(price: number, status = 'active'): Promise<{ id: number; name: string; price: number }> {
  const name = `Plan Change ${randomUUID().slice(0, 8)}`;
  const [row] = await q<{ id: number }>(`insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, 100, $4, $5) returning id`, [
    name,
    name.toLowerCase().replace(/\s+/g, '-'),
    centsToDecimal(price),
    status,
    `PC-${name.slice(-8)}`,
  ]);
  return { id: row!.id, name, price };
}

/** A product of this file's own with sizes (`variants`: label and cents). */
async function makeProductWithSizes(price: number, variants: Array<{ label: string; price: number }>): Promise<{ id: number; name: string; variants: Array<{ label: string; price: string; sku: string }> }> {
  const product = await makeProduct(price);
  const sized = variants.map((v, i) => ({ label: v.label, price: centsToDecimal(v.price), sku: `PC-${product.id}-${i}` }));
  await q('update products set variants = $2 where id = $1', [product.id, JSON.stringify(sized)]);
  return { id: product.id, name: product.name, variants: sized };
}

/** An active plan of `userId` on a saved card (OLD_PROFILE, good until 2030-12-31). */
const insertPlan = (userId: string, o: PlanOptions = {}) => insertPlanRow(api, userId, { profiles: OLD_PROFILE, cardExpiresOn: '2030-12-31', ...o });

const planRow = (id: string) =>
  q<Record<string, unknown>>(
    `select status, next_billing_date, failed_attempts, items, amount::text as amount, authnet_customer_profile_id, authnet_payment_profile_id, card_expires_on, card_type, card_last_four
     from subscriptions where id = $1`,
    [id],
  ).then((r) => r[0]!);
const skippedOf = (id: string) => q<{ billing_period: string; reason: string }>('select billing_period, reason from subscription_skipped_periods where subscription_id = $1 order by billing_period', [id]);
const changeRows = (id: string) => q<{ payload: Record<string, unknown> }>(`select payload from outbox where topic = 'subscription.changed' and payload->>'subscriptionId' = $1 order by id`, [id]);

const view = async (res: Response) => subscriptionViewSchema.parse(await json(res, 200));

describe('skip the next delivery', () => {
  it('skips the period the page showed: recorded as the shopper\'s, next date one month on, confirmation email with the new date and amount', async () => {
    const plan = await insertPlan(me.id);
    const period = billingPeriodOf(plan.nextBillingDate);
    const next = nextBillingDate(plan.nextBillingDate);
    const body = await view(await me.call(`/api/subscriptions/${plan.id}/skip`, { body: { period } }));
    expect(body).toMatchObject({ status: 'active', nextBillingDate: next.toISOString(), skippedPeriods: [{ period, reason: 'shopper-skip' }] });
    expect(await skippedOf(plan.id)).toEqual([{ billing_period: period, reason: 'shopper-skip' }]);
    const rows = await changeRows(plan.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({ change: { kind: 'skipped', period }, status: 'active', nextBillingDate: next.toISOString(), amount: 2295 });

    // A double click (the same period again) skips nothing more and writes no second email.
    const again = await view(await me.call(`/api/subscriptions/${plan.id}/skip`, { body: { period } }));
    expect(again.nextBillingDate).toBe(next.toISOString());
    expect(await skippedOf(plan.id)).toHaveLength(1);
    expect(await changeRows(plan.id)).toHaveLength(1);
  });

  it('refuses a period the plan is no longer on (409, nothing changed) and a malformed one (400)', async () => {
    const plan = await insertPlan(me.id);
    const before = await planRow(plan.id);
    const stale = await json(await me.call(`/api/subscriptions/${plan.id}/skip`, { body: { period: dayOf(3) } }), 409);
    expect(stale).toEqual({ message: MSG.planChanged, code: 'SUBSCRIPTION_CHANGED' });
    const bad = await json(await me.call(`/api/subscriptions/${plan.id}/skip`, { body: { period: 'next week' } }), 400);
    expect(bad.message).toBe(MSG.period);
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changeRows(plan.id)).toEqual([]);
  });
});

describe('move the next delivery', () => {
  it('moves it within the window, keeping the time of day; the page shows the window', async () => {
    const plan = await insertPlan(me.id);
    const list = (await (await me.call('/api/subscriptions')).json()) as SubscriptionView[];
    const shown = list.find((s) => s.id === plan.id)!;
    expect(shown.rescheduleWindow).toEqual({ earliest: dayOf(1), latest: billingPeriodOf(new Date(nextBillingDate(plan.nextBillingDate).getTime() - DAY_MS)) });

    const to = dayOf(20);
    const body = await view(await me.call(`/api/subscriptions/${plan.id}/reschedule`, { body: { nextBillingDate: to } }));
    expect(body.nextBillingDate).toBe(`${to}T14:00:00.000Z`);
    expect(((await planRow(plan.id)).next_billing_date as Date).toISOString()).toBe(`${to}T14:00:00.000Z`);
    const [row] = await changeRows(plan.id);
    expect(row!.payload).toMatchObject({ change: { kind: 'rescheduled', from: plan.nextBillingDate.toISOString() }, nextBillingDate: `${to}T14:00:00.000Z` });

    // The same day again: nothing changes, no second email.
    await view(await me.call(`/api/subscriptions/${plan.id}/reschedule`, { body: { nextBillingDate: to } }));
    expect(await changeRows(plan.id)).toHaveLength(1);
  });

  it('refuses a day in the past, today, too far ahead or past the delivery after next: 422 with the window, nothing changed', async () => {
    const plan = await insertPlan(me.id);
    const before = await planRow(plan.id);
    const latest = billingPeriodOf(new Date(nextBillingDate(plan.nextBillingDate).getTime() - DAY_MS));
    for (const to of [dayOf(-3), dayOf(0), dayOf(RESCHEDULE_MAX_DAYS_AHEAD + 5), billingPeriodOf(nextBillingDate(plan.nextBillingDate))]) {
      const body = await json(await me.call(`/api/subscriptions/${plan.id}/reschedule`, { body: { nextBillingDate: to } }), 422);
      expect(body).toEqual({ message: MSG.dateNotAllowed(dayOf(1), latest), code: 'SUBSCRIPTION_DATE_NOT_ALLOWED', earliest: dayOf(1), latest });
    }
    const bad = await json(await me.call(`/api/subscriptions/${plan.id}/reschedule`, { body: { nextBillingDate: '2026-02-30' } }), 400);
    expect(bad.message).toBe(MSG.nextBillingDate);
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changeRows(plan.id)).toEqual([]);
  });

  it('refuses a plan whose payment is being retried (409): skip, pause or a new card instead', async () => {
    const plan = await insertPlan(me.id, { dueInDays: -1, failedAttempts: 1 });
    const body = await json(await me.call(`/api/subscriptions/${plan.id}/reschedule`, { body: { nextBillingDate: dayOf(5) } }), 409);
    expect(body).toEqual({ message: MSG.inDunning, code: 'SUBSCRIPTION_IN_DUNNING' });
    const list = (await (await me.call('/api/subscriptions')).json()) as SubscriptionView[];
    expect(list.find((s) => s.id === plan.id)!.rescheduleWindow).toBeNull();
  });
});

describe('pause and resume on the saved card', () => {
  it('pauses an active plan, then resumes it on its card: dates missed while paused skipped, emails for both', async () => {
    const plan = await insertPlan(me.id, { dueInDays: 2 });
    const paused = await view(await me.call(`/api/subscriptions/${plan.id}/pause`, { method: 'POST' }));
    expect(paused).toMatchObject({ status: 'paused', resumableOnSavedCard: true, rescheduleWindow: null });
    // A second pause (double click) is refused and writes nothing.
    expect(await json(await me.call(`/api/subscriptions/${plan.id}/pause`, { method: 'POST' }), 409)).toEqual({ message: MSG.pauseNotActive, code: 'SUBSCRIPTION_NOT_ACTIVE' });

    // Paused past its billing date (as if two weeks went by).
    await q(`update subscriptions set next_billing_date = next_billing_date - interval '16 days' where id = $1`, [plan.id]);
    const due = (await planRow(plan.id)).next_billing_date as Date;
    const resumed = await view(await me.call(`/api/subscriptions/${plan.id}/unpause`, { method: 'POST' }));
    expect(resumed).toMatchObject({ status: 'active', nextBillingDate: nextBillingDate(due).toISOString(), skippedPeriods: [{ period: billingPeriodOf(due), reason: 'plan-paused' }] });
    const row = await planRow(plan.id);
    expect(row).toMatchObject({ authnet_customer_profile_id: OLD_PROFILE.customer, authnet_payment_profile_id: OLD_PROFILE.payment });
    expect((await changeRows(plan.id)).map((r) => r.payload.change)).toEqual([{ kind: 'paused' }, { kind: 'resumed', skippedWhilePaused: 1 }]);
  });

  it('does not resume a plan paused by failed payments on its card (409: a new card), nor an active one', async () => {
    const dunned = await insertPlan(me.id, { status: 'paused', failedAttempts: 4, dueInDays: -11 });
    const body = await json(await me.call(`/api/subscriptions/${dunned.id}/unpause`, { method: 'POST' }), 409);
    expect(body).toEqual({ message: MSG.needsNewCard, code: 'SUBSCRIPTION_NEEDS_NEW_CARD' });
    expect((await planRow(dunned.id)).status).toBe('paused');
    const active = await insertPlan(me.id);
    expect(await json(await me.call(`/api/subscriptions/${active.id}/unpause`, { method: 'POST' }), 409)).toEqual({ message: MSG.notPaused, code: 'SUBSCRIPTION_NOT_PAUSED' });
  });
});

describe('a new card for an active plan', () => {
  async function tokenize(zip: string) {
    const res = await api.request('/api/payments/sandbox/tokenize', {
      body: { authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' }, cardData: { cardNumber: '4111111111111111', month: '11', year: '2031', cardCode: '123', zip } },
    });
    return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
  }

  it('stores the card as a new profile (not charged), makes it the plan\'s, forgets the old expiry, shows it and emails', async () => {
    const plan = await insertPlan(me.id);
    const charges = api.payments.sandbox!.charges.length;
    const body = await view(await me.call(`/api/subscriptions/${plan.id}/card`, { body: await tokenize('12345') }));
    expect(body).toMatchObject({ status: 'active', cardType: 'Visa', cardLastFour: '1111', nextBillingDate: plan.nextBillingDate.toISOString() });
    const row = await planRow(plan.id);
    expect(row).toMatchObject({ card_expires_on: null, card_type: 'Visa', card_last_four: '1111', status: 'active' });
    expect(row.authnet_customer_profile_id).not.toBe(OLD_PROFILE.customer);
    expect(row.authnet_payment_profile_id).not.toBe(OLD_PROFILE.payment);
    expect(api.payments.sandbox!.charges.length).toBe(charges);
    const [change] = await changeRows(plan.id);
    expect(change!.payload).toMatchObject({ change: { kind: 'card', cardType: 'Visa', cardLastFour: '1111' }, nextBillingDate: plan.nextBillingDate.toISOString(), amount: 2295 });
    // The list shows the new card too.
    const list = (await (await me.call('/api/subscriptions')).json()) as SubscriptionView[];
    expect(list.find((s) => s.id === plan.id)).toMatchObject({ cardType: 'Visa', cardLastFour: '1111' });
  });

  it('a declined card (ZIP 46282) answers 402 with the provider\'s sentence; the plan keeps its card', async () => {
    const plan = await insertPlan(me.id);
    const before = await planRow(plan.id);
    const body = await json(await me.call(`/api/subscriptions/${plan.id}/card`, { body: await tokenize('46282') }), 402);
    expect(body.code).toBe('PAYMENT_DECLINED');
    expect(String(body.message)).toMatch(/declined/i);
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changeRows(plan.id)).toEqual([]);
  });

  it('refuses a paused plan (resume with a new card instead) and a bad body, before storing anything', async () => {
    const plan = await insertPlan(me.id, { status: 'paused' });
    const opaque = await tokenize('12345');
    expect(await json(await me.call(`/api/subscriptions/${plan.id}/card`, { body: opaque }), 409)).toEqual({ message: MSG.cardNotActive, code: 'SUBSCRIPTION_NOT_ACTIVE' });
    expect(await api.ctx.redis.exists(`${api.ctx.config.QUEUE_PREFIX}:pay-sandbox:token:${opaque.dataValue}`)).toBe(1);
    const bad = await json(await me.call(`/api/subscriptions/${plan.id}/card`, { body: { dataDescriptor: 'x' } }), 400);
    expect(bad.message).toBe('Payment details are missing: dataValue');
  });
});

describe('new quantities', () => {
  it('sets the quantities of the plan\'s lines, priced from today\'s catalogue on the server; 0 removes a line', async () => {
    const a = await makeProduct(1000);
    const b = await makeProduct(2500);
    const plan = await insertPlan(me.id, {
      items: [
        { productId: a.id, productName: a.name, quantity: 1, price: '9.00' },
        { productId: b.id, productName: b.name, quantity: 1, price: '25.00' },
      ],
      amount: '30.00',
    });
    const res = await me.call(`/api/subscriptions/${plan.id}/items`, {
      method: 'PUT',
      body: { items: [{ productId: a.id, variantSku: null, quantity: 3 }, { productId: b.id, variantSku: null, quantity: 0 }] },
    });
    const expected = pricePlan([{ price: 1000, quantity: 3 }], null).renewal.total;
    const body = await view(res);
    expect(body.items).toEqual([{ productId: a.id, productName: a.name, variantSku: null, quantity: 3, price: '10.00' }]);
    expect(body.amount).toBe(centsToDecimal(expected));
    expect((await planRow(plan.id)).amount).toBe(centsToDecimal(expected));
    const [change] = await changeRows(plan.id);
    // The lines as written travel with the email's row (a later change does not rewrite this email).
    expect(change!.payload).toMatchObject({ change: { kind: 'items', fromAmount: 3000 }, amount: expected, items: body.items });
  });

  it('refuses a quantity out of range (400), lines not on the plan or none left (422), an item no longer sold (409): nothing changed', async () => {
    const a = await makeProduct(1000);
    const gone = await makeProduct(500, 'inactive');
    const plan = await insertPlan(me.id, {
      items: [
        { productId: a.id, productName: a.name, quantity: 1, price: '10.00' },
        { productId: gone.id, productName: gone.name, quantity: 1, price: '5.00' },
      ],
    });
    const before = await planRow(plan.id);
    const put = (items: unknown) => me.call(`/api/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items } });
    expect((await json(await put([{ productId: a.id, variantSku: null, quantity: 11 }, { productId: gone.id, variantSku: null, quantity: 1 }]), 400)).message).toBe(MSG.itemQuantity);
    expect(await json(await put([{ productId: a.id, variantSku: null, quantity: 2 }]), 422)).toEqual({ message: MSG.itemsNotOnPlan, code: 'SUBSCRIPTION_ITEMS_INVALID' });
    expect(await json(await put([{ productId: a.id, variantSku: null, quantity: 0 }, { productId: gone.id, variantSku: null, quantity: 0 }]), 422)).toEqual({ message: MSG.noItemsLeft, code: 'SUBSCRIPTION_ITEMS_INVALID' });
    expect(await json(await put([{ productId: a.id, variantSku: null, quantity: 2 }, { productId: gone.id, variantSku: null, quantity: 1 }]), 409)).toMatchObject({ message: MSG.itemNotSold(gone.name), code: 'SUBSCRIPTION_ITEM_NOT_SOLD' });
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changeRows(plan.id)).toEqual([]);
    // Removing the item no longer sold is allowed.
    await view(await put([{ productId: a.id, variantSku: null, quantity: 2 }, { productId: gone.id, variantSku: null, quantity: 0 }]));
  });
});

describe('an item out of stock on the plan', () => {
  it('may stay or be lowered while other lines change, but not raised (409, a true sentence); removing it is allowed', async () => {
    const a = await makeProduct(1000);
    const soldOut = await makeProduct(500, 'out_of_stock');
    const plan = await insertPlan(me.id, {
      items: [
        { productId: a.id, productName: a.name, quantity: 1, price: '10.00' },
        { productId: soldOut.id, productName: soldOut.name, quantity: 2, price: '5.00' },
      ],
    });
    const put = (aQuantity: number, soldOutQuantity: number) =>
      me.call(`/api/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items: [{ productId: a.id, variantSku: null, quantity: aQuantity }, { productId: soldOut.id, variantSku: null, quantity: soldOutQuantity }] } });

    const kept = await view(await put(3, 2));
    expect(kept.items.map((i) => [i.productId, i.quantity])).toEqual([[a.id, 3], [soldOut.id, 2]]);
    expect(kept.amount).toBe(centsToDecimal(pricePlan([{ price: 1000, quantity: 3 }, { price: 500, quantity: 2 }], null).renewal.total));
    const before = await planRow(plan.id);
    const raised = await json(await put(3, 3), 409);
    expect(raised).toEqual({ message: MSG.itemOutOfStock(soldOut.name), code: 'SUBSCRIPTION_ITEM_NOT_SOLD', productId: soldOut.id });
    expect(await planRow(plan.id)).toEqual(before);
    expect((await view(await put(3, 1))).items.map((i) => i.quantity)).toEqual([3, 1]);
    expect((await view(await put(3, 0))).items.map((i) => i.productId)).toEqual([a.id]);
    expect(await changeRows(plan.id)).toHaveLength(3);
  });
});

describe('while the period\'s charge is under way', () => {
  /** A plan due today whose renewal has written its order and pending payment row and is charging (outside the lock). */
  async function beingCharged(): Promise<{ id: string; productId: number }> {
    const a = await makeProduct(1000);
    const plan = await insertPlan(me.id, { dueInDays: 0, items: [{ productId: a.id, productName: a.name, quantity: 1, price: '10.00' }] });
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '22.95', 'pending')`, [plan.id, billingPeriodOf(plan.nextBillingDate)]);
    return { id: plan.id, productId: a.id };
  }

  it('refuses new items (409): today\'s charge is for the old ones; nothing changed, no email', async () => {
    const plan = await beingCharged();
    const before = await planRow(plan.id);
    const res = await me.call(`/api/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items: [{ productId: plan.productId, variantSku: null, quantity: 3 }] } });
    expect(await json(res, 409)).toEqual({ message: MSG.chargeInProgress, code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS' });
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changeRows(plan.id)).toEqual([]);
  });

  it('refuses a new card (409): today\'s charge is on the old one; the plan keeps its card, no email', async () => {
    const plan = await beingCharged();
    const before = await planRow(plan.id);
    const tokenized = await api.request('/api/payments/sandbox/tokenize', {
      body: { authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' }, cardData: { cardNumber: '4111111111111111', month: '11', year: '2031', cardCode: '123', zip: '12345' } },
    });
    const { opaqueData } = (await tokenized.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } };
    expect(await json(await me.call(`/api/subscriptions/${plan.id}/card`, { body: opaqueData }), 409)).toEqual({ message: MSG.chargeInProgress, code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS' });
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changeRows(plan.id)).toEqual([]);
  });

  it('refuses pause and cancel (409) with the same answer as skip and move: the period is being charged and ships; nothing changed, no email', async () => {
    const plan = await beingCharged();
    const before = await planRow(plan.id);
    const period = billingPeriodOf(new Date(before.next_billing_date as Date));
    const busy = { message: MSG.chargeInProgress, code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS' };
    expect(await json(await me.call(`/api/subscriptions/${plan.id}/pause`, { method: 'POST' }), 409)).toEqual(busy);
    expect(await json(await me.call(`/api/subscriptions/${plan.id}/cancel`, { method: 'POST' }), 409)).toEqual(busy);
    expect(await json(await me.call(`/api/subscriptions/${plan.id}/skip`, { body: { period } }), 409)).toEqual(busy);
    expect(await json(await me.call(`/api/subscriptions/${plan.id}/reschedule`, { body: { nextBillingDate: dayOf(5) } }), 409)).toEqual(busy);
    expect(await planRow(plan.id)).toEqual(before);
    expect(await q('select cancelled_at from subscriptions where id = $1', [plan.id])).toEqual([{ cancelled_at: null }]);
    expect(await changeRows(plan.id)).toEqual([]);

    // Approved but not yet booked (the renewal finishing its bookkeeping): still under way.
    await q(`update payment_transactions set status = 'approved' where subscription_id = $1`, [plan.id]);
    expect(await json(await me.call(`/api/subscriptions/${plan.id}/cancel`, { method: 'POST' }), 409)).toEqual(busy);
  });

  it('cancel waits for a renewal holding the plan, then refuses: the period it wrote is being charged', async () => {
    const a = await makeProduct(1000);
    const plan = await insertPlan(me.id, { dueInDays: 0, items: [{ productId: a.id, productName: a.name, quantity: 1, price: '10.00' }] });
    const client = await api.ctx.db.$client.connect();
    try {
      // The renewal's first step: the plan locked, the period's payment row written as pending before the charge.
      await client.query('begin');
      await client.query('select id from subscriptions where id = $1 for update', [plan.id]);
      let answered = false;
      const cancel = me.call(`/api/subscriptions/${plan.id}/cancel`, { method: 'POST' }).then((res) => {
        answered = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
      await client.query(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '11.02', 'pending')`, [plan.id, billingPeriodOf(plan.nextBillingDate)]);
      await client.query('commit');
      expect(await json(await cancel, 409)).toEqual({ message: MSG.chargeInProgress, code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS' });
    } finally {
      await client.query('rollback').catch(() => {});
      client.release();
    }
    expect((await planRow(plan.id)).status).toBe('active');
  });

  it('a charge held for review or whose answer was lost (left for staff, for days) never stops pause or cancel: they go through and the plan says that charge stands; skip, move and new items are refused with a true sentence', async () => {
    const outcomes = [
      { code: '4', message: 'This transaction is being held for review.' },
      { code: null, message: 'We could not confirm your payment with the payment service. Please contact support before trying again.' },
    ];
    for (const outcome of outcomes) {
      const plan = await beingCharged();
      // The renewal recorded what the payment service said (recordUnsettled): the row stays pending for staff.
      await q(`update payment_transactions set response_code = $2, response_message = $3 where subscription_id = $1`, [plan.id, outcome.code, outcome.message]);
      const before = await planRow(plan.id);
      const period = billingPeriodOf(new Date(before.next_billing_date as Date));
      const checked = { message: MSG.chargeBeingChecked, code: 'SUBSCRIPTION_CHARGE_BEING_CHECKED' };
      expect(await json(await me.call(`/api/subscriptions/${plan.id}/skip`, { body: { period } }), 409)).toEqual(checked);
      expect(await json(await me.call(`/api/subscriptions/${plan.id}/reschedule`, { body: { nextBillingDate: dayOf(5) } }), 409)).toEqual(checked);
      expect(await json(await me.call(`/api/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items: [{ productId: plan.productId, variantSku: null, quantity: 3 }] } }), 409)).toEqual(checked);
      expect(await planRow(plan.id)).toEqual(before);
      const list = (await (await me.call('/api/subscriptions')).json()) as SubscriptionView[];
      expect(list.find((p) => p.id === plan.id)).toMatchObject({ status: 'active', chargeBeingChecked: true });

      expect(await view(await me.call(`/api/subscriptions/${plan.id}/pause`, { method: 'POST' }))).toMatchObject({ status: 'paused', chargeBeingChecked: true });
      expect(await view(await me.call(`/api/subscriptions/${plan.id}/cancel`, { method: 'POST' }))).toMatchObject({ status: 'cancelled', chargeBeingChecked: false });
      // The charge itself is untouched: still the staff's to check.
      expect(await q('select status, response_message from payment_transactions where subscription_id = $1', [plan.id])).toEqual([{ status: 'pending', response_message: outcome.message }]);
    }
  });

  it('allows pause and cancel again once the charge is declined', async () => {
    const plan = await beingCharged();
    await q(`update payment_transactions set status = 'declined' where subscription_id = $1`, [plan.id]);
    expect(await view(await me.call(`/api/subscriptions/${plan.id}/pause`, { method: 'POST' }))).toMatchObject({ status: 'paused' });
    expect(await view(await me.call(`/api/subscriptions/${plan.id}/cancel`, { method: 'POST' }))).toMatchObject({ status: 'cancelled' });
  });

  it('allows both again once the charge is declined (the retries charge the new card and amount)', async () => {
    const plan = await beingCharged();
    await q(`update payment_transactions set status = 'declined' where subscription_id = $1`, [plan.id]);
    const res = await me.call(`/api/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items: [{ productId: plan.productId, variantSku: null, quantity: 2 }] } });
    expect((await view(res)).items[0]!.quantity).toBe(2);
  });
});

describe('adding products', () => {
  const putItems = (shopper: Shopper, id: string, items: unknown) => shopper.call(`/api/subscriptions/${id}/items`, { method: 'PUT', body: { items } });

  it('adds a product not yet on the plan, priced from the catalogue; the amount is the renewal total of every line and the email names it', async () => {
    const a = await makeProduct(1000);
    const b = await makeProduct(1850);
    const plan = await insertPlan(me.id, { items: [{ productId: a.id, productName: a.name, quantity: 2, price: '10.00' }], amount: '18.36' });
    const body = await view(await putItems(me, plan.id, [{ productId: a.id, variantSku: null, quantity: 2 }, { productId: b.id, variantSku: null, quantity: 3 }]));
    const expected = pricePlan([{ price: 1000, quantity: 2 }, { price: 1850, quantity: 3 }], null).renewal.total;
    expect(body.items).toEqual([
      { productId: a.id, productName: a.name, variantSku: null, quantity: 2, price: '10.00' },
      { productId: b.id, productName: b.name, variantSku: null, quantity: 3, price: '18.50' },
    ]);
    expect(body.amount).toBe(centsToDecimal(expected));
    const row = await planRow(plan.id);
    expect(row.amount).toBe(centsToDecimal(expected));
    expect(row.items).toContainEqual({ productId: b.id, productName: b.name, variantSku: null, sku: `PC-${b.name.slice(-8)}`, itemNumber: null, quantity: 3, price: '18.50' });
    const [change] = await changeRows(plan.id);
    expect(change!.payload).toMatchObject({ change: { kind: 'items', fromAmount: 1836, added: [{ productName: b.name, quantity: 3 }] }, amount: expected });
  });

  it('adds a size of a product with sizes at that size\'s price and name; removing every old line while adding is allowed', async () => {
    const a = await makeProduct(1000);
    const sized = await makeProductWithSizes(2000, [{ label: '16 oz', price: 2000 }, { label: '1 gal', price: 5400 }]);
    const plan = await insertPlan(me.id, { items: [{ productId: a.id, productName: a.name, quantity: 1, price: '10.00' }] });
    const gallon = sized.variants[1]!;
    const body = await view(await putItems(me, plan.id, [{ productId: a.id, variantSku: null, quantity: 0 }, { productId: sized.id, variantSku: gallon.sku, quantity: 1 }]));
    expect(body.items).toEqual([{ productId: sized.id, productName: `${sized.name} - 1 gal`, variantSku: gallon.sku, quantity: 1, price: '54.00' }]);
    expect(body.amount).toBe(centsToDecimal(pricePlan([{ price: 5400, quantity: 1 }], null).renewal.total));
    // The other size of the same product is a line of its own.
    const more = await view(await putItems(me, plan.id, [{ productId: sized.id, variantSku: gallon.sku, quantity: 1 }, { productId: sized.id, variantSku: sized.variants[0]!.sku, quantity: 2 }]));
    expect(more.items.map((i) => [i.variantSku, i.quantity, i.price])).toEqual([[gallon.sku, 1, '54.00'], [sized.variants[0]!.sku, 2, '20.00']]);
  });

  it('ignores a price in the body: the line is priced from the catalogue', async () => {
    const a = await makeProduct(1000);
    const b = await makeProduct(4000);
    const plan = await insertPlan(me.id, { items: [{ productId: a.id, productName: a.name, quantity: 1, price: '10.00' }] });
    const body = await view(
      await putItems(me, plan.id, [
        { productId: a.id, variantSku: null, quantity: 1, price: '0.01' },
        { productId: b.id, variantSku: null, quantity: 1, price: '0.01', amount: '0.01' },
      ]),
    );
    expect(body.items.map((i) => i.price)).toEqual(['10.00', '40.00']);
    expect(body.amount).toBe(centsToDecimal(pricePlan([{ price: 1000, quantity: 1 }, { price: 4000, quantity: 1 }], null).renewal.total));
  });

  it('refuses a product not sold, unknown or out of stock, a wrong or missing size, a size for a product without sizes, a bad quantity and too many lines: nothing changed', async () => {
    const a = await makeProduct(1000);
    const inactive = await makeProduct(500, 'inactive');
    const outOfStock = await makeProduct(500, 'out_of_stock');
    const sized = await makeProductWithSizes(2000, [{ label: '16 oz', price: 2000 }]);
    const plan = await insertPlan(me.id, { items: [{ productId: a.id, productName: a.name, quantity: 1, price: '10.00' }] });
    const before = await planRow(plan.id);
    const adding = (line: Record<string, unknown>) => putItems(me, plan.id, [{ productId: a.id, variantSku: null, quantity: 1 }, { variantSku: null, quantity: 1, ...line }]);
    for (const productId of [inactive.id, outOfStock.id, 2_000_000_000]) {
      expect(await json(await adding({ productId }), 409)).toEqual({ message: MSG.productNotSold, code: 'SUBSCRIPTION_ITEM_NOT_SOLD', productId });
    }
    expect(await json(await adding({ productId: sized.id, variantSku: 'NOT-A-SIZE' }), 409)).toMatchObject({ message: MSG.sizeNotSold(sized.name), code: 'SUBSCRIPTION_ITEM_NOT_SOLD' });
    expect(await json(await adding({ productId: sized.id }), 409)).toMatchObject({ message: MSG.sizeNotSold(sized.name), code: 'SUBSCRIPTION_ITEM_NOT_SOLD' });
    const plain = await makeProduct(700);
    expect(await json(await adding({ productId: plain.id, variantSku: 'PC-X' }), 409)).toMatchObject({ message: MSG.noSizes(plain.name), code: 'SUBSCRIPTION_ITEM_NOT_SOLD' });
    expect((await json(await adding({ productId: sized.id, variantSku: sized.variants[0]!.sku, quantity: PLAN_ITEM_MAX_QUANTITY + 1 }), 400)).message).toBe(MSG.itemQuantity);
    expect((await json(await adding({ productId: 'one' }), 400)).message).toBe(MSG.items);
    // Two lines of the same product and size.
    expect(await json(await putItems(me, plan.id, [{ productId: a.id, variantSku: null, quantity: 1 }, { productId: a.id, variantSku: null, quantity: 2 }]), 422)).toEqual({ message: MSG.itemsNotOnPlan, code: 'SUBSCRIPTION_ITEMS_INVALID' });
    // PLAN_MAX_LINES in all: the plan's one line and PLAN_MAX_LINES new ones is one too many.
    const many = await Promise.all(Array.from({ length: PLAN_MAX_LINES }, () => makeProduct(100)));
    const tooMany = [{ productId: a.id, variantSku: null, quantity: 1 }, ...many.map((p) => ({ productId: p.id, variantSku: null, quantity: 1 }))];
    expect(await json(await putItems(me, plan.id, tooMany), 422)).toEqual({ message: MSG.tooManyItems, code: 'SUBSCRIPTION_ITEMS_INVALID', maxLines: PLAN_MAX_LINES });
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changeRows(plan.id)).toEqual([]);
    // Exactly PLAN_MAX_LINES is fine.
    expect((await view(await putItems(me, plan.id, tooMany.slice(0, PLAN_MAX_LINES)))).items).toHaveLength(PLAN_MAX_LINES);
  });

  it('adds nothing to another shopper\'s plan (404, as an unknown one)', async () => {
    const b = await makeProduct(1000);
    const theirs = await insertPlan(other.id);
    const before = await planRow(theirs.id);
    const items = [{ productId: 1, variantSku: null, quantity: 2 }, { productId: b.id, variantSku: null, quantity: 1 }];
    expect(await json(await putItems(me, theirs.id, items), 404)).toEqual({ message: MSG.notFound, code: 'NOT_FOUND' });
    expect(await planRow(theirs.id)).toEqual(before);
    expect(await changeRows(theirs.id)).toEqual([]);
  });
});

describe('whose plan, and ended plans', () => {
  const calls = (id: string): Array<[string, { method?: string; body?: unknown }]> => [
    [`/api/subscriptions/${id}/skip`, { body: { period: dayOf(10) } }],
    [`/api/subscriptions/${id}/reschedule`, { body: { nextBillingDate: dayOf(12) } }],
    [`/api/subscriptions/${id}/pause`, { method: 'POST' }],
    [`/api/subscriptions/${id}/unpause`, { method: 'POST' }],
    [`/api/subscriptions/${id}/card`, { body: { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: 'unused-token' } }],
    [`/api/subscriptions/${id}/items`, { method: 'PUT', body: { items: [{ productId: 1, variantSku: null, quantity: 1 }] } }],
  ];

  it('answers another shopper\'s plan, an unknown and a malformed id the same 404, and changes nothing', async () => {
    const theirs = await insertPlan(other.id);
    const before = await planRow(theirs.id);
    for (const id of [theirs.id, randomUUID(), 'not-a-plan']) {
      for (const [path, init] of calls(id)) {
        expect(await json(await me.call(path, init), 404)).toEqual({ message: MSG.notFound, code: 'NOT_FOUND' });
      }
    }
    expect(await planRow(theirs.id)).toEqual(before);
    expect(await changeRows(theirs.id)).toEqual([]);
  });

  it('refuses every change to a cancelled plan with a message (409)', async () => {
    const plan = await insertPlan(me.id, { status: 'cancelled' });
    const before = await planRow(plan.id);
    for (const [path, init] of calls(plan.id)) {
      expect(await json(await me.call(path, init), 409)).toMatchObject({ message: MSG.alreadyEnded, code: 'SUBSCRIPTION_ENDED' });
    }
    expect(await planRow(plan.id)).toEqual(before);
  });

  it('answers 401 when signed out', async () => {
    const res = await api.request(`/api/subscriptions/${randomUUID()}/skip`, { body: { period: dayOf(1) } });
    expect(await json(res, 401)).toEqual({ message: MSG.listLoginRequired, code: 'NOT_SIGNED_IN' });
  });
});
