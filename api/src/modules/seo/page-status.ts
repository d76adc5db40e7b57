/**
 * What the server says about a storefront page before any JavaScript runs: its HTTP status (404 for a
 * path the router does not know, and for a product, category, journal article or legal page that does
 * not exist: the SPA shows its not-found screen either way) and its head (title, description, canonical
 * URL, Open Graph and Twitter tags with the product's picture and price), so crawlers and link previews
 * read the page without running the app.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { tables, type Db } from '@nh/server';
import { SHOP } from '@nh/shared/constants';
import { centsToDecimal } from '@nh/shared/money';
import { PUBLIC_PRODUCT_STATUSES } from '@nh/shared/contracts/catalog';
import { mainProductImage } from '@nh/shared/contracts/product-images';
import { LEGAL_PAGE_SLUGS, SPA_ROUTES, sitePaths } from '@nh/shared/contracts/site-map';

type Route = (typeof SPA_ROUTES)[number];

export interface PageHead {
  title: string;
  description: string;
  /** Path of the page's one URL (aliases point to it). */
  canonical: string;
  type: 'website' | 'product' | 'article';
  /** Path or URL of the picture a link preview shows. */
  image?: string;
  /** Products: the price a preview shows, in decimal. */
  price?: string;
  /** Checkout, a shopper's own pages, the back office: not for search results. */
  noindex?: boolean;
}

export interface SpaPage {
  status: 200 | 404;
  head: PageHead;
}

const DEFAULT_DESCRIPTION = 'Probiotic, non-toxic household cleaners that are safe for your family and the planet.';
const titled = (title: string) => `${title} | ${SHOP.name}`;
const HOME: PageHead = { title: `${SHOP.name} — Probiotic, family-safe cleaning`, description: DEFAULT_DESCRIPTION, canonical: '/', type: 'website' };
/** A description of at most 160 characters, cut at a word. */
const clip = (text: string | null | undefined) => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length <= 160 ? flat || DEFAULT_DESCRIPTION : `${flat.slice(0, 157).replace(/\s\S*$/, '')}…`;
};

/** Pages with a fixed path: their head. */
const FIXED: Partial<Record<Route, PageHead>> = {
  '/': HOME,
  '/shop': { title: titled('Shop'), description: 'Shop probiotic cleaners for every room: surfaces, glass, floors, dishes and laundry.', canonical: '/shop', type: 'website' },
  '/ingredients': { title: titled('Ingredients'), description: 'Every ingredient in our cleaners, what it does and how it is rated.', canonical: '/ingredients', type: 'website' },
  '/how-it-works': { title: titled('How It Works'), description: 'How probiotic cleaning works, and how Subscribe & Save delivers it monthly.', canonical: '/how-it-works', type: 'website' },
  '/journal': { title: titled('Journal'), description: 'Guides and stories on cleaning a healthy home.', canonical: '/journal', type: 'website' },
  '/sustainability': { title: titled('Sustainability'), description: 'Our impact: plastic saved, water protected, and where we are going.', canonical: '/sustainability', type: 'website' },
  '/about': { title: titled('About'), description: `Why we started ${SHOP.name}.`, canonical: '/about', type: 'website' },
  '/support': { title: titled('Support'), description: 'Answers to common questions, order help and how to reach us.', canonical: '/support', type: 'website' },
};
FIXED['/products'] = FIXED['/shop'];
FIXED['/impact'] = FIXED['/sustainability'];

type Lookup = (db: Db, slug: string) => Promise<PageHead | null>;

const findCategory = async (db: Db, slug: string): Promise<PageHead | null> => {
  const [row] = await db.select({ name: tables.categories.name, description: tables.categories.description, image: tables.categories.image }).from(tables.categories).where(eq(tables.categories.slug, slug)).limit(1);
  return row ? { title: titled(row.name), description: clip(row.description), canonical: sitePaths.category(slug), type: 'website', image: row.image ?? undefined } : null;
};

/** The routes whose last segment names a record: its head, or null when it does not exist. */
const RECORD_LOOKUPS: Partial<Record<Route, Lookup>> = {
  '/product/:slug': async (db, slug) => {
    const p = tables.products;
    const [row] = await db
      .select({ name: p.name, short: p.shortDescription, description: p.description, price: p.price, images: p.images })
      .from(p)
      .where(and(eq(p.slug, slug), inArray(p.status, [...PUBLIC_PRODUCT_STATUSES])))
      .limit(1);
    return row
      ? { title: titled(row.name), description: clip(row.short ?? row.description), canonical: sitePaths.product(slug), type: 'product', image: mainProductImage(row.images), price: centsToDecimal(row.price) }
      : null;
  },
  '/shop/:categorySlug': findCategory,
  '/category/:categorySlug': findCategory,
  '/journal/:slug': async (db, slug) => {
    const b = tables.blogPosts;
    const [row] = await db
      .select({ title: b.title, metaTitle: b.metaTitle, metaDescription: b.metaDescription, excerpt: b.excerpt, image: b.image })
      .from(b)
      .where(and(eq(b.slug, slug), eq(b.published, true)))
      .limit(1);
    return row
      ? { title: titled(row.metaTitle ?? row.title), description: clip(row.metaDescription ?? row.excerpt), canonical: sitePaths.article(slug), type: 'article', image: row.image ?? undefined }
      : null;
  },
  '/legal/:page': async (_db, slug) =>
    (LEGAL_PAGE_SLUGS as readonly string[]).includes(slug)
      ? { title: titled(`${slug[0]!.toUpperCase()}${slug.slice(1)} policy`), description: DEFAULT_DESCRIPTION, canonical: sitePaths.legal(slug), type: 'website' }
      : null,
};

const SLUG = /^[a-z0-9][a-z0-9-]{0,199}$/;
const ROUTES = SPA_ROUTES.map((pattern) => ({ pattern, regex: new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, '([^/]+)')}$`) }));
const NOT_FOUND = (canonical: string): SpaPage => ({ status: 404, head: { title: titled('Page not found'), description: DEFAULT_DESCRIPTION, canonical, type: 'website', noindex: true } });

export function spaPage(db: Db): (path: string) => Promise<SpaPage> {
  return async (rawPath) => {
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const route = ROUTES.find((r) => r.regex.test(path));
    if (!route) return NOT_FOUND(path);
    const fixed = FIXED[route.pattern];
    if (fixed) return { status: 200, head: fixed };
    const lookup = RECORD_LOOKUPS[route.pattern];
    // Checkout, a shopper's own pages, the unsubscribe page, the back office: the shop's head, not indexed.
    if (!lookup) return { status: 200, head: { ...HOME, canonical: path, noindex: true } };
    const slug = decodeURIComponent(route.regex.exec(path)![1]!);
    const head = SLUG.test(slug) ? await lookup(db, slug) : null;
    return head ? { status: 200, head } : NOT_FOUND(path);
  };
}
