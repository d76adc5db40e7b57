/**
 * What the claims tests share (claims.test.ts, shopper-claims.test.ts, claim-photos.test.ts): a paid
 * order to claim on, placed through checkout by card as a shopper or a guest, and rows read straight
 * from the database.
 */
import { randomUUID } from 'node:crypto';
import { centsToDecimal, priceCart, toPayloadStrings } from '@nh/shared';
import type { TestApi } from './harness';
import { json, type Shopper } from './shopper';

export interface PlacedOrder {
  orderId: string;
  productId: number;
}

/** The rows a query answers (the test database, no ORM). */
export const rowsOf =
  (api: TestApi) =>
  <T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> =>
    api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

/** Places an order of `quantity` × a new $20.00 refill (2: 43.18 with shipping and tax, see priceCart) paid by card, as the shopper or a guest. */
export async function placeClaimableOrder(api: TestApi, shopper: Shopper | null, quantity = 2): Promise<PlacedOrder> {
  const q = rowsOf(api);
  const name = `Leaky Refill ${randomUUID().slice(0, 8)}`;
  const [product] = await q<{ id: number }>(`insert into products (name, slug, price, inventory, status, sku) values ($1, $2, 20.00, 100, 'active', $3) returning id`, [
    name,
    name.toLowerCase().replace(/\s+/g, '-'),
    `SKU-${randomUUID().slice(0, 8)}`,
  ]);
  const token = await (
    await api.request('/api/payments/sandbox/tokenize', {
      body: {
        authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
        cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345' },
      },
    })
  ).json();
  const strings = toPayloadStrings(priceCart([{ price: 2000, quantity }], { promo: null }));
  const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' };
  const body = {
    amount: strings.total,
    ...(token as { opaqueData: object }).opaqueData,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: shopper?.email ?? `guest-${randomUUID().slice(0, 8)}@example.com`,
    ...address,
    orderData: {
      items: [{ productId: product!.id, variantSku: null, quantity, price: centsToDecimal(2000) }],
      ...strings,
      promoCode: null,
      shippingAddress: address,
      billingAddress: address,
    },
  };
  const res = await (shopper ? shopper.call : api.request)('/api/payments/checkout-nonce', { body, headers: { 'Idempotency-Key': randomUUID() } });
  return { orderId: (await json(res, 200)).orderId as string, productId: product!.id };
}
