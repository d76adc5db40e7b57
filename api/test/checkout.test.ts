import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, priceCart, toPayloadStrings, type PricingPromo } from '@nh/shared';
import type { CheckoutNonceRequest } from '@nh/shared/contracts/checkout';
import { startTestApi, type TestApi } from './support/harness';
import { reverseKeys } from './support/json';

let api: TestApi;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const sandboxCharges = () => api.payments.sandbox!.charges.length;

interface TestProduct {
  id: number;
  name: string;
  price: number;
}

/** A product of this test file's own, so stock changes never disturb other test files. */
async function makeProduct(inventory: number, price = 1999, status = 'active'): Promise<TestProduct> {
  const name = `Checkout Test ${randomUUID().slice(0, 8)}`;
  const [row] = await q<{ id: number }>(
    `insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, $4, $5, $6) returning id`,
    [name, name.toLowerCase().replace(/\s+/g, '-'), centsToDecimal(price), inventory, status, `T-${name.slice(-8)}`],
  );
  return { id: row!.id, name, price };
}

const inventoryOf = async (id: number) => (await q<{ inventory: number }>('select inventory from products where id = $1', [id]))[0]!.inventory;

interface Card {
  cardNumber?: string;
  month?: string;
  year?: string;
  cardCode?: string;
  zip?: string;
}

async function tokenize(card: Card = {}) {
  const res = await api.request('/api/payments/sandbox/tokenize', {
    body: {
      authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
      cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345', ...card },
    },
  });
  return (await res.json()) as { opaqueData?: { dataDescriptor: string; dataValue: string }; messages: { resultCode: string; message: Array<{ code: string; text: string }> } };
}

interface Line {
  product: TestProduct;
  quantity: number;
  variantSku?: string | null;
  price?: number;
}

async function checkoutBody(lines: Line[], options: { promo?: { code: string } & PricingPromo; zip?: string; card?: Card } = {}): Promise<CheckoutNonceRequest> {
  const zip = options.zip ?? '12345';
  const token = await tokenize({ zip, ...options.card });
  const pricing = priceCart(
    lines.map((l) => ({ price: l.price ?? l.product.price, quantity: l.quantity })),
    { promo: options.promo ?? null },
  );
  const strings = toPayloadStrings(pricing);
  const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip };
  return {
    amount: strings.total,
    dataDescriptor: token.opaqueData!.dataDescriptor,
    dataValue: token.opaqueData!.dataValue,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    ...address,
    orderData: {
      items: lines.map((l) => ({ productId: l.product.id, variantSku: l.variantSku ?? null, quantity: l.quantity, price: centsToDecimal(l.price ?? l.product.price) })),
      subtotal: strings.subtotal,
      shipping: strings.shipping,
      tax: strings.tax,
      total: strings.total,
      promoCode: options.promo?.code ?? null,
      shippingAddress: address,
      billingAddress: address,
    },
  };
}

const checkout = (body: unknown, key: string | null = randomUUID()) =>
  api.request('/api/payments/checkout-nonce', { body, headers: key === null ? {} : { 'Idempotency-Key': key } });

describe('GET /api/payments/status and the local sandbox', () => {
  it('reports the local sandbox when no Authorize.Net credentials are configured', async () => {
    const res = await api.request('/api/payments/status');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      configured: true,
      environment: 'sandbox',
      publicClientKey: 'local-sandbox-client-key',
      apiLoginID: 'local-sandbox',
      acceptJsUrl: '/api/payments/sandbox/accept.js',
      localSandbox: true,
    });
  });

  it('serves an Accept.js-compatible script', async () => {
    const res = await api.request('/api/payments/sandbox/accept.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    expect(await res.text()).toContain('dispatchData');
  });

  it('tokenises a good card into single-use opaque data', async () => {
    const answer = await tokenize();
    expect(answer.messages).toEqual({ resultCode: 'Ok', message: [{ code: 'I_WC_01', text: 'Successful.' }] });
    expect(answer.opaqueData!.dataDescriptor).toBe('COMMON.ACCEPT.INAPP.PAYMENT');
    expect(answer.opaqueData!.dataValue.length).toBeGreaterThan(20);
  });

  it('answers card problems with the Accept.js error codes', async () => {
    const codes = async (card: Card) => (await tokenize(card)).messages.message.map((m) => m.code);
    expect(await codes({ cardNumber: '4111111111111112' })).toEqual(['E_WC_05']);
    expect(await codes({ month: '13' })).toEqual(['E_WC_06']);
    expect(await codes({ year: '20x0' })).toEqual(['E_WC_07']);
    expect(await codes({ month: '01', year: '2020' })).toEqual(['E_WC_08']);
    expect(await codes({ cardCode: '12' })).toEqual(['E_WC_15']);
    expect(await codes({ cardNumber: '370000000000002', cardCode: '123' })).toEqual(['E_WC_15']);
    expect(await codes({ zip: '!!!' })).toEqual(['E_WC_16']);
    const bad = await tokenize({ cardNumber: '1', month: '0' });
    expect(bad.messages.resultCode).toBe('Error');
    expect(bad.messages.message).toEqual([
      { code: 'E_WC_05', text: 'Please provide valid credit card number.' },
      { code: 'E_WC_06', text: 'Please provide valid expiration month.' },
    ]);
  });
});

