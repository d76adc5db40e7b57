import type { IncomingMessage } from 'node:http';
import { Router, type Request, type Response } from 'express';
import type { Db } from '@nh/server/db/client';
import { CATALOG_MESSAGES } from '@nh/shared/contracts/catalog';
import * as catalogQueries from '@nh/server/queries/catalog';
import type { AppContext } from '../../lib/context';
import type { Reads } from '../../lib/read-your-writes';
import { sendJsonEntry, toJsonEntry } from '../../lib/json-cache';
import type { CachedAnswer } from '../../lib/ahead-of-express';
import { AppError } from '../../lib/errors';
import { catalogCache } from './cache';
import { toBlogPost, toBlogPostSummary, toCategory, toImpactStats, toIngredient, toStorefrontProduct } from './serialize';

/** An answer sent once, not kept (a read from the primary for a person who has just changed something). */
const uncached = (value: unknown) => (value === undefined ? undefined : toJsonEntry(value, 0));

/** Slugs are short kebab-case words; anything else cannot exist, so it is a 404 without a query. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,199}$/;

export interface CatalogRoutes {
  router: Router;
  /**
   * The live cached answer to a plain GET or HEAD of one of these routes, spelt as the shop spells it
   * (lower case, no trailing slash, a valid slug); undefined for anything else (a miss, a fresh read for
   * a person who has just changed something, another spelling), which the router then answers.
   */
  cachedAnswer: (req: IncomingMessage) => CachedAnswer | undefined;
}

/** How a route finds its cache key: from the slug of `/…/:slug`, or '' for a route without one. */
interface CachedRoute {
  route: object;
  key: (slug: string) => string;
}

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
 * shop's hottest path need not pay (issue 26). `cachedAnswer` finds a cached answer by the same paths
 * and keys for the app to send ahead of Express.
 */
export function catalogRoutes(
  ctx: AppContext,
  { reads, router = Router(), prefix = '' }: { reads: Reads; router?: Router; prefix?: string },
): CatalogRoutes {
  const cache = catalogCache(ctx);
  /** Routes by their full path (`/api/products`), and those with a slug by the path before it (`/api/products/`). */
  const plain = new Map<string, CachedRoute>();
  const slugged = new Map<string, CachedRoute>();

  /**
   * GET path → cached answer of `load`; `load` answering undefined is a 404 with `missing`. A live
   * entry is sent synchronously (no promise per request); a miss or a fresh read goes the async way.
   * A path may end in `/:slug`, which must be a slug (else a 404 without a query).
   */
  const cached = (path: string, key: (slug: string) => string, load: (db: Db, slug: string) => Promise<unknown>, missing: string) => {
    const hasSlug = path.endsWith('/:slug');
    const slugOf = (req: Request) => {
      if (!hasSlug) return '';
      const slug = String(req.params.slug ?? '');
      if (!SLUG.test(slug)) throw new AppError('NOT_FOUND', missing);
      return slug;
    };
    const answer = async (req: Request, res: Response, slug: string, justWrote: boolean) => {
      const read = () => reads.read(req, res, (db) => load(db, slug));
      const entry = justWrote ? uncached(await read()) : await cache.get(key(slug), read);
      if (!entry) throw new AppError('NOT_FOUND', missing);
      sendJsonEntry(req, res, entry);
    };
    const route = router.route(prefix + path);
    route.get((req, res) => {
      const slug = slugOf(req);
      const justWrote = reads.justWrote(req);
      const hit = justWrote ? undefined : cache.peek(key(slug));
      if (!hit) return answer(req, res, slug, justWrote);
      sendJsonEntry(req, res, hit);
    });
    if (hasSlug) slugged.set(prefix + path.slice(0, -':slug'.length), { route, key });
    else plain.set(prefix + path, { route, key });
  };

  const cachedAnswer = (req: IncomingMessage): CachedAnswer | undefined => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    let found = plain.get(path);
    let slug = '';
    if (!found) {
      const cut = path.lastIndexOf('/') + 1;
      found = slugged.get(path.slice(0, cut));
      slug = path.slice(cut);
      if (!found || !SLUG.test(slug)) return undefined;
    }
    if (reads.justWrote(req)) return undefined;
    const entry = cache.peek(found.key(slug));
    return entry && { route: found.route, entry };
  };

  // The hottest first: a request is matched against the routes in order.
  cached(
    '/products',
    () => 'products',
    async (db) => (await catalogQueries.listPublicProducts(db)).map((r) => toStorefrontProduct(r.product, r.category, r.rating)),
    CATALOG_MESSAGES.productNotFound,
  );

  cached(
    '/products/:slug',
    (slug) => `product:${slug}`,
    async (db, slug) => {
      const row = await catalogQueries.findPublicProduct(db, slug);
      return row && toStorefrontProduct(row.product, row.category, row.rating);
    },
    CATALOG_MESSAGES.productNotFound,
  );

  cached(
    '/categories',
    () => 'categories',
    async (db) => (await catalogQueries.listCategories(db)).map(toCategory),
    CATALOG_MESSAGES.categoryNotFound,
  );

  cached(
    '/categories/:slug',
    (slug) => `category:${slug}`,
    async (db, slug) => {
      const row = await catalogQueries.findCategory(db, slug);
      return row && toCategory(row);
    },
    CATALOG_MESSAGES.categoryNotFound,
  );

  cached(
    '/blog',
    () => 'blog',
    async (db) => (await catalogQueries.listPublishedPosts(db)).map(toBlogPostSummary),
    CATALOG_MESSAGES.articleNotFound,
  );

  cached(
    '/blog/:slug',
    (slug) => `blog:${slug}`,
    async (db, slug) => {
      const row = await catalogQueries.findPublishedPost(db, slug);
      return row && toBlogPost(row);
    },
    CATALOG_MESSAGES.articleNotFound,
  );

  cached(
    '/impact',
    () => 'impact',
    async (db) => {
      const row = await catalogQueries.currentImpact(db);
      return row && toImpactStats(row);
    },
    CATALOG_MESSAGES.impactMissing,
  );

  cached(
    '/ingredients',
    () => 'ingredients',
    async (db) => (await catalogQueries.listIngredients(db)).map(toIngredient),
    'Ingredients not found',
  );

  return { router, cachedAnswer };
}
