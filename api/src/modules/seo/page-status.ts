/**
 * The HTTP status of a storefront page the SPA renders: 404 for a path the router does not know and for
 * a product, category, journal article or legal page that does not exist (the SPA shows its not-found
 * screen either way; the status tells crawlers and link checkers). 200 otherwise.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { tables, type Db } from '@nh/server';
import { PUBLIC_PRODUCT_STATUSES } from '@nh/shared/contracts/catalog';
import { LEGAL_PAGE_SLUGS, SPA_ROUTES } from '@nh/shared/contracts/site-map';

type Lookup = (db: Db, slug: string) => Promise<boolean>;

const exists = async (rows: Promise<unknown[]>) => (await rows).length > 0;

/** The routes whose last segment names a record: how to tell whether it exists. */
const RECORD_LOOKUPS: Partial<Record<(typeof SPA_ROUTES)[number], Lookup>> = {
  '/product/:slug': (db, slug) =>
    exists(
      db
        .select({ id: tables.products.id })
        .from(tables.products)
        .where(and(eq(tables.products.slug, slug), inArray(tables.products.status, [...PUBLIC_PRODUCT_STATUSES])))
        .limit(1),
    ),
  '/shop/:categorySlug': (db, slug) => exists(db.select({ id: tables.categories.id }).from(tables.categories).where(eq(tables.categories.slug, slug)).limit(1)),
  '/category/:categorySlug': (db, slug) => exists(db.select({ id: tables.categories.id }).from(tables.categories).where(eq(tables.categories.slug, slug)).limit(1)),
  '/journal/:slug': (db, slug) =>
    exists(
      db
        .select({ id: tables.blogPosts.id })
        .from(tables.blogPosts)
        .where(and(eq(tables.blogPosts.slug, slug), eq(tables.blogPosts.published, true)))
        .limit(1),
    ),
  '/legal/:page': async (_db, slug) => (LEGAL_PAGE_SLUGS as readonly string[]).includes(slug),
};

const SLUG = /^[a-z0-9][a-z0-9-]{0,199}$/;

const ROUTES = SPA_ROUTES.map((pattern) => ({
  pattern,
  regex: new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, '([^/]+)')}$`),
}));

export function spaPageStatus(db: Db): (path: string) => Promise<200 | 404> {
  return async (rawPath) => {
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const route = ROUTES.find((r) => r.regex.test(path));
    if (!route) return 404;
    const lookup = RECORD_LOOKUPS[route.pattern];
    if (!lookup) return 200;
    const slug = decodeURIComponent(route.regex.exec(path)![1]!);
    return SLUG.test(slug) && (await lookup(db, slug)) ? 200 : 404;
  };
}
