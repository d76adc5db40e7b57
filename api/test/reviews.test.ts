import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reviewSchema, type Review } from '@nh/shared/contracts/reviews';
import * as tables from '@nh/server/db/schema';
import type { LineItem } from '@nh/server/db/schema';
import { seededProductId } from '@nh/server/seed/seed';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
let surfyId: number;
let glassyId: number;
beforeAll(async () => {
  api = await startTestApi();
  surfyId = await seededProductId(api.ctx.db, 'surfy-probiotic-all-purpose-cleaner');
  glassyId = await seededProductId(api.ctx.db, 'glassy-streak-free-glass-cleaner');
});
afterAll(() => api.close());

const valid = { rating: 5, customerName: 'Ada Lovelace', customerEmail: 'ada@example.com', title: 'Lovely', comment: 'Cleans the counter beautifully.' };

const post = (productId: number | string, body: unknown) => api.request(`/api/products/${productId}/reviews`, { method: 'POST', body });

/** A real order row placed by `email` containing `productIds`. */
async function placeOrder(email: string, productIds: number[], status: 'pending' | 'cancelled' = 'pending'): Promise<string> {
  const items: LineItem[] = productIds.map((productId) => ({
    productId,
    productName: 'Test item',
    variantSku: null,
    sku: null,
    itemNumber: null,
    quantity: 1,
    price: '12.99',
  }));
  const [order] = await api.ctx.db
    .insert(tables.orders)
    .values({
      customerEmail: email,
      customerName: 'Test Buyer',
      shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
      items,
      subtotal: 1299 * productIds.length,
      shipping: 999,
      tax: 104,
      total: 1299 * productIds.length + 999 + 104,
      status,
    })
    .returning({ id: tables.orders.id });
  return order!.id;
}

