import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, discountLines, priceCart, toPayloadStrings, type PricingPromo } from '@nh/shared';
import { shopperOrderSchema } from '@nh/shared/contracts/account';
import type { SubscribeNonceRequest } from '@nh/shared/contracts/checkout';
import {
  billingPeriodOf,
  nextBillingDate,
  rescheduleWindow,
  SUBSCRIPTION_MESSAGES,
  subscribeNonceResponseSchema,
  subscriptionViewSchema,
  type SubscribeNonceResponse,
  type SubscriptionView,
} from '@nh/shared/contracts/subscriptions';
import { orderInvoiceNumber, profileCustomerId } from '@nh/server/payments';
import { startAuthnetStub, type AuthnetStub } from './support/authnet-stub';
import { startTestApi, type TestApi } from './support/harness';
import { signUpShopper, type Shopper } from './support/shopper';

let api: TestApi;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const signUp = (target: TestApi = api) => signUpShopper(target, 'sub');


/** A subscription row written directly (the list and cancel calls do not care how it was made). */
async function insertSubscription(userId: string, options: { status?: string; createdAt?: string; card?: string } = {}): Promise<string> {
  const items = [{ productId: 1, productName: 'Test Cleaner', variantSku: null, sku: 'T-1', itemNumber: null, quantity: 2, price: '12.50' }];
  const [row] = await q<{ id: string }>(
    `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, created_at, shipping_address)
     values ($1, 'x@example.com', 'Ada Lovelace', $2, '22.95', now() + interval '1 month', $3, coalesce($4::timestamptz, now()), $5) returning id`,
    [userId, JSON.stringify(items), options.status ?? 'active', options.createdAt ?? null, JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' })],
  );
  if (options.card) {
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status, card_type, card_last_four, created_at) values ($1, '2020-01-01', '22.95', 'declined', 'Visa', '0000', now() + interval '1 second')`, [row!.id]);
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status, card_type, card_last_four) values ($1, '2020-02-01', '22.95', 'approved', 'Visa', $2)`, [row!.id, options.card]);
  }
  return row!.id;
}

describe('signed out', () => {
  it('answers 401 with the spec message to the list and cancel calls', async () => {
    const list = await api.request('/api/subscriptions');
    expect(list.status).toBe(401);
    expect(await list.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.listLoginRequired, code: 'NOT_SIGNED_IN' });
    const cancel = await api.request(`/api/subscriptions/${randomUUID()}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(401);
    expect(await cancel.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.listLoginRequired, code: 'NOT_SIGNED_IN' });
  });

  it('answers 401 to subscribing before looking at the key or the body', async () => {
    for (const headers of [{}, { 'Idempotency-Key': randomUUID() }] as Array<Record<string, string>>) {
      const res = await api.request('/api/payments/subscribe-nonce', { body: {}, headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Please log in to create a subscription.', code: 'NOT_SIGNED_IN' });
    }
  });
});

describe('GET /api/subscriptions', () => {
  it('lists only the user\'s own, newest first, with the card of the latest approved payment and the skipped periods', async () => {
    const me = await signUp();
    const other = await signUp();
    const older = await insertSubscription(me.id, { createdAt: '2024-01-01T00:00:00Z', status: 'cancelled' });
    const newer = await insertSubscription(me.id, { card: '4242' });
    const others = await insertSubscription(other.id);
    // Periods a late renewal passed over (written by the workers' catch-up), listed oldest first.
    await q(
      `insert into subscription_skipped_periods (subscription_id, billing_period, reason) values
         ($1, '2026-11-01', 'plan-paused'), ($1, '2026-10-01', 'renewals-late'), ($2, '2026-10-01', 'renewals-late')`,
      [newer, others],
    );

    const res = await me.call('/api/subscriptions');
    expect(res.status).toBe(200);
    const list = (await res.json()) as SubscriptionView[];
    expect(list.map((s) => subscriptionViewSchema.parse(s))).toEqual(list);
    expect(list.map((s) => s.id)).toEqual([newer, older]);
    expect(list[0]).toMatchObject({
      status: 'active',
      items: [{ productId: 1, productName: 'Test Cleaner', variantSku: null, quantity: 2, price: '12.50' }],
      amount: '22.95',
      discountPercent: 15,
      interval: 'monthly',
      intervalCount: 1,
      cancelledAt: null,
      cardType: 'Visa',
      cardLastFour: '4242',
      skippedPeriods: [
        { period: '2026-10-01', reason: 'renewals-late' },
        { period: '2026-11-01', reason: 'plan-paused' },
      ],
    });
    expect(list[1]).toMatchObject({ status: 'cancelled', cardType: null, cardLastFour: null, createdAt: '2024-01-01T00:00:00.000Z', skippedPeriods: [] });
    expect(Object.keys(list[0]!.items[0]!)).not.toContain('sku');
  });

  it('answers an empty list for a user without subscriptions', async () => {
    const me = await signUp();
    const res = await me.call('/api/subscriptions');
    expect(await res.json()).toEqual([]);
  });
});

describe('POST /api/subscriptions/{id}/cancel', () => {
  it('cancels the user\'s own active plan, then refuses a second cancel', async () => {
    const me = await signUp();
    const id = await insertSubscription(me.id, { card: '1111' });
    const res = await me.call(`/api/subscriptions/${id}/cancel`, { method: 'POST' });
    expect(res.status).toBe(200);
    const view = subscriptionViewSchema.parse(await res.json());
    expect(view).toMatchObject({ id, status: 'cancelled', cardLastFour: '1111' });
    expect(Date.now() - Date.parse(view.cancelledAt!)).toBeLessThan(60_000);
    const [row] = await q<{ status: string; cancelled_at: Date; updated_at: Date; created_at: Date }>('select status, cancelled_at, updated_at, created_at from subscriptions where id = $1', [id]);
    expect(row!.status).toBe('cancelled');
    expect(row!.cancelled_at.toISOString()).toBe(view.cancelledAt);
    expect(row!.updated_at.getTime()).toBeGreaterThanOrEqual(row!.created_at.getTime());

    const again = await me.call(`/api/subscriptions/${id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.alreadyEnded, code: 'SUBSCRIPTION_ENDED' });
  });

  it('cancels a paused plan and refuses an expired one', async () => {
    const me = await signUp();
    const paused = await insertSubscription(me.id, { status: 'paused' });
    expect((await me.call(`/api/subscriptions/${paused}/cancel`, { method: 'POST' })).status).toBe(200);
    const expired = await insertSubscription(me.id, { status: 'expired' });
    expect((await me.call(`/api/subscriptions/${expired}/cancel`, { method: 'POST' })).status).toBe(409);
    expect((await q<{ status: string }>('select status from subscriptions where id = $1', [expired]))[0]!.status).toBe('expired');
  });

  it('answers 404 for someone else\'s plan and leaves it as it was', async () => {
    const me = await signUp();
    const other = await signUp();
    const theirs = await insertSubscription(other.id);
    const res = await me.call(`/api/subscriptions/${theirs}/cancel`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.notFound, code: 'NOT_FOUND' });
    expect(await q('select status, cancelled_at from subscriptions where id = $1', [theirs])).toEqual([{ status: 'active', cancelled_at: null }]);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const me = await signUp();
    for (const id of [randomUUID(), 'not-a-uuid', '1']) {
      const res = await me.call(`/api/subscriptions/${id}/cancel`, { method: 'POST' });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.notFound, code: 'NOT_FOUND' });
    }
  });
});

