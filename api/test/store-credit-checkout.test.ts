/**
 * Store credit at checkout (issue 23), on the real API, database and local payment sandbox: a signed-in
 * shopper's credit pays first (the server decides how much, never the browser), the card is charged the
 * rest, an order credit pays in full needs no card, a declined card gives the credit back in the
 * statement that cancels the order, and a retried request (same key) spends once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, priceCart, toPayloadStrings } from '@nh/shared';
import type { CheckoutNonceRequest } from '@nh/shared/contracts/checkout';
import { creditBalance, creditHistory, moveCredit } from '@nh/server/queries/store-credit';
import { startTestApi, type TestApi } from './support/harness';
import { json, signUpShopper, type Shopper } from './support/shopper';

let api: TestApi;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

async function makeProduct(price: number): Promise<number> {
  const name = `Credit Test ${randomUUID().slice(0, 8)}`;
  const [row] = await q<{ id: number }>(`insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, 100, 'active', $4) returning id`, [
    name,
    name.toLowerCase().replace(/\s+/g, '-'),
    centsToDecimal(price),
    `C-${name.slice(-8)}`,
  ]);
  return row!.id;
}

async function tokenize(zip: string) {
  const res = await api.request('/api/payments/sandbox/tokenize', {
    body: { authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' }, cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip } },
  });
  return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
}

/** A checkout of one product at `price` (total = price + $9.99 shipping + 8% tax below $50). */
async function body(productId: number, price: number, options: { card?: boolean; zip?: string } = {}): Promise<CheckoutNonceRequest> {
  const zip = options.zip ?? '12345';
  const strings = toPayloadStrings(priceCart([{ price, quantity: 1 }], { promo: null }));
  const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip };
  const card = options.card === false ? {} : await tokenize(zip);
  return {
    amount: strings.total,
    ...card,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    ...address,
    orderData: {
      items: [{ productId, variantSku: null, quantity: 1, price: centsToDecimal(price) }],
      subtotal: strings.subtotal,
      shipping: strings.shipping,
      tax: strings.tax,
      total: strings.total,
      promoCode: null,
      shippingAddress: address,
      billingAddress: address,
    },
  };
}

const give = (shopper: Shopper, cents: number) =>
  moveCredit(api.ctx.db.$client, { userId: shopper.id, kind: 'grant', amount: cents, reason: 'test', staffId: null, orderId: null, subscriptionId: null, reference: null });
const checkout = (shopper: Shopper | null, b: unknown, key = randomUUID()) =>
  (shopper ? shopper.call : api.request)('/api/payments/checkout-nonce', { body: b, headers: { 'Idempotency-Key': key } });
const orderRow = async (id: string) => (await q<{ status: string; total: string; credit_applied: string }>('select status, total::text, credit_applied::text from orders where id = $1', [id]))[0]!;
const paymentsOf = (id: string) => q<{ amount: string; status: string; response_message: string; authnet_transaction_id: string | null }>('select amount::text, status, response_message, authnet_transaction_id from payment_transactions where order_id = $1', [id]);

