import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { count, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import '@nh/server/testing/provided';
import * as tables from '@nh/server/db/schema';
import { createDb, type Db } from '@nh/server/db/client';
import * as data from '@nh/server/seed/data';
import { seedDemoCatalogue } from '@nh/server/seed/seed';
import { applyMigrations, dropDatabase, ensureDatabase } from '@nh/server/runtime/database';
import { demoSeedDecision } from '@nh/server/seed/policy';
import { loadApiConfig } from '../src/lib/config';

/** Counts of every seeded table (whole tables: only for a database nobody else writes to). */
async function tableCounts(db: Db) {
  const n = (table: Parameters<Db['$count']>[0]) => db.$count(table);
  return {
    categories: await n(tables.categories),
    products: await n(tables.products),
    reviews: await n(tables.reviews),
    blogPosts: await n(tables.blogPosts),
    ingredients: await n(tables.ingredients),
    impactStats: await n(tables.impactStats),
    promoCodes: await n(tables.promoCodes),
  };
}

describe('the demo seed is idempotent', () => {
  it('on the shared test database: a second run changes nothing', async () => {
    const db = createDb({ url: inject('databaseUrl'), max: 1 });
    try {
      const slugs = data.products.map((p) => p.slug);
      const before = await db.select({ n: count() }).from(tables.products).where(inArray(tables.products.slug, slugs));
      const result = await seedDemoCatalogue(db);
      expect(result.seeded).toBe(false);
      const after = await db.select({ n: count() }).from(tables.products).where(inArray(tables.products.slug, slugs));
      expect(after).toEqual(before);
      expect(after[0]!.n).toBe(slugs.length);
    } finally {
      await db.$client.end();
    }
  });

  it('on a fresh database: the first run loads everything, the second duplicates nothing', async () => {
    const url = new URL(inject('databaseUrl'));
    url.pathname = `/nh_test_seed_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await ensureDatabase(url.toString());
    const db = createDb({ url: url.toString(), max: 2 });
    try {
      await applyMigrations(url.toString());
      expect(await seedDemoCatalogue(db)).toEqual({ seeded: true, products: data.products.length });
      const first = await tableCounts(db);
      expect(first).toEqual({
        categories: data.categories.length,
        products: data.products.length,
        reviews: data.reviews.length,
        blogPosts: data.blogPosts.length,
        ingredients: data.ingredients.length,
        impactStats: 1,
        promoCodes: data.promoCodes.length,
      });
      const [again1, again2] = await Promise.all([seedDemoCatalogue(db), seedDemoCatalogue(db)]);
      expect(again1.seeded || again2.seeded).toBe(false);
      expect(await tableCounts(db)).toEqual(first);
    } finally {
      await db.$client.end();
      await dropDatabase(url.toString());
    }
  });
});

describe('the demo catalogue holds together', () => {
  let db: Db;
  beforeAll(() => {
    db = createDb({ url: inject('databaseUrl'), max: 1 });
  });
  afterAll(() => db.$client.end());

  const seeded = async () => db.select().from(tables.products).where(inArray(tables.products.slug, data.products.map((p) => p.slug)));

  it('every starter kit lists real product slugs, and both kits exist', async () => {
    const products = await seeded();
    const slugs = new Set(products.map((p) => p.slug));
    const kits = products.filter((p) => p.isStarterKit);
    expect(kits.map((k) => k.slug).sort()).toEqual(['complete-starter-kit', 'essential-starter-kit']);
    for (const kit of kits) {
      expect(kit.kitContents.length).toBeGreaterThan(1);
      for (const slug of kit.kitContents) expect(slugs).toContain(slug);
    }
  });

  it('has exactly one product with no stock, several with size variants, and every flag somewhere', async () => {
    const products = await seeded();
    expect(products.filter((p) => p.inventory === 0).map((p) => p.slug)).toEqual(['trashy-garbage-can-deodorizer']);
    expect(products.filter((p) => p.variants.length > 1).length).toBeGreaterThanOrEqual(3);
    for (const flag of ['isBestseller', 'isRefill', 'isFragranceFree'] as const) expect(products.some((p) => p[flag])).toBe(true);
    for (const p of products) {
      expect(p.price).toBeGreaterThan(0);
      expect(p.categoryId).not.toBeNull();
      expect(p.sku && p.itemNumber && p.upc).toBeTruthy();
    }
  });

  it('has a picture file for every product and category image', async () => {
    const { PUBLIC_DIR } = loadApiConfig({ NODE_ENV: 'test' });
    const products = await seeded();
    const files = [...products.flatMap((p) => p.images), ...data.categories.map((c) => c.image), ...data.blogPosts.map((b) => b.image)];
    for (const file of files) expect(fs.existsSync(path.join(PUBLIC_DIR, file)), file).toBe(true);
  });

  it('has at least twelve ingredients across the EWG bands 1-2, 3-6, 7-10 and one unrated', async () => {
    const rows = await db.select().from(tables.ingredients);
    expect(rows.length).toBeGreaterThanOrEqual(12);
    const ratings = rows.map((r) => r.ewgRating);
    expect(ratings.some((r) => r !== null && r <= 2)).toBe(true);
    expect(ratings.some((r) => r !== null && r >= 3 && r <= 6)).toBe(true);
    expect(ratings.some((r) => r !== null && r >= 7)).toBe(true);
    expect(ratings.filter((r) => r === null).length).toBeGreaterThanOrEqual(1);
  });

  it('has three published journal posts with rich bodies, FAQs and internal links, and one unpublished', async () => {
    const rows = await db.select().from(tables.blogPosts).where(inArray(tables.blogPosts.slug, data.blogPosts.map((b) => b.slug)));
    const published = rows.filter((r) => r.published);
    expect(published).toHaveLength(3);
    expect(rows.filter((r) => !r.published)).toHaveLength(1);
    for (const post of published) {
      expect(post.content).toMatch(/^#{1,3} /m); // headings
      expect(post.faqs.length).toBeGreaterThan(0);
      expect(post.internalLinks.length).toBeGreaterThan(0);
    }
    const all = published.map((p) => p.content).join('\n');
    expect(all).toMatch(/\*\*[^*]+\*\*/); // bold
    expect(all).toMatch(/\[[^\]]+\]\([^)]+\)/); // links
    expect(all).toMatch(/^\s*[-*] /m); // lists
    expect(all).toMatch(/^\|.*\|\s*$/m); // a table
  });

  it('has impact figures and a few reviews', async () => {
    expect(await db.$count(tables.impactStats)).toBeGreaterThanOrEqual(1);
    expect(data.reviews.length).toBeGreaterThanOrEqual(3);
  });
});

describe('the release step never seeds demo data into production', () => {
  it.each([
    [{ NODE_ENV: 'production' }, false],
    [{ NODE_ENV: 'production', SEED_DEMO_DATA: 'true' }, true],
    [{ NODE_ENV: 'development' }, true],
    [{}, true],
    [{ NODE_ENV: 'development', SEED_DEMO_DATA: 'false' }, false],
  ])('%j → seed %s', (env, seed) => {
    expect(demoSeedDecision(env as NodeJS.ProcessEnv).seed).toBe(seed);
  });

  it('the seed script on a fresh production database loads nothing, and says why; with SEED_DEMO_DATA=true it loads the demo', async () => {
    const url = new URL(inject('databaseUrl'));
    url.pathname = `/nh_test_prodseed_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await ensureDatabase(url.toString());
    const db = createDb({ url: url.toString(), max: 1 });
    const seed = (env: Record<string, string>) =>
      promisify(execFile)(path.resolve('node_modules/.bin/tsx'), ['migrations/src/seed.ts'], { env: { ...process.env, DATABASE_URL: url.toString(), ...env } });
    try {
      await applyMigrations(url.toString());
      const { stdout } = await seed({ NODE_ENV: 'production' });
      expect(stdout).toContain('NODE_ENV=production: demo catalogue and promo codes not loaded');
      expect(await tableCounts(db)).toMatchObject({ products: 0, promoCodes: 0, reviews: 0 });
      const demo = await seed({ NODE_ENV: 'production', SEED_DEMO_DATA: 'true' });
      expect(demo.stdout).toContain('demo catalogue loaded');
      expect(await tableCounts(db)).toMatchObject({ products: data.products.length, promoCodes: data.promoCodes.length });
    } finally {
      await db.$client.end();
      await dropDatabase(url.toString());
    }
  });
});