// ---------------------------------------------------------------- POST /api/payments/subscribe-nonce

const sandboxCharges = () => api.payments.sandbox!.charges;

interface TestProduct {
  id: number;
  name: string;
  price: number;
}

/** A product of this test file's own, so stock changes never disturb other test files. */
async function makeProduct(inventory: number, price = 1250, status = 'active'): Promise<TestProduct> {
  const name = `Subscribe Test ${randomUUID().slice(0, 8)}`;
  const [row] = await q<{ id: number }>(
    `insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, $4, $5, $6) returning id`,
    [name, name.toLowerCase().replace(/\s+/g, '-'), centsToDecimal(price), inventory, status, `S-${name.slice(-8)}`],
  );
  return { id: row!.id, name, price };
}

const inventoryOf = async (id: number) => (await q<{ inventory: number }>('select inventory from products where id = $1', [id]))[0]!.inventory;
const ordersOf = (product: TestProduct) => q<Record<string, unknown>>(`select * from orders where items @> $1::jsonb`, [JSON.stringify([{ productId: product.id }])]);
const subscriptionsOf = (userId: string) => q<Record<string, unknown>>('select * from subscriptions where user_id = $1', [userId]);

async function tokenize(target: TestApi, zip: string) {
  const res = await target.request('/api/payments/sandbox/tokenize', {
    body: {
      authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
      cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip },
    },
  });
  return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
}

interface Line {
  product: TestProduct;
  quantity: number;
  price?: number;
}

/** What the checkout sends with Subscribe & Save ticked: subscriber pricing, a sandbox token. */
async function subscribeBody(lines: Line[], options: { zip?: string; target?: TestApi | null; promo?: { code: string } & PricingPromo } = {}): Promise<SubscribeNonceRequest> {
  const zip = options.zip ?? '12345';
  const target = options.target === undefined ? api : options.target;
  const opaque = target ? await tokenize(target, zip) : { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: `token-${randomUUID()}` };
  const pricing = priceCart(
    lines.map((l) => ({ price: l.price ?? l.product.price, quantity: l.quantity })),
    { promo: options.promo ?? null, subscribe: true },
  );
  const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip };
  return {
    amount: toPayloadStrings(pricing).total,
    ...opaque,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'Ada@Example.com',
    ...address,
    interval: 'monthly',
    items: lines.map((l) => ({ productId: l.product.id, variantSku: null, quantity: l.quantity, price: centsToDecimal(l.price ?? l.product.price) })),
    shippingAddress: { address: '2 Elm St', city: 'Shelbyville', state: 'IL', zip: '62565' },
    ...(options.promo ? { promoCode: options.promo.code } : {}),
  };
}

const subscribeAs = (who: Shopper, body: unknown, key: string | null = randomUUID()) =>
  who.call('/api/payments/subscribe-nonce', { body, headers: key === null ? {} : { 'Idempotency-Key': key } });