describe('POST /api/payments/checkout-nonce', () => {
  it('places an order: re-priced, charged once, recorded with its payment and outbox row', async () => {
    const product = await makeProduct(10, 1250);
    const before = sandboxCharges();
    const body = await checkoutBody([{ product, quantity: 2 }]);
    const res = await checkout(body);
    expect(res.status).toBe(200);
    const { orderId } = (await res.json()) as { orderId: string };
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sandboxCharges()).toBe(before + 1);
    expect(await inventoryOf(product.id)).toBe(8);

    const [order] = await q<Record<string, unknown>>('select * from orders where id = $1', [orderId]);
    expect(order).toMatchObject({
      store_code: 'NH',
      status: 'processing',
      customer_email: 'ada@example.com',
      customer_name: 'Ada Lovelace',
      subtotal: '25.00',
      discount: '0.00',
      shipping: '9.99',
      tax: '2.00',
      total: '36.99',
      promo_code: null,
      shipping_address: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' },
    });
    expect(order!.items).toEqual([
      { productId: product.id, productName: product.name, variantSku: null, sku: expect.any(String), itemNumber: null, quantity: 2, price: '12.50', tax: '2.00' },
    ]);
    const payments = await q<Record<string, unknown>>('select * from payment_transactions where order_id = $1', [orderId]);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      amount: '36.99',
      status: 'approved',
      response_code: '1',
      response_message: 'This transaction has been approved.',
      card_type: 'Visa',
      card_last_four: '1111',
      environment: 'sandbox',
      invoice_number: `ORD-${orderId.replace(/-/g, '').slice(0, 16).toUpperCase()}`,
    });
    expect(order!.payment_transaction_id).toBe(payments[0]!.authnet_transaction_id);
    const outbox = await q<{ topic: string }>(`select topic from outbox where payload->>'orderId' = $1`, [orderId]);
    expect(outbox).toEqual([{ topic: 'order.placed' }]);
  });

  it('stores names and addresses exactly as typed, quotes and backslashes included', async () => {
    const product = await makeProduct(5);
    const body = await checkoutBody([{ product, quantity: 1 }]);
    body.firstName = "Seán O'Brien";
    body.lastName = 'Back\\slash "Quote"';
    body.orderData.shippingAddress.address = "1 Main St'); drop table orders; --";
    const res = await checkout(body);
    expect(res.status).toBe(200);
    const { orderId } = (await res.json()) as { orderId: string };
    const [order] = await q<{ customer_name: string; shipping_address: { address: string } }>('select customer_name, shipping_address from orders where id = $1', [orderId]);
    expect(order!.customer_name).toBe('Seán O\'Brien Back\\slash "Quote"');
    expect(order!.shipping_address.address).toBe("1 Main St'); drop table orders; --");
  });

  it('never stores or answers the card number', async () => {
    const product = await makeProduct(5);
    const res = await checkout(await checkoutBody([{ product, quantity: 1 }]));
    const { orderId } = (await res.json()) as { orderId: string };
    const rows = await q<{ dump: string }>(
      `select (select row_to_json(o)::text from orders o where id = $1) || (select json_agg(p)::text from payment_transactions p where order_id = $1) as dump`,
      [orderId],
    );
    expect(rows[0]!.dump).not.toContain('4111111111111111');
    expect(rows[0]!.dump).toContain('1111');
  });

  it('prices variants from the catalogue and applies a percentage promo (WELCOME10)', async () => {
    const [surfy] = await q<{ id: number; name: string }>(`select id, name from products where slug = 'surfy-probiotic-all-purpose-cleaner'`);
    const product = { id: surfy!.id, name: surfy!.name, price: 3999 };
    const body = await checkoutBody([{ product, quantity: 1, variantSku: 'NH-SRF-128', price: 3999 }], {
      promo: { code: 'WELCOME10', discountType: 'percentage', discountValue: 10 },
    });
    body.orderData.promoCode = ' welcome10 ';
    const res = await checkout(body);
    expect(res.status).toBe(200);
    const { orderId } = (await res.json()) as { orderId: string };
    const [order] = await q<Record<string, unknown>>(
      'select subtotal, discount, subscribe_discount, promo_discount, shipping, tax, total, promo_code, items from orders where id = $1',
      [orderId],
    );
    // 39.99 − 4.00 = 35.99; shipping 9.99; tax 2.88
    expect(order).toMatchObject({ subtotal: '39.99', discount: '4.00', subscribe_discount: '0.00', promo_discount: '4.00', shipping: '9.99', tax: '2.88', total: '48.86', promo_code: 'WELCOME10' });
    expect((order!.items as Array<{ productName: string; sku: string }>)[0]).toMatchObject({ productName: `${surfy!.name} - 1 Gallon Refill`, sku: 'NH-SRF-128' });
  });

  it('applies a fixed promo in whole dollars (SAVE5)', async () => {
    const product = await makeProduct(5, 6000);
    const res = await checkout(await checkoutBody([{ product, quantity: 1 }], { promo: { code: 'SAVE5', discountType: 'fixed', discountValue: 5 } }));
    expect(res.status).toBe(200);
    const { orderId } = (await res.json()) as { orderId: string };
    const [order] = await q<Record<string, unknown>>('select discount, shipping, total from orders where id = $1', [orderId]);
    expect(order).toEqual({ discount: '5.00', shipping: '0.00', total: '59.40' });
  });

  it('declines with ZIP 46282: no paid order, no reserved stock, the failed payment recorded', async () => {
    const product = await makeProduct(3);
    const before = sandboxCharges();
    const res = await checkout(await checkoutBody([{ product, quantity: 2 }], { zip: '46282' }));
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ message: 'This transaction has been declined.', code: 'PAYMENT_DECLINED', responseMessage: 'This transaction has been declined.' });
    expect(sandboxCharges()).toBe(before);
    expect(await inventoryOf(product.id)).toBe(3);
    const orders = await q<{ id: string; status: string }>(`select o.id, o.status from orders o where o.items @> $1::jsonb`, [JSON.stringify([{ productId: product.id }])]);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.status).toBe('cancelled');
    const payments = await q<Record<string, unknown>>('select status, response_code, response_message, card_last_four from payment_transactions where order_id = $1', [orders[0]!.id]);
    expect(payments).toEqual([{ status: 'declined', response_code: '2', response_message: 'This transaction has been declined.', card_last_four: '1111' }]);
    expect(await q(`select 1 from outbox where payload->>'orderId' = $1`, [orders[0]!.id])).toHaveLength(0);
  });

  it('declines a card code mismatch (CVV 901)', async () => {
    const product = await makeProduct(3);
    const res = await checkout(await checkoutBody([{ product, quantity: 1 }], { card: { cardCode: '901' } }));
    expect(res.status).toBe(402);
    expect(await inventoryOf(product.id)).toBe(3);
  });

  it('refuses a used token (single use)', async () => {
    const product = await makeProduct(5);
    const body = await checkoutBody([{ product, quantity: 1 }]);
    expect((await checkout(body)).status).toBe(200);
    const again = await checkout(body);
    expect(again.status).toBe(402);
    expect(await again.json()).toMatchObject({ responseMessage: 'Invalid OTS Token.' });
    expect(await inventoryOf(product.id)).toBe(4);
  });

  it('refuses a tampered unit price with a clear message and no charge', async () => {
    const product = await makeProduct(5, 2500);
    const before = sandboxCharges();
    const res = await checkout(await checkoutBody([{ product, quantity: 1, price: 100 }]));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      message: `The price of "${product.name}" is now $25.00. Please review your cart and try again.`,
      prices: [{ productId: product.id, variantSku: null, price: '25.00' }],
    });
    expect(sandboxCharges()).toBe(before);
    expect(await inventoryOf(product.id)).toBe(5);
    expect(await q(`select 1 from orders where items @> $1::jsonb`, [JSON.stringify([{ productId: product.id }])])).toHaveLength(0);
  });

  it('refuses a tampered total with a clear message and no charge', async () => {
    const product = await makeProduct(5, 2500);
    const body = await checkoutBody([{ product, quantity: 1 }]);
    body.amount = '1.00';
    body.orderData.total = '1.00';
    const before = sandboxCharges();
    const res = await checkout(body);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      message: 'Your order total has changed to $36.99 (the checkout showed $1.00). Please review your order and try again.',
      expected: { subtotal: '25.00', shipping: '9.99', tax: '2.00', total: '36.99' },
    });
    expect(sandboxCharges()).toBe(before);
    expect(await inventoryOf(product.id)).toBe(5);
  });

  it('prices from the catalogue as it is now, even when this process read it a moment ago', async () => {
    const product = await makeProduct(5, 2500);
    expect((await checkout(await checkoutBody([{ product, quantity: 1 }]))).status).toBe(200);
    // Staff change the price in the database behind this API process's back (no cache invalidation).
    await q(`update products set price = '30.00' where id = $1`, [product.id]);
    const before = sandboxCharges();
    const stale = await checkout(await checkoutBody([{ product, quantity: 1 }]));
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ message: `The price of "${product.name}" is now $30.00. Please review your cart and try again.` });
    expect(sandboxCharges()).toBe(before);
    expect(await inventoryOf(product.id)).toBe(4);

    const current = await checkout(await checkoutBody([{ product: { ...product, price: 3000 }, quantity: 1 }]));
    expect(current.status).toBe(200);
    const { orderId } = (await current.json()) as { orderId: string };
    expect((await q<{ total: string }>('select total::text from orders where id = $1', [orderId]))[0]!.total).toBe('42.39');
    expect(await inventoryOf(product.id)).toBe(3);
  });

  it('refuses a product taken off sale a moment after this process read it', async () => {
    const product = await makeProduct(5, 2500);
    expect((await checkout(await checkoutBody([{ product, quantity: 1 }]))).status).toBe(200);
    await q(`update products set status = 'inactive' where id = $1`, [product.id]);
    const res = await checkout(await checkoutBody([{ product, quantity: 1 }]));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: 'A product in your cart is no longer available. Please remove it and try again.', productIds: [product.id] });
    expect(await inventoryOf(product.id)).toBe(4);
  });

  it('refuses an unknown and an inactive promo code', async () => {
    const product = await makeProduct(5);
    for (const code of ['NOPE', 'SPRING20']) {
      const res = await checkout(await checkoutBody([{ product, quantity: 1 }], { promo: { code, discountType: 'percentage', discountValue: 20 } }));
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ message: 'This promo code is invalid or expired' });
    }
    expect(await inventoryOf(product.id)).toBe(5);
  });

  it('spends a single-use promo code once', async () => {
    const code = `ONCE${randomUUID().slice(0, 6).toUpperCase()}`;
    await q(`insert into promo_codes (code, discount_type, discount_value, single_use) values ($1, 'percentage', 15, true)`, [code]);
    const product = await makeProduct(5, 2000);
    const promo = { code, discountType: 'percentage' as const, discountValue: 15 };
    expect((await api.request(`/api/promo-codes/validate/${code}`)).status).toBe(200);
    expect((await checkout(await checkoutBody([{ product, quantity: 1 }], { promo }))).status).toBe(200);
    const second = await checkout(await checkoutBody([{ product, quantity: 1 }], { promo }));
    expect(second.status).toBe(422);
    expect((await api.request(`/api/promo-codes/validate/${code}`)).status).toBe(404);
  });

  it('keeps a single-use code unspent when the stock guard refuses the order', async () => {
    const code = `KEEP${randomUUID().slice(0, 6).toUpperCase()}`;
    await q(`insert into promo_codes (code, discount_type, discount_value, single_use) values ($1, 'percentage', 10, true)`, [code]);
    const product = await makeProduct(1, 2000);
    const promo = { code, discountType: 'percentage' as const, discountValue: 10 };
    // The first attempt reaches the reservation transaction (stock is judged there), which spends the
    // code before the guard refuses: the whole transaction must roll back.
    const res = await checkout(await checkoutBody([{ product, quantity: 2 }], { promo }));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: `Only 1 of "${product.name}" left in stock. Please reduce the quantity and try again.` });
    expect(await inventoryOf(product.id)).toBe(1);
    expect((await api.request(`/api/promo-codes/validate/${code}`)).status).toBe(200);
    expect(await q('select 1 from orders where promo_code = $1', [code])).toHaveLength(0);
    expect((await checkout(await checkoutBody([{ product, quantity: 1 }], { promo }))).status).toBe(200);
  });

  it('gives a single-use code back when the charge is declined', async () => {
    const code = `BACK${randomUUID().slice(0, 6).toUpperCase()}`;
    await q(`insert into promo_codes (code, discount_type, discount_value, single_use) values ($1, 'fixed', 5, true)`, [code]);
    const product = await makeProduct(5, 2000);
    const promo = { code, discountType: 'fixed' as const, discountValue: 5 };
    expect((await checkout(await checkoutBody([{ product, quantity: 1 }], { promo, zip: '46282' }))).status).toBe(402);
    expect((await checkout(await checkoutBody([{ product, quantity: 1 }], { promo }))).status).toBe(200);
  });

  it('refuses an out-of-stock line, naming it', async () => {
    const [trashy] = await q<{ id: number; name: string }>(`select id, name from products where slug = 'trashy-garbage-can-deodorizer'`);
    const res = await checkout(await checkoutBody([{ product: { id: trashy!.id, name: trashy!.name, price: 999 }, quantity: 1 }]));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: `"${trashy!.name}" is out of stock. Please remove it from your cart and try again.` });

    const scarce = await makeProduct(2);
    const more = await checkout(await checkoutBody([{ product: scarce, quantity: 3 }]));
    expect(more.status).toBe(409);
    expect(await more.json()).toMatchObject({ message: `Only 2 of "${scarce.name}" left in stock. Please reduce the quantity and try again.`, available: 2 });
    expect(await inventoryOf(scarce.id)).toBe(2);
  });

  it('charges once for a double submit with one key, also at the same moment', async () => {
    const product = await makeProduct(10);
    const body = await checkoutBody([{ product, quantity: 1 }]);
    const key = randomUUID();
    const before = sandboxCharges();
    const [a, b] = await Promise.all([checkout(body, key), checkout(body, key)]);
    const c = await checkout(body, key);
    const answers = await Promise.all([a, b, c].map((r) => r.json() as Promise<{ orderId: string }>));
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(new Set(answers.map((x) => x.orderId)).size).toBe(1);
    expect(c.headers.get('idempotent-replayed')).toBe('true');
    expect(sandboxCharges()).toBe(before + 1);
    expect(await q(`select 1 from orders where items @> $1::jsonb`, [JSON.stringify([{ productId: product.id }])])).toHaveLength(1);
    expect(await q('select 1 from payment_transactions where order_id = $1', [answers[0]!.orderId])).toHaveLength(1);
    expect(await inventoryOf(product.id)).toBe(9);
  });

  it('takes the same body with its keys in another order as the same request (canonical fingerprint)', async () => {
    const product = await makeProduct(5);
    const body = await checkoutBody([{ product, quantity: 1 }]);
    const key = randomUUID();
    const first = await checkout(body, key);
    expect(first.status).toBe(200);
    const reordered = reverseKeys(body);
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
    const retry = await checkout(reordered, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(await first.json());
    expect(await inventoryOf(product.id)).toBe(4);
  });

  it('replays a refusal too, and refuses the same key with a different body', async () => {
    const product = await makeProduct(5);
    const key = randomUUID();
    const declined = await checkoutBody([{ product, quantity: 1 }], { zip: '46282' });
    expect((await checkout(declined, key)).status).toBe(402);
    expect((await checkout(declined, key)).status).toBe(402);
    const other = await checkoutBody([{ product, quantity: 2 }]);
    const res = await checkout(other, key);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message: 'This Idempotency-Key was already used for a different checkout. Start a new checkout attempt with a new key.', code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('requires an Idempotency-Key header', async () => {
    const product = await makeProduct(5);
    const body = await checkoutBody([{ product, quantity: 1 }]);
    const res = await checkout(body, null);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'An Idempotency-Key header is required: send one unique key per checkout attempt.', code: 'IDEMPOTENCY_KEY_MISSING' });
    expect((await checkout(body, 'short')).status).toBe(400);
  });

  it('sells the last unit to exactly one of two shoppers racing for it', async () => {
    const product = await makeProduct(1);
    const [one, two] = await Promise.all([checkoutBody([{ product, quantity: 1 }]), checkoutBody([{ product, quantity: 1 }])]);
    const results = await Promise.all([checkout(one), checkout(two)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(await loser.json()).toMatchObject({ message: `"${product.name}" is out of stock. Please remove it from your cart and try again.` });
    expect(await inventoryOf(product.id)).toBe(0);
  });

  it('never oversells under a crowd of shoppers (more than the connection pool)', async () => {
    const product = await makeProduct(5);
    const bodies = await Promise.all(Array.from({ length: 25 }, () => checkoutBody([{ product, quantity: 1 }])));
    const responses = await Promise.all(bodies.map((b) => checkout(b)));
    const statuses = responses.map((r) => r.status);
    const odd = await Promise.all(responses.filter((r) => r.status !== 200 && r.status !== 409).map((r) => r.text()));
    expect(odd).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20);
    expect(await inventoryOf(product.id)).toBe(0);
  });

  it('stops a connection that keeps getting payments declined (card testing)', async () => {
    // A key prefix of its own: the counter is per client address, and every test here is 127.0.0.1.
    const guarded = await startTestApi({ PAYMENT_FAILURES_PER_15_MIN: '2', QUEUE_PREFIX: `guard${randomUUID().slice(0, 8)}` });
    try {
      const product = await makeProduct(10);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await guarded.request('/api/payments/checkout-nonce', {
          body: await checkoutBody([{ product, quantity: 1 }], { zip: '46282' }),
          headers: { 'Idempotency-Key': randomUUID() },
        });
        statuses.push(res.status);
        if (res.status === 429) expect(await res.json()).toEqual({ message: 'Too many declined payments from this connection. Please try again in 15 minutes or contact support.', code: 'RATE_LIMITED' });
      }
      expect(statuses).toEqual([402, 402, 429]);
      expect(await inventoryOf(product.id)).toBe(10);
    } finally {
      await guarded.close();
    }
  });

  it('charges nothing and keeps no stock when the sandbox cannot reach Redis', async () => {
    const broken = await startTestApi({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const product = await makeProduct(4);
      const res = await broken.request('/api/payments/checkout-nonce', { body: await checkoutBody([{ product, quantity: 1 }]), headers: { 'Idempotency-Key': randomUUID() } });
      expect(res.status).toBe(402);
      expect(await res.json()).toMatchObject({ responseMessage: 'The payment service could not be reached. You have not been charged. Please try again.' });
      expect(await inventoryOf(product.id)).toBe(4);
    } finally {
      await broken.close();
    }
  });

  it('refuses an empty cart', async () => {
    const product = await makeProduct(5);
    const body = await checkoutBody([{ product, quantity: 1 }]);
    body.orderData.items = [];
    const res = await checkout(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'Your cart is empty' });
  });

  describe('bad input gives the form rule messages', () => {
    const cases: Array<[string, (b: Record<string, unknown>) => void, string]> = [
      ['firstName missing', (b) => delete b.firstName, 'First name is required'],
      ['firstName blank', (b) => (b.firstName = '  '), 'First name is required'],
      ['lastName blank', (b) => (b.lastName = ''), 'Last name is required'],
      ['email invalid', (b) => (b.email = 'not-an-email'), 'Valid email is required'],
      ['address blank', (b) => (b.address = ''), 'Address is required'],
      ['city blank', (b) => (b.city = ''), 'City is required'],
      ['state too short', (b) => (b.state = 'I'), 'State is required'],
      ['state too long', (b) => (b.state = 'ILL'), 'Use 2-letter state code'],
      ['zip too short', (b) => (b.zip = '1234'), 'ZIP code is required'],
      ['amount malformed', (b) => (b.amount = '12.3'), 'Amount must be an amount such as "12.99"'],
      ['dataValue missing', (b) => delete b.dataValue, 'Payment details are missing: dataValue'],
      ['dataDescriptor missing', (b) => delete b.dataDescriptor, 'Payment details are missing: dataDescriptor'],
      ['item quantity zero', (b) => ((b.orderData as { items: Array<{ quantity: number }> }).items[0]!.quantity = 0), 'Each item needs a quantity of at least 1'],
      ['item productId missing', (b) => delete (b.orderData as { items: Array<{ productId?: number }> }).items[0]!.productId, 'Each item needs a productId'],
      ['shipping state too long', (b) => ((b.orderData as { shippingAddress: { state: string } }).shippingAddress.state = 'Illinois'), 'Use 2-letter state code'],
      ['total malformed', (b) => ((b.orderData as { total: string }).total = 'free'), 'Total must be an amount such as "12.99"'],
    ];
    it.each(cases)('%s', async (_name, mutate, message) => {
      const product = await makeProduct(5);
      const body = structuredClone(await checkoutBody([{ product, quantity: 1 }])) as unknown as Record<string, unknown>;
      mutate(body);
      const res = await checkout(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(message);
      expect(await inventoryOf(product.id)).toBe(5);
    });
  });
});