describe('GET /api/products/{id}/reviews', () => {
  it('lists a product’s reviews newest first, without the reviewers’ emails', async () => {
    const res = await api.request(`/api/products/${surfyId}/reviews`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>[];
    const reviews = z.array(reviewSchema).parse(body);
    expect(reviews.length).toBeGreaterThan(0);
    for (const r of body) expect(r).not.toHaveProperty('customerEmail');
    const times = reviews.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('answers an empty list for a product without reviews', async () => {
    const [product] = await api.ctx.db
      .insert(tables.products)
      .values({ name: 'Unreviewed', slug: `unreviewed-${randomUUID().slice(0, 8)}`, price: 500 })
      .returning({ id: tables.products.id });
    try {
      const res = await api.request(`/api/products/${product!.id}/reviews`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    } finally {
      await api.ctx.db.delete(tables.products).where(eq(tables.products.id, product!.id));
    }
  });

  it('answers an unknown product id with 404 and a non-numeric id with 400', async () => {
    const missing = await api.request('/api/products/999999/reviews');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Product not found', code: 'NOT_FOUND' });
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const bad = await api.request(`/api/products/${id}/reviews`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ message: 'Product id must be a positive whole number', code: 'VALIDATION_FAILED' });
    }
  });
});

describe('POST /api/products/{id}/reviews', () => {
  it('stores a review (unverified without an order) and lists it first', async () => {
    const res = await post(surfyId, { ...valid, productId: surfyId, comment: 'Newest review in the list, honestly.' });
    expect(res.status).toBe(201);
    const created: Review = reviewSchema.parse(await res.json());
    expect(created).toMatchObject({ productId: surfyId, rating: 5, customerName: 'Ada Lovelace', title: 'Lovely', verified: false });

    const list = z.array(reviewSchema).parse(await (await api.request(`/api/products/${surfyId}/reviews`)).json());
    expect(list[0]!.id).toBe(created.id);
  });

  it('stores an empty title as no title', async () => {
    const res = await post(glassyId, { ...valid, title: '' });
    expect(res.status).toBe(201);
    expect(reviewSchema.parse(await res.json()).title).toBeNull();
  });

  it.each([
    [{ ...valid, rating: undefined }, 'Please select a rating'],
    [{ ...valid, rating: 0 }, 'Please select a rating'],
    [{ ...valid, rating: 6 }, 'Please select a rating'],
    [{ ...valid, rating: 3.5 }, 'Please select a rating'],
    [{ ...valid, rating: 'five' }, 'Please select a rating'],
    [{ ...valid, customerName: '' }, 'Name is required'],
    [{ ...valid, customerName: '   ' }, 'Name is required'],
    [{ ...valid, customerName: undefined }, 'Name is required'],
    [{ ...valid, customerEmail: 'not-an-email' }, 'Valid email is required'],
    [{ ...valid, customerEmail: '' }, 'Valid email is required'],
    [{ ...valid, customerEmail: 'a b@c.de' }, 'Valid email is required'],
    [{ ...valid, comment: 'Too short' }, 'Review must be at least 10 characters'],
    [{ ...valid, comment: undefined }, 'Review must be at least 10 characters'],
    [{ ...valid, comment: 'x'.repeat(5001) }, 'Review must be at most 5000 characters'],
    [{ ...valid, customerName: 'n'.repeat(101) }, 'Name must be at most 100 characters'],
    [{ ...valid, title: 't'.repeat(151) }, 'Title must be at most 150 characters'],
    [{}, 'Please select a rating'],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const res = await post(surfyId, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message });
  });

  it('refuses a body that names another product', async () => {
    const res = await post(surfyId, { ...valid, productId: glassyId });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('The review names a different product than the page it was sent to');
  });

  it('answers an unknown product with 404 and a bad id with 400', async () => {
    const missing = await post(999999, valid);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Product not found', code: 'NOT_FOUND' });
    expect((await post('nope', valid)).status).toBe(400);
  });
});

describe('verified purchase', () => {
  const buyer = 'Buyer.Verified@Example.com';
  let orderId: string;
  beforeAll(async () => {
    orderId = await placeOrder(buyer, [surfyId]);
  });

  const review = async (productId: number, body: Record<string, unknown>) => {
    const res = await post(productId, { ...valid, ...body });
    expect(res.status).toBe(201);
    return reviewSchema.parse(await res.json());
  };

  it('is verified when the order contains the product and was placed with the same email (any case)', async () => {
    const created = await review(surfyId, { customerEmail: 'buyer.verified@example.COM', orderId });
    expect(created.verified).toBe(true);
    const [row] = await api.ctx.db.select().from(tables.reviews).where(eq(tables.reviews.id, created.id));
    expect(row).toMatchObject({ verified: true, orderId });
  });

  it('is unverified with another email', async () => {
    expect((await review(surfyId, { customerEmail: 'someone.else@example.com', orderId })).verified).toBe(false);
  });

  it('is unverified for a product the order does not contain', async () => {
    expect((await review(glassyId, { customerEmail: buyer, orderId })).verified).toBe(false);
  });

  it('is unverified with an unknown or malformed orderId', async () => {
    expect((await review(surfyId, { customerEmail: buyer, orderId: randomUUID() })).verified).toBe(false);
    expect((await review(surfyId, { customerEmail: buyer, orderId: 'not-an-order' })).verified).toBe(false);
    expect((await review(surfyId, { customerEmail: buyer, orderId: null })).verified).toBe(false);
  });

  it('is unverified for a cancelled order', async () => {
    const cancelled = await placeOrder(buyer, [glassyId], 'cancelled');
    expect((await review(glassyId, { customerEmail: buyer, orderId: cancelled })).verified).toBe(false);
  });

  it('is verified for one product of a multi-product order', async () => {
    const both = await placeOrder('two.things@example.com', [glassyId, surfyId]);
    expect((await review(glassyId, { customerEmail: 'two.things@example.com', orderId: both })).verified).toBe(true);
  });

  it('ignores a `verified` flag sent by the browser', async () => {
    expect((await review(surfyId, { verified: true })).verified).toBe(false);
  });
});

describe('review spam limit', () => {
  it('stores at most 20 reviews per hour from one address; refused forms do not count', async () => {
    const limited = await startTestApi();
    try {
      const send = (body: unknown) => limited.request(`/api/products/${glassyId}/reviews`, { method: 'POST', body });
      for (let i = 0; i < 5; i += 1) expect((await send({ ...valid, comment: 'short' })).status).toBe(400);
      for (let i = 0; i < 20; i += 1) expect((await send({ ...valid, comment: `Review number ${i} of the batch.` })).status).toBe(201);
      const res = await send(valid);
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ message: 'Too many reviews from this address. Please try again later.', code: 'RATE_LIMITED' });
    } finally {
      await limited.close();
    }
  });
});