describe('store credit at checkout', () => {
  it('pays first and the card is charged the rest, exactly', async () => {
    const shopper = await signUpShopper(api, 'credit-checkout');
    await give(shopper, 1000);
    const product = await makeProduct(2000); // 20.00 + 9.99 + 1.60 = 31.59
    const before = api.payments.sandbox!.charges.length;
    const answer = await json(await checkout(shopper, await body(product, 2000)), 200);
    expect(answer).toMatchObject({ creditApplied: '10.00', charged: '21.59' });
    const orderId = answer.orderId as string;
    expect(await orderRow(orderId)).toEqual({ status: 'processing', total: '31.59', credit_applied: '10.00' });
    expect(api.payments.sandbox!.charges.slice(before).map((c) => c.amount)).toEqual([2159]);
    expect(await paymentsOf(orderId)).toMatchObject([{ amount: '21.59', status: 'approved' }]);
    expect(await creditBalance(api.ctx.db.$client, shopper.id)).toBe(0);
    const [spend] = await creditHistory(api.ctx.db.$client, shopper.id);
    expect(spend).toMatchObject({ kind: 'spend', amount: -1000, balanceAfter: 0, orderId });
    // The shopper's order page shows the credit line.
    const mine = await json(await shopper.call(`/api/orders/${orderId}`), 200);
    expect(mine).toMatchObject({ total: 3159, storeCredit: 1000 });
  });

  it('an order credit pays in full needs no card and asks nothing of the gateway', async () => {
    const shopper = await signUpShopper(api, 'credit-full');
    await give(shopper, 5000);
    const product = await makeProduct(1500); // 15.00 + 9.99 + 1.20 = 26.19
    const before = api.payments.sandbox!.charges.length;
    const answer = await json(await checkout(shopper, await body(product, 1500, { card: false })), 200);
    expect(answer).toMatchObject({ creditApplied: '26.19', charged: '0.00' });
    expect(api.payments.sandbox!.charges.length).toBe(before);
    expect(await orderRow(answer.orderId as string)).toEqual({ status: 'processing', total: '26.19', credit_applied: '26.19' });
    expect(await paymentsOf(answer.orderId as string)).toMatchObject([{ amount: '0.00', status: 'approved', response_message: 'Paid in full with store credit', authnet_transaction_id: null }]);
    expect(await creditBalance(api.ctx.db.$client, shopper.id)).toBe(5000 - 2619);
  });

  it('without a card and without enough credit: refused before anything is spent, or cancelled with the credit given back', async () => {
    const guest = await json(await checkout(null, await body(await makeProduct(1500), 1500, { card: false })), 400);
    expect(guest).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Please enter your card details: your store credit does not cover this whole order.' });
    const shopper = await signUpShopper(api, 'credit-short');
    await give(shopper, 500);
    const refused = await json(await checkout(shopper, await body(await makeProduct(1500), 1500, { card: false })), 402);
    expect(refused.message).toBe('Please enter your card details: your store credit does not cover this whole order.');
    expect(await creditBalance(api.ctx.db.$client, shopper.id)).toBe(500);
    expect((await creditHistory(api.ctx.db.$client, shopper.id)).map((e) => [e.kind, e.amount])).toEqual([
      ['reverse', 500],
      ['spend', -500],
      ['grant', 500],
    ]);
  });

  it('a declined card gives the credit back in the statement that cancels the order', async () => {
    const shopper = await signUpShopper(api, 'credit-declined');
    await give(shopper, 700);
    const res = await checkout(shopper, await body(await makeProduct(2000), 2000, { zip: '46282' }));
    expect(res.status).toBe(402);
    const [order] = await q<{ id: string; status: string; credit_applied: string }>('select id, status, credit_applied::text from orders where user_id = $1', [shopper.id]);
    expect(order).toMatchObject({ status: 'cancelled', credit_applied: '7.00' });
    expect(await creditBalance(api.ctx.db.$client, shopper.id)).toBe(700);
    const history = await creditHistory(api.ctx.db.$client, shopper.id);
    expect(history[0]).toMatchObject({ kind: 'reverse', amount: 700, orderId: order!.id });
  });

  it('the same request sent twice (a retry, a second click) spends once and charges once', async () => {
    const shopper = await signUpShopper(api, 'credit-retry');
    await give(shopper, 1000);
    const b = await body(await makeProduct(2000), 2000);
    const key = randomUUID();
    const before = api.payments.sandbox!.charges.length;
    const [first, second] = await Promise.all([checkout(shopper, b, key), checkout(shopper, b, key)]);
    const answers = [await json(first, 200), await json(second, 200)];
    expect(answers[0]!.orderId).toBe(answers[1]!.orderId);
    expect(api.payments.sandbox!.charges.length - before).toBe(1);
    expect(await creditBalance(api.ctx.db.$client, shopper.id)).toBe(0);
    expect((await creditHistory(api.ctx.db.$client, shopper.id)).filter((e) => e.kind === 'spend')).toHaveLength(1);
  });

  it('two checkouts at once share the balance, never spending more than there is', async () => {
    const shopper = await signUpShopper(api, 'credit-two-tabs');
    await give(shopper, 3000);
    const product = await makeProduct(2000); // 31.59 each
    const answers = await Promise.all([0, 1, 2].map(async () => json(await checkout(shopper, await body(product, 2000)), 200)));
    const applied = answers.map((a) => Number(a.creditApplied ?? '0')).sort((a, b) => b - a);
    expect(applied).toEqual([30, 0, 0]);
    expect(await creditBalance(api.ctx.db.$client, shopper.id)).toBe(0);
  });
});
