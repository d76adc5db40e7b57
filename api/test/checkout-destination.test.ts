/**
 * Issue 25 at checkout: priced for where the parcel goes. A tiny rate table of the test's own (a
 * table calculator handed to the test API) stands in for TAX_MODE=table: Oregon taxes nothing, two
 * California ZIP codes tax differently. The summary's quote (POST /api/checkout/quote) answers the
 * figures Place order charges; a stale total after a change of ZIP is refused; express is priced and
 * stored; an address the shop does not ship to is refused with the rule's message and nothing written.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, percentOf, priceCart, SHIPPING_MESSAGES, shippingZoneOf, toCents } from '@nh/shared';
import type { CheckoutNonceRequest, CheckoutQuote, CheckoutQuoteRequest } from '@nh/shared/contracts/checkout';
import { priceRenewalWithTax } from '@nh/server/tax/renewal';
import { inlineTaxTable } from '@nh/server/testing/tax-table';
import { subscriptionTermsText } from '@nh/shared/contracts/subscription-terms';
import { subscribeNonceResponseSchema } from '@nh/shared/contracts/subscriptions';
import { signUpShopper } from './support/shopper';
import { startTestApi, type TestApi } from './support/harness';

/** Rates by state, or by state and ZIP code, under the table's own rules. */
const tableTax = inlineTaxTable({ OR: '0', 'CA:90001': '0.095', 'CA:94105': '0.0863', CA: '0.0725', IL: '0.0625' });

let api: TestApi;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi({}, { services: { tax: tableTax } });
});
afterAll(() => api.close());

async function makeProduct(price: number, inventory = 50): Promise<{ id: number; price: number }> {
  const name = `Destination Test ${randomUUID().slice(0, 8)}`;
  const [row] = await q<{ id: number }>(
    `insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, $4, 'active', $5) returning id`,
    [name, name.toLowerCase().replace(/\s+/g, '-'), centsToDecimal(price), inventory, `D-${name.slice(-8)}`],
  );
  return { id: row!.id, price };
}

interface Line {
  product: { id: number; price: number };
  quantity: number;
}

async function quote(lines: Line[], options: Omit<CheckoutQuoteRequest, 'items'> = {}): Promise<{ status: number; body: CheckoutQuote & { code?: string; message?: string } }> {
  const res = await api.request('/api/checkout/quote', { body: { items: lines.map((l) => ({ productId: l.product.id, quantity: l.quantity })), ...options } });
  return { status: res.status, body: (await res.json()) as CheckoutQuote & { code?: string } };
}

async function tokenize() {
  const res = await api.request('/api/payments/sandbox/tokenize', {
    body: { authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' }, cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345' } },
  });
  return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
}

/** A checkout of `lines` shipped to state/zip, showing the figures of `shown` (a quote). */
async function checkoutBody(lines: Line[], to: { state: string; zip: string }, shown: Pick<CheckoutQuote, 'subtotal' | 'shipping' | 'tax' | 'total'>, shippingMethod?: 'standard' | 'express'): Promise<CheckoutNonceRequest> {
  const token = await tokenize();
  const address = { address: '1 Main St', city: 'Springfield', ...to };
  return {
    amount: shown.total,
    ...token,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    ...address,
    orderData: {
      items: lines.map((l) => ({ productId: l.product.id, variantSku: null, quantity: l.quantity, price: centsToDecimal(l.product.price) })),
      subtotal: shown.subtotal,
      shipping: shown.shipping,
      tax: shown.tax,
      total: shown.total,
      promoCode: null,
      shippingAddress: address,
      billingAddress: address,
      ...(shippingMethod ? { shippingMethod } : {}),
    },
  };
}

/** Orders holding `product` (other test files write orders to the same database meanwhile). */
const ordersWith = async (product: { id: number }) =>
  Number((await q<{ n: string }>(`select count(*) n from orders where items @> $1::jsonb`, [JSON.stringify([{ productId: product.id }])]))[0]!.n);

