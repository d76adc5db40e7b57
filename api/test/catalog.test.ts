import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  blogPostSchema,
  blogPostSummarySchema,
  categorySchema,
  impactStatsSchema,
  ingredientSchema,
  productSchema,
  storefrontProductSchema,
  type Product,
} from '@nh/shared/contracts/catalog';
import { reviewSchema } from '@nh/shared/contracts/reviews';
import * as tables from '@nh/server/db/schema';
import { invalidateCatalogCache } from '../src/modules/catalog';
import { startTestApi, type TestApi } from './support/harness';
import { rawRequest } from './support/raw-request';
import * as demo from '@nh/server/seed/data';
import { signInAs } from './support/staff';

const demoCategories = new Set(demo.categories.map((c) => c.slug));
const demoPosts = new Set(demo.blogPosts.map((p) => p.slug));

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const json = async <T>(res: Response, schema: z.ZodType<T>): Promise<T> => schema.parse(await res.json());

/** Counts the SQL statements the app sends through its pool while `fn` runs. */
async function countQueries(target: TestApi, fn: () => Promise<unknown>): Promise<number> {
  const pool = target.ctx.db.$client;
  const original = pool.query;
  let n = 0;
  pool.query = function (this: typeof pool, ...args: unknown[]) {
    n += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pool.query;
  try {
    await fn();
  } finally {
    pool.query = original;
  }
  return n;
}

describe('GET /api/categories', () => {
  it('lists the demo categories with id, name, slug, description and image', async () => {
    const res = await api.request('/api/categories');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const categories = await json(res, z.array(categorySchema));
    // The demo's, in their order (other test files of this project add categories of their own meanwhile).
    const demoOnes = categories.filter((c) => demoCategories.has(c.slug));
    expect(demoOnes.map((c) => c.slug)).toEqual(['kitchen', 'bathroom', 'laundry', 'multi-surface', 'starter-kits']);
    expect(demoOnes[0]).toMatchObject({ name: 'Kitchen', image: 'category-kitchen.svg' });
    expect(demoOnes[0]!.description).toBeTruthy();
  });

  it('answers one category by slug', async () => {
    const res = await api.request('/api/categories/multi-surface');
    expect(res.status).toBe(200);
    expect(await json(res, categorySchema)).toMatchObject({ name: 'Multi-Surface', slug: 'multi-surface' });
  });

  it('answers an unknown category with 404 and a message', async () => {
    for (const slug of ['no-such-category', 'Not%20A%20Slug']) {
      const res = await api.request(`/api/categories/${slug}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Category not found', code: 'NOT_FOUND' });
    }
  });
});

describe('GET /api/products', () => {
  let products: Product[];
  beforeAll(async () => {
    const res = await api.request('/api/products');
    expect(res.status).toBe(200);
    products = await json(res, z.array(productSchema));
  });

  it('lists every public product with its category, sorted by name', async () => {
    expect(products.length).toBeGreaterThanOrEqual(14);
    const names = products.map((p) => p.name);
    // Case-blind by code point, as the server orders them on any database collation.
    const key = (name: string) => name.toLowerCase();
    const byName = (a: string, b: string) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a < b ? -1 : a > b ? 1 : 0);
    expect(names).toEqual([...names].sort(byName));
    for (const p of products) {
      expect(p.category?.id ?? null).toBe(p.categoryId);
      expect(['active', 'out_of_stock']).toContain(p.status);
    }
  });

  it('shows prices as two-decimal strings and variants with sku, label and price', async () => {
    const surfy = products.find((p) => p.slug === 'surfy-probiotic-all-purpose-cleaner')!;
    expect(surfy.price).toMatch(/^\d+\.\d{2}$/);
    expect(surfy.variants.length).toBeGreaterThan(1);
    for (const v of surfy.variants)
      expect(v).toEqual({ sku: expect.any(String), label: expect.any(String), price: expect.stringMatching(/^\d+\.\d{2}$/) });
    expect(surfy.category).toEqual({ id: expect.any(Number), name: 'Multi-Surface', slug: 'multi-surface' });
  });

  it('lists an out-of-stock product (the page shows "Out of Stock") with inventory 0', async () => {
    const trashy = products.find((p) => p.slug === 'trashy-garbage-can-deodorizer');
    expect(trashy).toMatchObject({ status: 'out_of_stock', inventory: 0 });
  });

  it('lets the browser resolve every starter kit content from the same list', async () => {
    // The demo kits (other test files of this project may add kits of their own to the shared database).
    const kits = products.filter((p) => p.isStarterKit && p.slug.endsWith('-starter-kit'));
    expect(kits.map((k) => k.slug).sort()).toEqual(['complete-starter-kit', 'essential-starter-kit']);
    const slugs = new Set(products.map((p) => p.slug));
    for (const kit of kits) for (const slug of kit.kitContents) expect(slugs).toContain(slug);
  });

  it('hides inactive products from the list and from the product page', async () => {
    const slug = `hidden-test-product-${randomBytes(3).toString('hex')}`;
    await api.ctx.db.insert(tables.products).values({ name: 'Hidden Test Product', slug, price: 999, status: 'inactive' });
    try {
      invalidateCatalogCache(api.ctx);
      const list = await json(await api.request('/api/products'), z.array(productSchema));
      expect(list.map((p) => p.slug)).not.toContain(slug);
      const one = await api.request(`/api/products/${slug}`);
      expect(one.status).toBe(404);
    } finally {
      await api.ctx.db.delete(tables.products).where(eq(tables.products.slug, slug));
    }
  });
});

describe('product ratings in the catalogue (issue 19)', () => {
  const list = async () => json(await api.request('/api/products'), z.array(storefrontProductSchema));
  const review = (productId: number, rating: number) =>
    api.request(`/api/products/${productId}/reviews`, {
      body: { rating, customerName: 'Rita Rater', customerEmail: 'rita@example.com', comment: 'Works well on the counters.' },
    });

  it('answers each product with the average and count of its visible reviews, the same as its page, and none without reviews', async () => {
    // Products of this test's own: other test files of the project change the demo products' reviews
    // meanwhile, through API processes whose caches this one does not share.
    const tag = randomBytes(3).toString('hex');
    const made = await api.ctx.db
      .insert(tables.products)
      .values(
        [5, 0].map((n) => ({
          name: `Rating Test ${n} ${tag}`,
          slug: `rating-test-${n}-${tag}`,
          price: 999,
          status: 'active' as const,
          inventory: 5,
        })),
      )
      .returning();
    try {
      for (const rating of [5, 4, 4]) expect((await review(made[0]!.id, rating)).status).toBe(201);
      invalidateCatalogCache(api.ctx);
      const products = (await list()).filter((p) => p.slug.endsWith(`-${tag}`));
      expect(products).toHaveLength(2);
      for (const product of products) {
        const reviews = reviewSchema.array().parse(await (await api.request(`/api/products/${product.id}/reviews`)).json());
        const sum = reviews.reduce((n, r) => n + r.rating, 0);
        expect(product.rating, product.slug).toEqual(
          reviews.length ? { average: Math.round((sum * 10) / reviews.length) / 10, count: reviews.length } : null,
        );
      }
      const ratingOf = (n: number) => products.find((p) => p.slug === `rating-test-${n}-${tag}`)!.rating;
      expect([ratingOf(5), ratingOf(0)]).toEqual([{ average: 4.3, count: 3 }, null]);
    } finally {
      await api.ctx.db.delete(tables.products).where(
        inArray(
          tables.products.id,
          made.map((p) => p.id),
        ),
      );
      invalidateCatalogCache(api.ctx);
    }
  });

  it('counts a new review at once (the cached list is cleared), and drops one staff hide', async () => {
    const slug = `rated-test-product-${randomBytes(3).toString('hex')}`;
    const [product] = await api.ctx.db
      .insert(tables.products)
      .values({ name: 'Rated Test Product', slug, price: 999, status: 'active', inventory: 5 })
      .returning();
    invalidateCatalogCache(api.ctx);
    try {
      expect((await list()).find((p) => p.slug === slug)!.rating).toBeNull();
      expect(storefrontProductSchema.parse(await (await api.request(`/api/products/${slug}`)).json()).rating).toBeNull();

      expect((await review(product!.id, 5)).status).toBe(201);
      expect((await list()).find((p) => p.slug === slug)!.rating).toEqual({ average: 5, count: 1 });
      expect((await review(product!.id, 4)).status).toBe(201);
      expect((await list()).find((p) => p.slug === slug)!.rating).toEqual({ average: 4.5, count: 2 });
      expect(storefrontProductSchema.parse(await (await api.request(`/api/products/${slug}`)).json()).rating).toEqual({
        average: 4.5,
        count: 2,
      });

      const manager = await signInAs(api, 'manager');
      const [four] = await api.ctx.db
        .select({ id: tables.reviews.id })
        .from(tables.reviews)
        .where(and(eq(tables.reviews.productId, product!.id), eq(tables.reviews.rating, 4)));
      expect((await manager.request(`/api/admin/reviews/${four!.id}/hide`, { method: 'POST' })).status).toBe(200);
      expect((await list()).find((p) => p.slug === slug)!.rating).toEqual({ average: 5, count: 1 });
    } finally {
      await api.ctx.db.delete(tables.products).where(eq(tables.products.slug, slug));
      invalidateCatalogCache(api.ctx);
    }
  });
});

describe('GET /api/products/{slug}', () => {
  it('answers one product with category, variants, images, inventory and kit contents', async () => {
    const res = await api.request('/api/products/essential-starter-kit');
    expect(res.status).toBe(200);
    const kit = await json(res, productSchema);
    expect(kit).toMatchObject({
      slug: 'essential-starter-kit',
      isStarterKit: true,
      price: '34.99',
      compareAtPrice: '38.96',
      category: { slug: 'starter-kits', name: 'Starter Kits' },
      images: ['essential-starter-kit.svg', 'lifestyle-kitchen.svg'],
    });
    expect(kit.kitContents).toContain('surfy-probiotic-all-purpose-cleaner');
    expect(kit.inventory).toBeGreaterThan(0);
  });

  it('answers an unknown product with 404 and a message', async () => {
    for (const slug of ['no-such-product', 'UPPER', '..%2Fetc']) {
      const res = await api.request(`/api/products/${slug}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Product not found', code: 'NOT_FOUND' });
    }
  });
});

describe('GET /api/blog', () => {
  it('lists the published journal posts, newest first, without the unpublished one', async () => {
    const res = await api.request('/api/blog');
    expect(res.status).toBe(200);
    const posts = await json(res, z.array(blogPostSummarySchema));
    // The demo's (other test files of this project publish posts of their own meanwhile).
    const demoOnes = posts.filter((p) => demoPosts.has(p.slug));
    expect(demoOnes.map((p) => p.slug)).toEqual([
      'how-to-read-ewg-ratings-and-ingredient-labels',
      'non-toxic-kitchen-cleaning-routine',
      'how-probiotic-cleaners-work',
    ]);
    expect(demoOnes[0]).toMatchObject({ category: expect.any(String), readTime: expect.any(Number), excerpt: expect.any(String) });
  });

  it('answers one published article with body, FAQs and internal links', async () => {
    const res = await api.request('/api/blog/how-probiotic-cleaners-work');
    expect(res.status).toBe(200);
    const post = await json(res, blogPostSchema);
    expect(post.published).toBe(true);
    expect(post.content).toContain('#');
    expect(post.faqs.length).toBeGreaterThan(0);
    expect(post.internalLinks.length).toBeGreaterThan(0);
  });

  it('answers an unpublished or unknown article with 404 "Article not found"', async () => {
    for (const slug of ['zero-waste-refill-guide', 'no-such-article']) {
      const res = await api.request(`/api/blog/${slug}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Article not found', code: 'NOT_FOUND' });
    }
  });
});

describe('GET /api/impact and /api/ingredients', () => {
  it('answers the impact figures', async () => {
    const res = await api.request('/api/impact');
    expect(res.status).toBe(200);
    const impact = await json(res, impactStatsSchema);
    expect(impact.bottlesSaved).toBeGreaterThan(0);
    expect(impact.chemicalsAvoided).toBeGreaterThan(0);
    expect(impact.homesHelped).toBeGreaterThan(0);
  });

  it('lists ingredients with name, description, ewgRating, function and source; rated first, unrated last', async () => {
    const res = await api.request('/api/ingredients');
    expect(res.status).toBe(200);
    const list = await json(res, z.array(ingredientSchema));
    expect(list.length).toBeGreaterThanOrEqual(12);
    const ratings = list.map((i) => i.ewgRating);
    expect(ratings.at(-1)).toBeNull();
    const rated = ratings.filter((r): r is number => r !== null);
    expect(rated).toEqual([...rated].sort((a, b) => a - b));
    expect(list[0]).toMatchObject({ name: expect.any(String), function: expect.any(String), source: expect.any(String) });
  });
});

describe('ETag and 304', () => {
  const paths = [
    '/api/categories',
    '/api/categories/kitchen',
    '/api/products',
    '/api/products/surfy-probiotic-all-purpose-cleaner',
    '/api/blog',
    '/api/blog/how-probiotic-cleaners-work',
    '/api/impact',
    '/api/ingredients',
  ];

  it.each(paths)('%s carries a strong ETag and answers a matching If-None-Match with 304', async (path) => {
    const first = await api.request(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]+-[A-Za-z0-9+/]{27}(-gz)?"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    await first.arrayBuffer();

    // fetch adds `Cache-Control: no-cache` (a forced reload) to a request with If-None-Match unless the
    // caller sets Cache-Control; a browser revalidating its cached copy sends `max-age=0`.
    const again = await api.request(path, { headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    const stale = await api.request(path, { headers: { 'if-none-match': '"0-stale"', 'cache-control': 'max-age=0' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(etag);
    await stale.arrayBuffer();
  });

  it('serves big answers pre-compressed to gzip clients, with their own ETag, and plain to others', async () => {
    const raw = (headers: Record<string, string>) => rawRequest(`${api.url}/api/products`, { headers });
    const plain = await raw({ 'accept-encoding': 'identity' });
    const zipped = await raw({ 'accept-encoding': 'gzip, deflate, br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zipped.headers.etag).toBe(`${plain.headers.etag!.slice(0, -1)}-gz"`);

    const revalidated = await raw({ 'accept-encoding': 'gzip', 'if-none-match': zipped.headers.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['content-encoding']).toBeUndefined();
    expect((await raw({ 'accept-encoding': 'identity', 'if-none-match': plain.headers.etag! })).status).toBe(304);
    // The plain validator does not match the gzip bytes, and the other way round.
    expect((await raw({ 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag! })).status).toBe(200);
  });

  it('changes the ETag when the data changes', async () => {
    const before = (await api.request('/api/impact')).headers.get('etag');
    const [row] = await api.ctx.db.select().from(tables.impactStats).limit(1);
    await api.ctx.db
      .update(tables.impactStats)
      .set({ homesHelped: row!.homesHelped + 1 })
      .where(eq(tables.impactStats.id, row!.id));
    try {
      invalidateCatalogCache(api.ctx);
      const after = await api.request('/api/impact');
      expect(after.headers.get('etag')).not.toBe(before);
      expect((await json(after, impactStatsSchema)).homesHelped).toBe(row!.homesHelped + 1);
    } finally {
      await api.ctx.db.update(tables.impactStats).set({ homesHelped: row!.homesHelped }).where(eq(tables.impactStats.id, row!.id));
      invalidateCatalogCache(api.ctx);
    }
  });
});

describe('catalogue reads query the database at most once', () => {
  let fresh: TestApi;
  beforeAll(async () => {
    fresh = await startTestApi();
  });
  afterAll(() => fresh.close());

  const paths = [
    '/api/categories',
    '/api/categories/kitchen',
    '/api/products',
    '/api/products/surfy-probiotic-all-purpose-cleaner',
    '/api/blog',
    '/api/blog/how-probiotic-cleaners-work',
    '/api/impact',
    '/api/ingredients',
  ];

  it.each(paths)('%s: one query on a miss, none on a repeat inside the cache time', async (path) => {
    invalidateCatalogCache(fresh.ctx);
    const miss = await countQueries(fresh, async () => expect((await fresh.request(path)).status).toBe(200));
    expect(miss).toBe(1);
    const hit = await countQueries(fresh, async () => expect((await fresh.request(path)).status).toBe(200));
    expect(hit).toBe(0);
  });

  it('shares one query between concurrent requests on a miss', async () => {
    invalidateCatalogCache(fresh.ctx);
    const n = await countQueries(fresh, async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => fresh.request('/api/products')));
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
      await Promise.all(answers.map((r) => r.arrayBuffer()));
    });
    expect(n).toBe(1);
  });

  it('queries again after invalidation and after the cache time', async () => {
    const short = await startTestApi({ CATALOG_CACHE_SECONDS: '0.2' });
    try {
      expect(await countQueries(short, () => short.request('/api/products'))).toBe(1);
      expect(await countQueries(short, () => short.request('/api/products'))).toBe(0);
      invalidateCatalogCache(short.ctx);
      expect(await countQueries(short, () => short.request('/api/products'))).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(await countQueries(short, () => short.request('/api/products'))).toBe(1);
    } finally {
      await short.close();
    }
  });

  it('an unknown slug costs one query and is not cached', async () => {
    expect(await countQueries(fresh, () => fresh.request('/api/products/not-a-product'))).toBe(1);
    expect(await countQueries(fresh, () => fresh.request('/api/products/not-a-product'))).toBe(1);
    expect(await countQueries(fresh, () => fresh.request('/api/products/Not%20A%20Slug'))).toBe(0);
  });
});
