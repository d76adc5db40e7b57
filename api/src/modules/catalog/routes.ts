import { Router, type Request, type Response } from 'express';
import type { Db } from '@nh/server/db/client';
import { CATALOG_MESSAGES } from '@nh/shared/contracts/catalog';
import * as catalogQueries from '@nh/server/queries/catalog';
import type { AppContext } from '../../lib/context';
import type { Reads } from '../../lib/read-your-writes';
import { sendJsonEntry, toJsonEntry } from '../../lib/json-cache';
import { AppError } from '../../lib/errors';
import { catalogCache } from './cache';
import { toBlogPost, toBlogPostSummary, toCategory, toImpactStats, toIngredient, toStorefrontProduct } from './serialize';

/** An answer sent once, not kept (a read from the primary for a person who has just changed something). */
const uncached = (value: unknown) => (value === undefined ? undefined : toJsonEntry(value, 0));

/** Slugs are short kebab-case words; anything else cannot exist, so it is a 404 without a query. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,199}$/;

/**
 * Public catalogue reads. Each answer is built by one query, serialised once and kept in the
 * in-process cache for CATALOG_CACHE_SECONDS; every answer carries a strong ETag (304 on a match).
 * Products carry their rating (visible reviews), so a new, hidden, shown or deleted review clears the
 * cache (`invalidateCatalogCache`) as a product write does.
 *
 * Reads go to `reads` (DATABASE_READ_URL's replica when set). A person who has just changed something
 * (lib/read-your-writes.ts) reads the primary and past the cache, which may hold what the replica
 * said a moment before their change.
 *
 * The routes go on `router` (a new one by default) under `prefix`: the app puts them on its own router
 * as `/api/products`, …, since a mounted router is a second routing pass on every request, a cost the
 * shop's hottest path need not pay (issue 26).
 */
export function catalogRoutes(
  ctx: AppContext,
  { reads, router = Router(), prefix = '' }: { reads: Reads; router?: Router; prefix?: string },
): Router {
  const cache = catalogCache(ctx);

  /**
   * GET path → cached answer of `load`; `load` answering undefined is a 404 with `missing`. A live
   * entry is sent synchronously (no promise per request); a miss or a fresh read goes the async way.
   */
  const cached = (path: string, key: (req: Request) => string, load: (req: Request, db: Db) => Promise<unknown>, missing: string) => {
    const answer = async (req: Request, res: Response, k: string, justWrote: boolean) => {
      const read = () => reads.read(req, res, (db) => load(req, db));
      const entry = justWrote ? uncached(await read()) : await cache.get(k, read);
      if (!entry) throw new AppError('NOT_FOUND', missing);
      sendJsonEntry(req, res, entry);
    };
    router.get(prefix + path, (req, res) => {
      const k = key(req);
      const justWrote = reads.justWrote(req);
      const hit = justWrote ? undefined : cache.peek(k);
      if (!hit) return answer(req, res, k, justWrote);
      sendJsonEntry(req, res, hit);
    });
  };
  const slugOf = (missing: string) => (req: Request) => {
    const slug = String(req.params.slug ?? '');
    if (!SLUG.test(slug)) throw new AppError('NOT_FOUND', missing);
    return slug;
  };
  const categorySlug = slugOf(CATALOG_MESSAGES.categoryNotFound);
  const productSlug = slugOf(CATALOG_MESSAGES.productNotFound);
  const articleSlug = slugOf(CATALOG_MESSAGES.articleNotFound);

  // The hottest first: a request is matched against the routes in order.
  cached(
    '/products',
    () => 'products',
    async (_req, db) => (await catalogQueries.listPublicProducts(db)).map((r) => toStorefrontProduct(r.product, r.category, r.rating)),
    CATALOG_MESSAGES.productNotFound,
  );

  cached(
    '/products/:slug',
    (req) => `product:${productSlug(req)}`,
    async (req, db) => {
      const row = await catalogQueries.findPublicProduct(db, productSlug(req));
      return row && toStorefrontProduct(row.product, row.category, row.rating);
    },
    CATALOG_MESSAGES.productNotFound,
  );

  cached('/categories', () => 'categories', async (_req, db) => (await catalogQueries.listCategories(db)).map(toCategory), CATALOG_MESSAGES.categoryNotFound);

  cached(
    '/categories/:slug',
    (req) => `category:${categorySlug(req)}`,
    async (req, db) => {
      const row = await catalogQueries.findCategory(db, categorySlug(req));
      return row && toCategory(row);
    },
    CATALOG_MESSAGES.categoryNotFound,
  );

  cached('/blog', () => 'blog', async (_req, db) => (await catalogQueries.listPublishedPosts(db)).map(toBlogPostSummary), CATALOG_MESSAGES.articleNotFound);

  cached(
    '/blog/:slug',
    (req) => `blog:${articleSlug(req)}`,
    async (req, db) => {
      const row = await catalogQueries.findPublishedPost(db, articleSlug(req));
      return row && toBlogPost(row);
    },
    CATALOG_MESSAGES.articleNotFound,
  );

  cached(
    '/impact',
    () => 'impact',
    async (_req, db) => {
      const row = await catalogQueries.currentImpact(db);
      return row && toImpactStats(row);
    },
    CATALOG_MESSAGES.impactMissing,
  );

  cached('/ingredients', () => 'ingredients', async (_req, db) => (await catalogQueries.listIngredients(db)).map(toIngredient), 'Ingredients not found');

  return router;
}