const checkout = (body: unknown) => api.request('/api/payments/checkout-nonce', { body, headers: { 'Idempotency-Key': randomUUID() } });

const orderOf = async (orderId: string) =>
  (await q<{ items: Array<{ tax?: string }>; subtotal: string; shipping: string; tax: string; total: string; shipping_method: string; shipping_tax: string; tax_source: string | null }>(
    'select items, subtotal, shipping, tax, total, shipping_method, shipping_tax, tax_source from orders where id = $1',
    [orderId],
  ))[0]!;

describe('POST /api/checkout/quote and checkout by destination', () => {
  it('an Oregon address pays no tax; the quote is what the order charges and stores', async () => {
    const product = await makeProduct(2000);
    const lines = [{ product, quantity: 2 }];
    const { status, body: shown } = await quote(lines, { state: 'OR', zip: '97201' });
    expect(status).toBe(200);
    expect(shown).toMatchObject({ subtotal: '40.00', shipping: '9.99', tax: '0.00', total: '49.99', taxSource: 'table', refusal: null });
    expect(shown.delivery).toMatchObject({ zone: 'contiguous', zoneName: 'Contiguous US', method: 'standard', promise: '5-7 business days', free: false });
    expect(shown.options?.express).toMatchObject({ price: '9.99', promise: '2-3 business days' });
    expect(shown.freeShippingNote).toBe('Free shipping on orders over $50.00 and on Subscribe & Save.');

    const res = await checkout(await checkoutBody(lines, { state: 'OR', zip: '97201' }, shown));
    expect(res.status).toBe(200);
    const order = await orderOf(((await res.json()) as { orderId: string }).orderId);
    expect(order).toMatchObject({ subtotal: '40.00', shipping: '9.99', tax: '0.00', total: '49.99', shipping_method: 'standard', shipping_tax: '0.00', tax_source: 'table' });
    expect(order.items.map((i) => i.tax)).toEqual(['0.00']);
  });

  it('a change of ZIP changes the total, and the stale total is refused before anything is written', async () => {
    const product = await makeProduct(3000);
    const lines = [{ product, quantity: 1 }];
    const la = (await quote(lines, { state: 'CA', zip: '90001' })).body;
    const sf = (await quote(lines, { state: 'CA', zip: '94105' })).body;
    expect(la.tax).toBe('2.85');
    expect(sf.tax).toBe('2.59');
    expect(la.total).not.toBe(sf.total);

    const orders = await ordersWith(product);
    const charges = api.payments.sandbox!.charges.length;
    // The browser still shows Los Angeles' figures while the address says San Francisco.
    const stale = await checkout(await checkoutBody(lines, { state: 'CA', zip: '94105' }, la));
    expect(stale.status).toBe(409);
    const refusal = (await stale.json()) as { code: string; message: string; expected: { total: string; tax: string } };
    expect(refusal.code).toBe('CHECKOUT_TOTAL_CHANGED');
    expect(refusal.expected).toMatchObject({ tax: sf.tax, total: sf.total });
    expect(refusal.message).toContain(`$${sf.total}`);
    expect(await ordersWith(product)).toBe(orders);
    expect(api.payments.sandbox!.charges.length).toBe(charges);

    const fresh = await checkout(await checkoutBody(lines, { state: 'CA', zip: '94105' }, sf));
    expect(fresh.status).toBe(200);
    expect((await orderOf(((await fresh.json()) as { orderId: string }).orderId)).total).toBe(sf.total);
  });

  it('express adds its price (never free) and is stored; Hawaii has its own prices and promises', async () => {
    const product = await makeProduct(6000);
    const lines = [{ product, quantity: 1 }];
    const standard = (await quote(lines, { state: 'IL', zip: '60601' })).body;
    expect(standard).toMatchObject({ shipping: '0.00', delivery: { method: 'standard', free: true } });
    const express = (await quote(lines, { state: 'IL', zip: '60601', shippingMethod: 'express' })).body;
    expect(express).toMatchObject({ shipping: '9.99', delivery: { method: 'express', promise: '2-3 business days', free: false } });
    expect(toCents(express.total) - toCents(standard.total)).toBe(999);

    const res = await checkout(await checkoutBody(lines, { state: 'IL', zip: '60601' }, express, 'express'));
    expect(res.status).toBe(200);
    const order = await orderOf(((await res.json()) as { orderId: string }).orderId);
    expect(order).toMatchObject({ shipping: '9.99', shipping_method: 'express', total: express.total });

    const hawaii = (await quote(lines, { state: 'HI', zip: '96813', shippingMethod: 'express' })).body;
    const zone = shippingZoneOf('HI')!;
    expect(hawaii).toMatchObject({ shipping: centsToDecimal(zone.express!.rate), delivery: { zoneName: 'Alaska and Hawaii', promise: zone.express!.promise } });
  });

  it('express where the zone has none is refused, naming the shipping method', async () => {
    const product = await makeProduct(1000);
    const lines = [{ product, quantity: 1 }];
    const pr = (await quote(lines, { state: 'PR', zip: '00901', shippingMethod: 'express' })).body;
    const message = SHIPPING_MESSAGES.expressUnavailable(shippingZoneOf('PR')!);
    expect(pr.refusal).toEqual({ message, field: 'shippingMethod' });
    expect(pr.options).toMatchObject({ express: null });
    const standard = (await quote(lines, { state: 'PR', zip: '00901' })).body;
    const res = await checkout(await checkoutBody(lines, { state: 'PR', zip: '00901' }, standard, 'express'));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'SHIPPING_UNAVAILABLE', message, fields: { shippingMethod: message } });
  });

  it('an address the shop does not ship to is refused with the message, and nothing is written', async () => {
    const product = await makeProduct(1000, 5);
    const lines = [{ product, quantity: 1 }];
    const message = SHIPPING_MESSAGES.notShipped(shippingZoneOf('AS')!);
    const asQuote = (await quote(lines, { state: 'AS', zip: '96799' })).body;
    expect(asQuote).toMatchObject({ refusal: { message, field: 'state' }, delivery: null, options: null });

    const orders = await ordersWith(product);
    const charges = api.payments.sandbox!.charges.length;
    const res = await checkout(await checkoutBody(lines, { state: 'AS', zip: '96799' }, asQuote));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'SHIPPING_UNAVAILABLE', message, fields: { state: message } });
    expect(await ordersWith(product)).toBe(orders);
    expect(api.payments.sandbox!.charges.length).toBe(charges);
    expect((await q<{ inventory: number }>('select inventory from products where id = $1', [product.id]))[0]!.inventory).toBe(5);

    const unknown = (await quote(lines, { state: 'ZZ', zip: '00000' })).body;
    expect(unknown.refusal).toEqual({ message: SHIPPING_MESSAGES.unknownState, field: 'state' });
  });

  it('each line keeps its tax, and the lines sum to the order tax', async () => {
    const a = await makeProduct(1999);
    const b = await makeProduct(733);
    const lines = [{ product: a, quantity: 3 }, { product: b, quantity: 1 }];
    const shown = (await quote(lines, { state: 'CA', zip: '90001' })).body;
    expect(shown.lineTaxes).toHaveLength(2);
    expect(shown.lineTaxes.reduce((s, t) => s + toCents(t), 0)).toBe(toCents(shown.tax));
    const res = await checkout(await checkoutBody(lines, { state: 'CA', zip: '90001' }, shown));
    expect(res.status).toBe(200);
    const order = await orderOf(((await res.json()) as { orderId: string }).orderId);
    expect(order.items.map((i) => i.tax)).toEqual(shown.lineTaxes);
    expect(order.items.reduce((s, i) => s + toCents(i.tax!), 0)).toBe(toCents(order.tax));
  });

  it('refuses a shipping method it does not know, and prices a plan standard and free with its renewal', async () => {
    const product = await makeProduct(2000);
    const bad = await api.request('/api/checkout/quote', { body: { items: [{ productId: product.id, quantity: 1 }], shippingMethod: 'overnight' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('Choose standard or express shipping.');

    const plan = (await quote([{ product, quantity: 2 }], { state: 'CA', zip: '90001', subscribe: true, shippingMethod: 'express' })).body;
    // 40.00 − 15% = 34.00, free standard shipping, 9.5% tax = 3.23.
    expect(plan).toMatchObject({ subtotal: '40.00', discount: '6.00', shipping: '0.00', tax: '3.23', total: '37.23', renewalTotal: '37.23', delivery: { method: 'standard', free: true } });
    expect(plan.options?.express).toBeNull();
    expect(plan.freeShippingNote).toBeNull();
  });

  it('an unknown promo code is priced without it, with the message', async () => {
    const product = await makeProduct(2000);
    const shown = (await quote([{ product, quantity: 1 }], { state: 'OR', promoCode: 'NO-SUCH-CODE' })).body;
    expect(shown).toMatchObject({ discount: '0.00', discounts: [], promoMessage: 'This promo code is invalid or expired', total: '29.99' });
  });

  it("a plan subscribed to in Oregon keeps its pre-tax price: the terms show today's figure for the address, every renewal taxes that price for the address of the day", async () => {
    const product = await makeProduct(1200);
    const lines = [{ product, quantity: 2 }];
    const shown = (await quote(lines, { state: 'OR', zip: '97201', subscribe: true })).body;
    expect(shown.tax).toBe('0.00');
    expect(shown.renewalTotal).toBe('20.40'); // 24.00 less 15 %, no tax in Oregon, free shipping
    const shopper = await signUpShopper(api, 'destination-plan');
    const address = { address: '1 Main St', city: 'Portland', state: 'OR', zip: '97201' };
    const res = await shopper.call('/api/payments/subscribe-nonce', {
      body: {
        amount: shown.total,
        ...(await tokenize()),
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        ...address,
        interval: 'monthly',
        items: [{ productId: product.id, variantSku: null, quantity: 2, price: centsToDecimal(1200) }],
        shippingAddress: address,
      },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { subscriptionId, orderId } = subscribeNonceResponseSchema.parse(await res.json());
    expect((await orderOf(orderId)).tax).toBe('0.00');
    const [plan] = await q<{ amount: string; items: Array<{ productId: number; price: string; quantity: number }> }>('select amount::text, items from subscriptions where id = $1', [subscriptionId]);
    const [consent] = await q<{ terms_text: string }>('select terms_text from subscription_consents where subscription_id = $1', [subscriptionId]);
    // The shopper agreed to what the summary showed them (Oregon: no tax) ...
    expect(consent!.terms_text).toBe(subscriptionTermsText({ renewalAmount: 2040, interval: 'monthly', intervalCount: 1 }));
    // ... and the plan keeps the pre-tax price as every plan stores it (grossed up with the flat 8 %), so a
    // renewal holds 20.40 before tax wherever the plan then ships.
    const flatBasis = priceCart([{ price: 1200, quantity: 2 }], { subscribe: true }).total;
    expect(toCents(plan!.amount)).toBe(flatBasis);
    const inOregon = await priceRenewalWithTax(tableTax, { items: plan!.items, agreed: flatBasis, shippingAddress: { state: 'OR', zip: '97201' } });
    expect(inOregon.total).toBe(2040);
    const movedToIllinois = await priceRenewalWithTax(tableTax, { items: plan!.items, agreed: flatBasis, shippingAddress: { state: 'IL', zip: '60601' } });
    expect(movedToIllinois).toMatchObject({ discountedSubtotal: 2040, tax: percentOf(2040, 625), total: 2040 + percentOf(2040, 625) });
  });
});
