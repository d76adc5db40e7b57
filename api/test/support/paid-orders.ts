/**
 * Orders placed and paid through the real checkout (POST /api/payments/checkout-nonce), for the refund
 * and store credit tests (admin-refunds, admin-refunds-by-line, admin-refund-settlement,
 * admin-customer-credit, store-credit-refunds): a product of the test's own (so stock moves never disturb
 * other files), a card token from the local sandbox's tokeniser (or any token for the Authorize.Net
 * stub), as a guest or a signed-in shopper (whose store credit the checkout spends first), and the
 * captured charge's transaction id (the card pays at least part of each order these tests place).
 * Whether the charge settles is the test's call (`sandbox.settle`).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { centsToDecimal, priceCart, toPayloadStrings } from '@nh/shared';
import type { TestApi } from './harness';

/** A product of the caller's own: `prefix` names it, `skuPrefix` (when given) starts its SKU, `price` in cents. */
export async function makeTestProduct(
  on: TestApi,
  { price, inventory, prefix, skuPrefix }: { price: number; inventory: number; prefix: string; skuPrefix?: string },
): Promise<number> {
  const name = `${prefix} ${randomUUID().slice(0, 8)}`;
  const { rows } = await on.ctx.db.$client.query<{ id: number }>(
    `insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, $4, 'active', $5) returning id`,
    [name, name.toLowerCase().replace(/\s+/g, '-'), centsToDecimal(price), inventory, skuPrefix ? `${skuPrefix}-${name.slice(-8)}` : null],
  );
  return rows[0]!.id;
}

/** Opaque card data: the sandbox's tokeniser (billing ZIP 46282: the sandbox declines), or any token for the Authorize.Net stub. */
export async function cardToken(on: TestApi, zip = '12345'): Promise<{ dataDescriptor: string; dataValue: string }> {
  if (!on.payments.sandbox) return { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: `accept-token-${randomUUID()}` };
  const res = await on.request('/api/payments/sandbox/tokenize', {
    body: {
      authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
      cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip },
    },
  });
  return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
}

export interface PaidOrder {
  id: string;
  /** The charge's cents. */
  total: number;
  shipping: number;
  tax: number;
  /** The approved charge's transaction id. */
  transactionId: string;
  productIds: number[];
  lines: Array<{ price: number; quantity: number }>;
}

/** How the checkout is called: as a guest (`api.request`) or as a signed-in shopper (`shopper.call`). */
export type CheckoutCaller = (path: string, init: { body: unknown; headers: Record<string, string> }) => Promise<Response>;

/**
 * An order of `lines` (unit price cents, quantity) of given products, paid through the real checkout,
 * as a guest or through `via` (a signed-in shopper's calls).
 */
export async function placePaidOrder(
  on: TestApi,
  { lines, productIds, email = 'ada@example.com', via }: { lines: Array<{ price: number; quantity: number }>; productIds: number[]; email?: string; via?: CheckoutCaller },
): Promise<PaidOrder> {
  const pricing = priceCart(lines);
  const res = await (via ?? on.request)('/api/payments/checkout-nonce', {
    headers: { 'Idempotency-Key': randomUUID() },
    body: await checkoutRequest(on, { lines, productIds, email }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { orderId } = (await res.json()) as { orderId: string };
  const { rows } = await on.ctx.db.$client.query<{ authnet_transaction_id: string }>(
    `select authnet_transaction_id from payment_transactions where order_id = $1 and kind = 'charge' and status = 'approved'`,
    [orderId],
  );
  return { id: orderId, total: pricing.total, shipping: pricing.shipping, tax: pricing.tax, transactionId: rows[0]!.authnet_transaction_id, productIds, lines };
}

/** The checkout request the storefront sends for `lines` of `productIds`, with a card token made for it. */
export async function checkoutRequest(
  on: TestApi,
  { lines, productIds, email = 'ada@example.com', zip = '12345' }: { lines: Array<{ price: number; quantity: number }>; productIds: number[]; email?: string; zip?: string },
) {
  const strings = toPayloadStrings(priceCart(lines));
  const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip };
  return {
    amount: strings.total,
    ...(await cardToken(on, zip)),
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    ...address,
    orderData: {
      items: lines.map((l, i) => ({ productId: productIds[i]!, variantSku: null, quantity: l.quantity, price: centsToDecimal(l.price) })),
      ...strings,
      promoCode: null,
      shippingAddress: address,
      billingAddress: address,
    },
  };
}