describe("the guest's confirmation page (issue 22)", () => {
  it('lets the browser that paid read its order afterwards (a reload shows it again); another browser is refused', async () => {
    const product = await makeProduct(5);
    const sessionsBefore = await q<{ n: number }>('select count(*)::int as n from sessions');
    const res = await checkout(await checkoutBody([{ product, quantity: 2 }]));
    expect(res.status).toBe(200);
    const { orderId } = (await res.json()) as { orderId: string };
    const setCookies = res.headers.getSetCookie();
    const granted = setCookies.find((c) => c.startsWith('nh.go='));
    expect(granted).toMatch(/; Max-Age=3600; Path=\/api; HttpOnly; SameSite=Lax/);
    // The grant is the cookie's (signed), not a session row: a guest's checkout writes no session.
    expect(setCookies.some((c) => c.startsWith('nh.sid='))).toBe(false);
    expect(await q<{ n: number }>('select count(*)::int as n from sessions')).toEqual(sessionsBefore);
    const cookie = granted!.split(';')[0]!;
    for (let reload = 0; reload < 2; reload++) {
      const order = await api.request(`/api/orders/guest/${orderId}`, { headers: { cookie } });
      expect(order.status).toBe(200);
      expect(await order.json()).toMatchObject({ id: orderId, items: [expect.objectContaining({ quantity: 2 })] });
    }
    expect((await api.request(`/api/orders/guest/${orderId}`)).status).toBe(403);

    // The browser cannot grant itself another order, nor a longer hour: the signature covers both.
    const other = await checkout(await checkoutBody([{ product, quantity: 1 }]));
    const { orderId: otherId } = (await other.json()) as { orderId: string };
    const [payload, tag] = cookie.slice('nh.go='.length).split('.');
    const [, until] = payload!.split(':');
    // The last: a tag of the right length holding a byte above 0x7f (Node reads the header as latin1).
    const wideTag = `${tag!.slice(0, -1)}\u00e9`;
    for (const forged of [`${otherId}:${until}.${tag}`, `${orderId}:${Number(until) + 3_600_000}.${tag}`, `${orderId}:${until}|${otherId}:${until}.${tag}`, `${otherId}:${until}.${wideTag}`]) {
      const res = await api.request(`/api/orders/guest/${otherId}`, { headers: { cookie: `nh.go=${forged}` } });
      expect(res.status, forged).toBe(403);
    }
  });

  it('keeps each browser its newest grants, and signing out ends them', async () => {
    const product = await makeProduct(20);
    let cookie = '';
    const orderIds: string[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await api.request('/api/payments/checkout-nonce', {
        body: await checkoutBody([{ product, quantity: 1 }]),
        headers: { 'Idempotency-Key': randomUUID(), ...(cookie ? { cookie } : {}) },
      });
      orderIds.push(((await res.json()) as { orderId: string }).orderId);
      cookie = res.headers.getSetCookie().find((c) => c.startsWith('nh.go='))!.split(';')[0]!;
    }
    const status = async (id: string, c = cookie) => (await api.request(`/api/orders/guest/${id}`, { headers: { cookie: c } })).status;
    // Ten are kept: the oldest of eleven has gone.
    expect(await status(orderIds[0]!)).toBe(403);
    for (const id of orderIds.slice(1)) expect(await status(id)).toBe(200);

    const out = await fetch(`${api.url}/api/logout`, { method: 'POST', redirect: 'manual', headers: { cookie } });
    expect(out.status).toBe(303);
    expect(out.headers.getSetCookie().find((c) => c.startsWith('nh.go='))).toMatch(/^nh\.go=; Path=\/api; Expires=Thu, 01 Jan 1970/);
  });
});