describe('POST /api/payments/subscribe-nonce', () => {
  it('with a promo code: the first delivery is charged with it, the plan renews at the subscriber price', async () => {
    const me = await signUp();
    const product = await makeProduct(10, 999);
    const res = await subscribeAs(me, await subscribeBody([{ product, quantity: 1 }], { promo: { code: 'WELCOME10', discountType: 'percentage', discountValue: 10 } }));
    expect(res.status).toBe(200);
    const { subscriptionId, orderId } = subscribeNonceResponseSchema.parse(await res.json());
    // $9.99 − 15% = $8.49, − 10% = $7.64, + 8% tax = $8.25 now; $8.49 + tax = $9.17 each month.
    expect(sandboxCharges().at(-1)).toMatchObject({ amount: 825, invoiceNumber: orderInvoiceNumber(orderId) });
    expect(await q('select total::text as total, promo_code from orders where id = $1', [orderId])).toEqual([{ total: '8.25', promo_code: 'WELCOME10' }]);
    expect(await q('select amount::text as amount from subscriptions where id = $1', [subscriptionId])).toEqual([{ amount: '9.17' }]);
    // Each discount is kept on its own (issue 19): $1.50 Subscribe & Save and $0.85 promo, $2.35 in all.
    expect(await q('select discount::text as discount, subscribe_discount::text as s, promo_discount::text as p from orders where id = $1', [orderId])).toEqual([
      { discount: '2.35', s: '1.50', p: '0.85' },
    ]);
    // …and the shopper's order page is answered both, to show on two lines.
    const page = shopperOrderSchema.parse(await (await me.call(`/api/orders/${orderId}`)).json());
    expect(page).toMatchObject({ subtotal: 999, discount: 235, subscribeDiscount: 150, promoDiscount: 85, promoCode: 'WELCOME10', total: 825 });
    expect(discountLines(page, page.promoCode)).toEqual([
      { kind: 'subscribe', label: 'Subscribe & Save (15%)', amount: 150 },
      { kind: 'promo', label: 'Discount (WELCOME10)', amount: 85 },
    ]);
  });

  it('refuses a total that leaves out the promo code it names (what is shown is what is charged)', async () => {
    const me = await signUp();
    const product = await makeProduct(10, 999);
    const body = await subscribeBody([{ product, quantity: 1 }]);
    const res = await subscribeAs(me, { ...body, promoCode: 'WELCOME10' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: 'Your order total has changed to $8.25 (the checkout showed $9.17). Please review your order and try again.' });
  });

  it('refuses an unknown promo code like checkout does', async () => {
    const me = await signUp();
    const product = await makeProduct(10, 999);
    const body = await subscribeBody([{ product, quantity: 1 }]);
    const res = await subscribeAs(me, { ...body, promoCode: 'NOSUCHCODE' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ message: 'This promo code is invalid or expired' });
  });

  it('starts a plan: first box ordered and charged at subscriber prices, card stored, everything recorded together', async () => {
    const me = await signUp();
    const product = await makeProduct(10, 1250);
    const chargesBefore = sandboxCharges().length;
    const before = new Date();
    const res = await subscribeAs(me, await subscribeBody([{ product, quantity: 2 }]));
    const after = new Date();
    expect(res.status).toBe(200);
    const answer: SubscribeNonceResponse = subscribeNonceResponseSchema.parse(await res.json());
    const { subscriptionId, orderId } = answer;
    const next = Date.parse(answer.nextBillingDate);
    expect(next).toBeGreaterThanOrEqual(nextBillingDate(before).getTime());
    expect(next).toBeLessThanOrEqual(nextBillingDate(after).getTime());

    // 2 × 12.50 = 25.00; 15% off 3.75 → 21.25; free shipping; tax 8% 1.70; total 22.95.
    const period = billingPeriodOf(before);
    expect(sandboxCharges().length).toBe(chargesBefore + 1);
    // Invoiced by the order id like any order (the payment reconciliation finds a charge by its order).
    expect(sandboxCharges().at(-1)).toMatchObject({ amount: 2295, invoiceNumber: orderInvoiceNumber(orderId), lastFour: '1111' });
    expect(await inventoryOf(product.id)).toBe(8);

    const [sub] = await q<Record<string, unknown>>('select *, amount::text as amount from subscriptions where id = $1', [subscriptionId]);
    expect(sub).toMatchObject({
      user_id: me.id,
      customer_email: 'ada@example.com',
      customer_name: 'Ada Lovelace',
      interval: 'monthly',
      interval_count: 1,
      amount: '22.95',
      discount_percent: 15,
      status: 'active',
      failed_attempts: 0,
      cancelled_at: null,
      shipping_address: { address: '2 Elm St', city: 'Shelbyville', state: 'IL', zip: '62565' },
      items: [{ productId: product.id, productName: product.name, variantSku: null, sku: expect.any(String), itemNumber: null, quantity: 2, price: '12.50' }],
    });
    expect(sub!.authnet_customer_profile_id).toMatch(/^\d+$/);
    expect(sub!.authnet_payment_profile_id).toMatch(/^\d+$/);
    expect((sub!.next_billing_date as Date).toISOString()).toBe(answer.nextBillingDate);
    // The card's expiry is not asked for on the way to the answer: the workers look it up from the
    // subscription.created row (below) and record it. The sandbox kept it from the card it tokenised.
    expect(sub!.card_expires_on).toBeNull();
    const storedCard = { customerProfileId: String(sub!.authnet_customer_profile_id), paymentProfileId: String(sub!.authnet_payment_profile_id) };
    expect(await api.payments.sandbox!.storedCardExpiry(storedCard)).toEqual({ month: 12, year: 2030 });

    const [order] = await q<Record<string, unknown>>('select * from orders where id = $1', [orderId]);
    expect(order).toMatchObject({
      status: 'processing',
      subscription_id: subscriptionId,
      user_id: me.id,
      subtotal: '25.00',
      discount: '3.75',
      shipping: '0.00',
      tax: '1.70',
      total: '22.95',
      promo_code: null,
      shipping_address: { address: '2 Elm St', city: 'Shelbyville', state: 'IL', zip: '62565' },
      billing_address: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' },
    });
    const payments = await q<Record<string, unknown>>('select * from payment_transactions where order_id = $1', [orderId]);
    expect(payments).toEqual([
      expect.objectContaining({
        subscription_id: subscriptionId,
        billing_period: period,
        amount: '22.95',
        status: 'approved',
        card_type: 'Visa',
        card_last_four: '1111',
        invoice_number: orderInvoiceNumber(orderId),
      }),
    ]);
    expect(order!.payment_transaction_id).toBe(payments[0]!.authnet_transaction_id);

    const outbox = await q<{ topic: string; payload: unknown }>(`select topic, payload from outbox where payload->>'orderId' = $1 or payload->>'subscriptionId' = $2 order by id`, [orderId, subscriptionId]);
    expect(outbox).toEqual([
      { topic: 'order.placed', payload: { orderId } },
      { topic: 'subscription.created', payload: { subscriptionId } },
    ]);

    const list = (await (await me.call('/api/subscriptions')).json()) as SubscriptionView[];
    expect(list).toEqual([
      {
        id: subscriptionId,
        status: 'active',
        createdAt: expect.any(String),
        items: [{ productId: product.id, productName: product.name, variantSku: null, quantity: 2, price: '12.50' }],
        amount: '22.95',
        discountPercent: 15,
        interval: 'monthly',
        intervalCount: 1,
        nextBillingDate: answer.nextBillingDate,
        cancelledAt: null,
        cardType: 'Visa',
        cardLastFour: '1111',
        skippedPeriods: [],
        // The days the shopper may move the next delivery to (tomorrow to the day before the one after).
        rescheduleWindow: rescheduleWindow(new Date(answer.nextBillingDate), 'monthly', 1, new Date()),
        resumableOnSavedCard: false,
        chargeBeingChecked: false,
        shippingAddress: { address: '2 Elm St', city: 'Shelbyville', state: 'IL', zip: '62565' },
        resumesOn: null,
        paymentRetrying: false,
        pausedBy: null,
        cadenceSuggestion: null,
        // Issue 21: no one-time add-ons, no ship-now; the next delivery charges the plan's amount.
        oneTimeItems: [],
        shipNow: null,
        nextDeliveryAmount: '22.95',
      },
    ]);
  });

  it('refuses a tampered amount: 409 with the server total, no charge, nothing written', async () => {
    const me = await signUp();
    const product = await makeProduct(5, 2500);
    const body = await subscribeBody([{ product, quantity: 1 }]);
    body.amount = '1.00';
    const chargesBefore = sandboxCharges().length;
    const res = await subscribeAs(me, body);
    expect(res.status).toBe(409);
    // 25.00 − 3.75 = 21.25; tax 1.70; free shipping.
    expect(await res.json()).toEqual({
      message: 'Your order total has changed to $22.95 (the checkout showed $1.00). Please review your order and try again.',
      code: 'CHECKOUT_TOTAL_CHANGED',
      expected: { subtotal: '25.00', discount: '3.75', shipping: '0.00', tax: '1.70', total: '22.95' },
    });
    expect(sandboxCharges().length).toBe(chargesBefore);
    expect(await inventoryOf(product.id)).toBe(5);
    expect(await ordersOf(product)).toEqual([]);
    expect(await subscriptionsOf(me.id)).toEqual([]);
  });

  it('refuses from the catalogue as checkout does: a changed price, short stock, a product off sale', async () => {
    const me = await signUp();
    const priced = await makeProduct(5, 2500);
    const changed = await subscribeAs(me, await subscribeBody([{ product: priced, quantity: 1, price: 100 }]));
    expect(changed.status).toBe(409);
    expect(await changed.json()).toMatchObject({ message: `The price of "${priced.name}" is now $25.00. Please review your cart and try again.` });

    const scarce = await makeProduct(1);
    const short = await subscribeAs(me, await subscribeBody([{ product: scarce, quantity: 2 }]));
    expect(short.status).toBe(409);
    expect(await short.json()).toMatchObject({ message: `Only 1 of "${scarce.name}" left in stock. Please reduce the quantity and try again.` });

    const gone = await makeProduct(0);
    const out = await subscribeAs(me, await subscribeBody([{ product: gone, quantity: 1 }]));
    expect(out.status).toBe(409);
    expect(await out.json()).toMatchObject({ message: `"${gone.name}" is out of stock. Please remove it from your cart and try again.` });

    const inactive = await makeProduct(5, 1250, 'inactive');
    const off = await subscribeAs(me, await subscribeBody([{ product: inactive, quantity: 1 }]));
    expect(off.status).toBe(409);
    expect(await off.json()).toMatchObject({ message: 'A product in your cart is no longer available. Please remove it and try again.' });

    expect(await subscriptionsOf(me.id)).toEqual([]);
    expect(await inventoryOf(scarce.id)).toBe(1);
  });

  it('declines with ZIP 46282 as checkout does: 402, order cancelled, stock back, no plan', async () => {
    const me = await signUp();
    const product = await makeProduct(3);
    const res = await subscribeAs(me, await subscribeBody([{ product, quantity: 2 }], { zip: '46282' }));
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ message: 'This transaction has been declined.', code: 'PAYMENT_DECLINED', responseMessage: 'This transaction has been declined.' });
    expect(await inventoryOf(product.id)).toBe(3);
    expect(await subscriptionsOf(me.id)).toEqual([]);
    const orders = await ordersOf(product);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'cancelled', subscription_id: null, user_id: me.id });
    const payments = await q('select status, subscription_id, billing_period from payment_transactions where order_id = $1', [orders[0]!.id]);
    expect(payments).toEqual([{ status: 'declined', subscription_id: null, billing_period: null }]);
    expect(await q(`select 1 from outbox where payload->>'orderId' = $1`, [orders[0]!.id])).toEqual([]);
  });

  it('makes one plan and one charge for one key, also at the same moment, and replays the answer', async () => {
    const me = await signUp();
    const product = await makeProduct(10);
    const body = await subscribeBody([{ product, quantity: 1 }]);
    const key = randomUUID();
    const chargesBefore = sandboxCharges().length;
    const [a, b] = await Promise.all([subscribeAs(me, body, key), subscribeAs(me, body, key)]);
    const c = await subscribeAs(me, body, key);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    const answers = await Promise.all([a, b, c].map((r) => r.json()));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(c.headers.get('idempotent-replayed')).toBe('true');
    expect(sandboxCharges().length).toBe(chargesBefore + 1);
    expect(await subscriptionsOf(me.id)).toHaveLength(1);
    expect(await ordersOf(product)).toHaveLength(1);
    expect(await inventoryOf(product.id)).toBe(9);

    const other = await subscribeBody([{ product, quantity: 2 }]);
    const reused = await subscribeAs(me, other, key);
    expect(reused.status).toBe(422);
    expect(await reused.json()).toEqual({ message: 'This Idempotency-Key was already used for a different checkout. Start a new checkout attempt with a new key.', code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  /** One shopper for the calls that are refused before anything is written (sign-ups are rate limited). */
  let refused: Shopper;
  beforeAll(async () => {
    refused = await signUp();
  });

  it('requires an Idempotency-Key header', async () => {
    const me = refused;
    const product = await makeProduct(5);
    const body = await subscribeBody([{ product, quantity: 1 }]);
    const missing = await subscribeAs(me, body, null);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ message: 'An Idempotency-Key header is required: send one unique key per checkout attempt.', code: 'IDEMPOTENCY_KEY_MISSING' });
    const invalid = await subscribeAs(me, body, 'short');
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ message: 'The Idempotency-Key header must be 8 to 200 letters, digits, dashes or underscores.', code: 'IDEMPOTENCY_KEY_INVALID' });
  });

  describe('bad input gives the form rule messages', () => {
    const cases: Array<[string, (b: Record<string, unknown>) => void, string]> = [
      ['firstName blank', (b) => (b.firstName = ' '), 'First name is required'],
      ['email invalid', (b) => (b.email = 'nope'), 'Valid email is required'],
      ['zip too short', (b) => (b.zip = '123'), 'ZIP code is required'],
      ['amount malformed', (b) => (b.amount = '22.9'), 'Amount must be an amount such as "12.99"'],
      ['dataValue missing', (b) => delete b.dataValue, 'Payment details are missing: dataValue'],
      ['interval not monthly', (b) => (b.interval = 'weekly'), 'Subscriptions renew monthly: interval must be "monthly"'],
      ['no items', (b) => (b.items = []), 'Your cart is empty'],
      ['item quantity zero', (b) => ((b.items as Array<{ quantity: number }>)[0]!.quantity = 0), 'Each item needs a quantity of at least 1'],
      ['shipping state too long', (b) => ((b.shippingAddress as { state: string }).state = 'Illinois'), 'Use 2-letter state code'],
      ['shipping address missing', (b) => delete b.shippingAddress, 'Shipping address is required'],
    ];
    it.each(cases)('%s', async (_name, mutate, message) => {
      const me = refused;
      const product = await makeProduct(5);
      const body = structuredClone(await subscribeBody([{ product, quantity: 1 }])) as unknown as Record<string, unknown>;
      mutate(body);
      const res = await subscribeAs(me, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(message);
      expect(await inventoryOf(product.id)).toBe(5);
      expect(await subscriptionsOf(me.id)).toEqual([]);
    });
  });

  it('stops a connection that keeps getting payments declined (the checkout guard)', async () => {
    const guarded = await startTestApi({ PAYMENT_FAILURES_PER_15_MIN: '1', QUEUE_PREFIX: `subguard${randomUUID().slice(0, 8)}` });
    try {
      const me = await signUp(guarded);
      const product = await makeProduct(10);
      const first = await subscribeAs(me, await subscribeBody([{ product, quantity: 1 }], { zip: '46282', target: guarded }));
      expect(first.status).toBe(402);
      const second = await subscribeAs(me, await subscribeBody([{ product, quantity: 1 }], { target: guarded }));
      expect(second.status).toBe(429);
      expect(await second.json()).toEqual({ message: 'Too many declined payments from this connection. Please try again in 15 minutes or contact support.', code: 'RATE_LIMITED' });
      expect(await inventoryOf(product.id)).toBe(10);
    } finally {
      await guarded.close();
    }
  });
});

