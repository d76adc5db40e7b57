/**
 * A shopper's card checkout against the test API: a product on sale, a card tokenized by the local
 * sandbox (as Accept.js would), and the checkout request the storefront sends.
 */
import { randomUUID } from 'node:crypto';
import { centsToDecimal } from '@nh/shared';
import type { TestApi } from './harness';
import { cardToken, checkoutRequest } from './paid-orders';

export interface TestProduct {
  id: number;
  slug: string;
  price: number;
}

/** A product on sale with 100_000 in stock (enough for any loop of checkouts). */
export async function makeProduct(target: TestApi, price = 1999): Promise<TestProduct> {
  const name = `Checked Out ${randomUUID().slice(0, 8)}`;
  const slug = name.toLowerCase().replace(/\s+/g, '-');
  const { rows } = await target.ctx.db.$client.query<{ id: number }>(
    `insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, 100000, 'active', $4) returning id`,
    [name, slug, centsToDecimal(price), `C-${name.slice(-8)}`],
  );
  return { id: rows[0]!.id, slug, price };
}

/** The opaque card data the local sandbox gives for a test card (billing ZIP 46282 is declined). */
export const tokenizeCard = cardToken;

/** The checkout request for one of `product`, as the storefront sends it. */
export const checkoutBody = (target: TestApi, product: TestProduct, zip = '12345') =>
  checkoutRequest(target, { lines: [{ price: product.price, quantity: 1 }], productIds: [product.id], zip });

/** Sends a checkout with a key of its own. */
export const checkout = (target: TestApi, body: unknown) =>
  target.request('/api/payments/checkout-nonce', { body, headers: { 'Idempotency-Key': randomUUID() } });