describe('POST /api/payments/subscribe-nonce through Authorize.Net (local stub)', () => {
  const credentials = { apiLoginId: 'stub-login', transactionKey: 'stub-key' };
  let stub: AuthnetStub;
  let authnet: TestApi;
  beforeAll(async () => {
    stub = await startAuthnetStub(credentials);
    authnet = await startTestApi(stub.apiEnv({ AUTHNET_TIMEOUT_MS: '300' }));
  });
  afterAll(async () => {
    await authnet.close();
    await stub.close();
  });

  it('asks for a stored card under a customer id made from the user and the plan, and keeps its ids', async () => {
    stub.scenario = 'approve';
    const me = await signUp(authnet);
    const product = await makeProduct(5);
    const res = await subscribeAs(me, await subscribeBody([{ product, quantity: 1 }], { target: null }));
    expect(res.status).toBe(200);
    const { subscriptionId, orderId } = subscribeNonceResponseSchema.parse(await res.json());
    const sent = stub.requests.at(-1)!.body.transactionRequest as { profile?: unknown; customer?: { id?: string }; order?: { invoiceNumber?: string } };
    expect(sent.profile).toEqual({ createProfile: true });
    expect(sent.customer?.id).toBe(profileCustomerId(me.id, subscriptionId));
    expect(sent.customer!.id!.length).toBeLessThanOrEqual(20);
    expect(sent.order?.invoiceNumber).toBe(orderInvoiceNumber(orderId));
    expect(await q('select authnet_customer_profile_id, authnet_payment_profile_id from subscriptions where id = $1', [subscriptionId])).toEqual([
      { authnet_customer_profile_id: '900001', authnet_payment_profile_id: '800001' },
    ]);
  });

  it('still makes the plan when the charge is approved but no card was stored (profile ids null)', async () => {
    // The first attempt charges but never answers; the retry with the same invoice is a duplicate (error 11),
    // which means approved, and carries no profile.
    stub.scenario = 'charge-then-timeout';
    const me = await signUp(authnet);
    const product = await makeProduct(5);
    const chargesBefore = stub.charges.length;
    const res = await subscribeAs(me, await subscribeBody([{ product, quantity: 1 }], { target: null }));
    expect(res.status).toBe(200);
    const { subscriptionId, orderId } = subscribeNonceResponseSchema.parse(await res.json());
    expect(stub.charges.length).toBe(chargesBefore + 1);
    expect(await q('select status, authnet_customer_profile_id, authnet_payment_profile_id from subscriptions where id = $1', [subscriptionId])).toEqual([
      { status: 'active', authnet_customer_profile_id: null, authnet_payment_profile_id: null },
    ]);
    expect(await q('select status, subscription_id from orders where id = $1', [orderId])).toEqual([{ status: 'processing', subscription_id: subscriptionId }]);
    expect(await inventoryOf(product.id)).toBe(4);
  });

  it('makes the plan for a charge held for review, its order pending', async () => {
    stub.scenario = 'held';
    const me = await signUp(authnet);
    const product = await makeProduct(5);
    const res = await subscribeAs(me, await subscribeBody([{ product, quantity: 1 }], { target: null }));
    expect(res.status).toBe(200);
    const { subscriptionId, orderId } = subscribeNonceResponseSchema.parse(await res.json());
    expect(await q('select status, subscription_id from orders where id = $1', [orderId])).toEqual([{ status: 'pending', subscription_id: subscriptionId }]);
    expect(await q('select status, subscription_id from payment_transactions where order_id = $1', [orderId])).toEqual([{ status: 'pending', subscription_id: subscriptionId }]);
    expect(await q('select status from subscriptions where id = $1', [subscriptionId])).toEqual([{ status: 'active' }]);
  });

  it('answers 502 for an unknown outcome: order kept pending for reconciliation, no plan', async () => {
    stub.scenario = 'timeout';
    const me = await signUp(authnet);
    const product = await makeProduct(5);
    const res = await subscribeAs(me, await subscribeBody([{ product, quantity: 1 }], { target: null }));
    expect(res.status).toBe(502);
    const body = (await res.json()) as { message: string; orderId: string };
    expect(body.message).toBe('We could not confirm your payment with the payment service. Please contact support before trying again.');
    expect(await q('select status, subscription_id from orders where id = $1', [body.orderId])).toEqual([{ status: 'pending', subscription_id: null }]);
    expect(await subscriptionsOf(me.id)).toEqual([]);
    expect(await inventoryOf(product.id)).toBe(4);
  });
});

// ---------------------------------------------------------------- POST /api/subscriptions/{id}/resume

describe('POST /api/subscriptions/{id}/resume', () => {
  const OLD_PROFILE = { authnet_customer_profile_id: '11110000', authnet_payment_profile_id: '22220000' };
  /** Two shoppers for every resume test (sign-ups are rate limited). */
  let me: Shopper;
  let other: Shopper;
  beforeAll(async () => {
    me = await signUp();
    other = await signUp();
  });

  /** A plan as dunning leaves it: paused after four failed attempts on a period due 11 days ago, its payment row declined. */
  async function insertPausedPlan(userId: string, options: { zip?: string; status?: string } = {}) {
    const items = [{ productId: 1, productName: 'Test Cleaner', variantSku: null, sku: 'T-1', itemNumber: null, quantity: 2, price: '12.50' }];
    const [row] = await q<{ id: string; next_billing_date: Date }>(
      `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, failed_attempts, retry_at,
         shipping_address, authnet_customer_profile_id, authnet_payment_profile_id)
       values ($1, 'paused@example.com', 'Grace Brewster Hopper', $2, '22.95', date_trunc('day', now(), 'UTC') - interval '11 days' + interval '14 hours', $3, 4, null, $4, $5, $6)
       returning id, next_billing_date`,
      [userId, JSON.stringify(items), options.status ?? 'paused', JSON.stringify({ address: '9 Harbor Rd', city: 'Arlington', state: 'VA', zip: options.zip ?? '22201' }),
        OLD_PROFILE.authnet_customer_profile_id, OLD_PROFILE.authnet_payment_profile_id],
    );
    const period = billingPeriodOf(row!.next_billing_date);
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status, response_message) values ($1, $2, '22.95', 'declined', 'This transaction has been declined.')`, [row!.id, period]);
    return { id: row!.id, nextBillingDate: row!.next_billing_date, period };
  }

  const resumeAs = (who: Shopper, id: string, body: unknown) => who.call(`/api/subscriptions/${id}/resume`, { body });
  const planRow = (id: string) => q<Record<string, unknown>>('select status, failed_attempts, retry_at, next_billing_date, authnet_customer_profile_id, authnet_payment_profile_id from subscriptions where id = $1', [id]).then((r) => r[0]!);
  const resumedRows = (id: string) => q<{ topic: string; payload: unknown }>(`select topic, payload from outbox where topic = 'subscription.resumed' and payload->>'subscriptionId' = $1`, [id]);
  const tokenExists = async (dataValue: string) => (await api.ctx.redis.exists(`${api.ctx.config.QUEUE_PREFIX}:pay-sandbox:token:${dataValue}`)) === 1;

  it('resumes the user\'s own paused plan with a new card: stored (not charged), active, dunning reset, billing date kept, outbox row', async () => {
    const plan = await insertPausedPlan(me.id);
    // The old card's expiry, as the workers recorded it.
    await q(`update subscriptions set card_expires_on = '2027-01-31' where id = $1`, [plan.id]);
    const opaque = await tokenize(api, '22201');
    const chargesBefore = sandboxCharges().length;
    const res = await resumeAs(me, plan.id, opaque);
    expect(res.status).toBe(200);
    // Forgotten with the old card: the workers look the new card's up (subscription.resumed).
    expect(await q('select card_expires_on from subscriptions where id = $1', [plan.id])).toEqual([{ card_expires_on: null }]);
    const view = subscriptionViewSchema.parse(await res.json());
    expect(view).toMatchObject({ id: plan.id, status: 'active', nextBillingDate: plan.nextBillingDate.toISOString(), cancelledAt: null, cardType: 'Visa', cardLastFour: '1111', amount: '22.95' });

    const row = await planRow(plan.id);
    expect(row).toMatchObject({ status: 'active', failed_attempts: 0, retry_at: null });
    expect((row.next_billing_date as Date).toISOString()).toBe(plan.nextBillingDate.toISOString());
    expect(row.authnet_customer_profile_id).toMatch(/^\d+$/);
    expect(row.authnet_payment_profile_id).toMatch(/^\d+$/);
    expect(row.authnet_customer_profile_id).not.toBe(OLD_PROFILE.authnet_customer_profile_id);
    expect(row.authnet_payment_profile_id).not.toBe(OLD_PROFILE.authnet_payment_profile_id);
    expect(await resumedRows(plan.id)).toEqual([{ topic: 'subscription.resumed', payload: { subscriptionId: plan.id, period: plan.period } }]);
    // Kept in the plan's history as the shopper's own change (the staff plan page shows it).
    expect(await q('select actor, kind, after from subscription_changes where subscription_id = $1', [plan.id])).toEqual([
      { actor: 'customer', kind: 'resumed', after: { status: 'active', cardLastFour: '1111' } },
    ]);

    // Nothing was charged by the call (the renewal charges), the token is used up, and the new profile is one renewals can charge.
    expect(sandboxCharges().length).toBe(chargesBefore);
    expect(await tokenExists(opaque.dataValue)).toBe(false);
    const profile = { customerProfileId: String(row.authnet_customer_profile_id), paymentProfileId: String(row.authnet_payment_profile_id) };
    const renewal = await api.payments.sandbox!.chargeProfile({
      profile, amount: 2295, invoiceNumber: `T-${randomUUID().slice(0, 12)}`, email: 'paused@example.com',
      billTo: { firstName: 'Grace', lastName: 'Brewster Hopper', address: '9 Harbor Rd', city: 'Arlington', state: 'VA', zip: '22201' },
    });
    expect(renewal).toMatchObject({ outcome: 'approved', lastFour: '1111' });

    // The list shows it under the active plans.
    const list = (await (await me.call('/api/subscriptions')).json()) as SubscriptionView[];
    expect(list.find((s) => s.id === plan.id)).toMatchObject({ status: 'active' });

    // A repeat on the plan now active is refused before the card is sent anywhere (its token stays unused).
    const again = await tokenize(api, '22201');
    const repeat = await resumeAs(me, plan.id, again);
    expect(repeat.status).toBe(409);
    expect(await repeat.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.notPaused, code: 'SUBSCRIPTION_NOT_PAUSED' });
    expect(await tokenExists(again.dataValue)).toBe(true);
    expect(await planRow(plan.id)).toEqual(row);
    expect(await resumedRows(plan.id)).toHaveLength(1);
  });

  it('a declined card (billing ZIP 46282, the plan\'s address) answers 402 with the provider\'s message; the plan stays paused on its old card', async () => {
    const plan = await insertPausedPlan(me.id, { zip: '46282' });
    const before = await planRow(plan.id);
    const opaque = await tokenize(api, '46282');
    const res = await resumeAs(me, plan.id, opaque);
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ message: 'This transaction has been declined.', code: 'PAYMENT_DECLINED', responseMessage: 'This transaction has been declined.' });
    expect(await planRow(plan.id)).toEqual(before);
    expect(before).toMatchObject({ status: 'paused', failed_attempts: 4, ...OLD_PROFILE });
    expect(await resumedRows(plan.id)).toEqual([]);
    expect(await tokenExists(opaque.dataValue)).toBe(false);
  });

  it('declines a card given with ZIP 46282 in the dialog though the plan ships elsewhere (sandbox convention): 402, still paused', async () => {
    const plan = await insertPausedPlan(me.id);
    const before = await planRow(plan.id);
    const res = await resumeAs(me, plan.id, await tokenize(api, '46282'));
    expect(res.status).toBe(402);
    expect(await planRow(plan.id)).toEqual(before);
    expect(await resumedRows(plan.id)).toEqual([]);
  });

  it('a used token is refused by the provider: 402, still paused', async () => {
    const plan = await insertPausedPlan(me.id);
    const res = await resumeAs(me, plan.id, { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: `sbx_${randomUUID()}` });
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ message: 'Invalid OTS Token.', code: 'PAYMENT_DECLINED', responseMessage: 'Invalid OTS Token.' });
    expect(await planRow(plan.id)).toMatchObject({ status: 'paused', ...OLD_PROFILE });
  });

  it('answers 409 for an active, cancelled or expired plan and changes nothing', async () => {
    for (const status of ['active', 'cancelled', 'expired']) {
      const plan = await insertPausedPlan(me.id, { status });
      const before = await planRow(plan.id);
      const opaque = await tokenize(api, '22201');
      const res = await resumeAs(me, plan.id, opaque);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.notPaused, code: 'SUBSCRIPTION_NOT_PAUSED' });
      expect(await planRow(plan.id)).toEqual(before);
      expect(await tokenExists(opaque.dataValue)).toBe(true);
    }
  });

  it('answers 404 for someone else\'s plan (left paused) and for an unknown or malformed id', async () => {
    const theirs = await insertPausedPlan(other.id);
    const opaque = await tokenize(api, '22201');
    const res = await resumeAs(me, theirs.id, opaque);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.notFound, code: 'NOT_FOUND' });
    expect(await planRow(theirs.id)).toMatchObject({ status: 'paused', ...OLD_PROFILE });
    expect(await tokenExists(opaque.dataValue)).toBe(true);
    for (const id of [randomUUID(), 'not-a-uuid', '1']) {
      const unknown = await resumeAs(me, id, opaque);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.notFound, code: 'NOT_FOUND' });
    }
  });

  it('answers 401 when signed out, before looking at the body', async () => {
    const plan = await insertPausedPlan(me.id);
    for (const body of [{}, await tokenize(api, '22201')]) {
      const res = await api.request(`/api/subscriptions/${plan.id}/resume`, { body });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.listLoginRequired, code: 'NOT_SIGNED_IN' });
    }
    expect(await planRow(plan.id)).toMatchObject({ status: 'paused' });
  });

  it('answers 400 with the field\'s message for a bad body', async () => {
    const plan = await insertPausedPlan(me.id);
    const cases: Array<[unknown, string]> = [
      [{ dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT' }, 'Payment details are missing: dataValue'],
      [{ dataValue: 'sbx_x' }, 'Payment details are missing: dataDescriptor'],
      [{ dataDescriptor: '', dataValue: 'sbx_x' }, 'Payment details are missing: dataDescriptor'],
    ];
    for (const [body, message] of cases) {
      const res = await resumeAs(me, plan.id, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(message);
    }
    expect(await planRow(plan.id)).toMatchObject({ status: 'paused', ...OLD_PROFILE });
  });

  it('is covered by the card-testing guard, one counter with the payment calls', async () => {
    const guarded = await startTestApi({ PAYMENT_FAILURES_PER_15_MIN: '1', QUEUE_PREFIX: `resguard${randomUUID().slice(0, 8)}` });
    try {
      const shopper = await signUp(guarded);
      const declined = await insertPausedPlan(shopper.id, { zip: '46282' });
      const first = await resumeAs(shopper, declined.id, await tokenize(guarded, '46282'));
      expect(first.status).toBe(402);
      const tooMany = { message: 'Too many declined payments from this connection. Please try again in 15 minutes or contact support.', code: 'RATE_LIMITED' };
      const plan = await insertPausedPlan(shopper.id);
      const second = await resumeAs(shopper, plan.id, await tokenize(guarded, '22201'));
      expect(second.status).toBe(429);
      expect(await second.json()).toEqual(tooMany);
      expect(await planRow(plan.id)).toMatchObject({ status: 'paused' });
      const product = await makeProduct(5);
      const subscribing = await subscribeAs(shopper, await subscribeBody([{ product, quantity: 1 }], { target: guarded }));
      expect(subscribing.status).toBe(429);
    } finally {
      await guarded.close();
    }
  });
});

describe('POST /api/subscriptions/{id}/resume through Authorize.Net (local stub)', () => {
  const credentials = { apiLoginId: 'stub-login', transactionKey: 'stub-key' };
  let stub: AuthnetStub;
  let authnet: TestApi;
  beforeAll(async () => {
    stub = await startAuthnetStub(credentials);
    authnet = await startTestApi(stub.apiEnv({ AUTHNET_TIMEOUT_MS: '300' }));
  });
  afterAll(async () => {
    await authnet.close();
    await stub.close();
  });

  async function pausedPlan(userId: string): Promise<string> {
    const [row] = await q<{ id: string }>(
      `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, failed_attempts, shipping_address)
       values ($1, 'stub@example.com', 'Ada Lovelace', $2, '22.95', now() - interval '8 days', 'paused', 4, $3) returning id`,
      [userId, JSON.stringify([{ productId: 1, productName: 'Test Cleaner', variantSku: null, sku: 'T-1', itemNumber: null, quantity: 2, price: '12.50' }]),
        JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' })],
    );
    return row!.id;
  }
  const opaque = () => ({ dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: `token-${randomUUID()}` });

  it('stores the card under a new ≤ 20 character customer id of the user, billed to the plan\'s name and address, and keeps its ids', async () => {
    stub.scenario = 'approve';
    const shopper = await signUp(authnet);
    const id = await pausedPlan(shopper.id);
    const res = await shopper.call(`/api/subscriptions/${id}/resume`, { body: opaque() });
    expect(res.status).toBe(200);
    const sent = stub.requests.at(-1)!;
    expect(sent.name).toBe('createCustomerProfileRequest');
    const profile = (sent.body as { profile: { merchantCustomerId: string; email: string; paymentProfiles: Array<{ billTo: unknown }> } }).profile;
    expect(profile.merchantCustomerId).toHaveLength(20);
    expect(profile.merchantCustomerId.startsWith(shopper.id.replace(/-/g, '').slice(0, 12))).toBe(true);
    expect(profile.email).toBe('stub@example.com');
    expect(profile.paymentProfiles[0]!.billTo).toEqual({ firstName: 'Ada', lastName: 'Lovelace', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' });
    const stored = stub.profiles.at(-1)!;
    expect(await q('select status, authnet_customer_profile_id, authnet_payment_profile_id from subscriptions where id = $1', [id])).toEqual([
      { status: 'active', authnet_customer_profile_id: stored.customerProfileId, authnet_payment_profile_id: stored.paymentProfileId },
    ]);
    expect(stub.charges.some((c) => /^S[0-9A-F]{12}-\d{6}$/.test(c.invoiceNumber))).toBe(false);
  });

  it('answers 502 when the provider does not answer and 503 when it refuses our credentials; the plan stays paused', async () => {
    const shopper = await signUp(authnet);
    const id = await pausedPlan(shopper.id);
    stub.scenario = 'timeout';
    const timeout = await shopper.call(`/api/subscriptions/${id}/resume`, { body: opaque() });
    expect(timeout.status).toBe(502);
    expect(((await timeout.json()) as { message: string }).message).toBe('The payment service did not answer, so your card was not saved. You have not been charged. Please try again.');
    stub.scenario = 'approve';

    const wrongKey = await startTestApi(stub.apiEnv({ AUTHNET_TRANSACTION_KEY: 'wrong' }));
    try {
      const refused = await wrongKey.request(`/api/subscriptions/${id}/resume`, { body: opaque(), headers: { cookie: shopper.cookie } });
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({ message: 'Payment processing is currently unavailable. Please contact support or try again later.', code: 'PAYMENTS_UNAVAILABLE' });
    } finally {
      await wrongKey.close();
    }
    expect(await q('select status from subscriptions where id = $1', [id])).toEqual([{ status: 'paused' }]);
  });
});
