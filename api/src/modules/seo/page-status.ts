/**
 * What the server says about a storefront page before any JavaScript runs: its HTTP status (404 for a
 * path the router does not know, and for a product, category, journal article or legal page that does
 * not exist: the SPA shows its not-found screen either way) and its head (title, description, canonical
 * URL, Open Graph and Twitter tags with the product's picture and price), so crawlers and link previews
 * read the page without running the app.
 */
import type { Db } from '@nh/server/db/client';
import { findCategory as findCategoryRow, findPublicProduct, findPublishedPost } from '@nh/server/queries/catalog';
import { SHOP } from '@nh/shared/constants';
import { centsToDecimal, parseCents } from '@nh/shared/money';
import { ratingOf } from '@nh/shared/contracts/catalog';
import { mainProductImage } from '@nh/shared/contracts/product-images';
import { LEGAL_PAGE_SLUGS, SPA_ROUTES, sitePaths } from '@nh/shared/contracts/site-map';
import { articleJsonLd, breadcrumbJsonLd, organizationJsonLd, productJsonLd, type JsonLd } from './structured-data';

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
  /** The page's schema.org JSON-LD, given the shop's origin (its URLs are absolute). */
  jsonLd?: (origin: string) => JsonLd[];
}

export interface SpaPage {
  status: 200 | 404;
  head: PageHead;
  /**
   * Whether the server renders the page's body: the public pages (and their not-found screens), and the
   * checkout's frame and heading. A shopper's own pages, the unsubscribe page and the back office are
   * rendered in the browser.
   */
  serverRendered: boolean;
}

const DEFAULT_DESCRIPTION = 'Probiotic, non-toxic household cleaners that are safe for your family and the planet.';
const titled = (title: string) => `${title} | ${SHOP.name}`;
const HOME: PageHead = { title: `${SHOP.name} — Probiotic, family-safe cleaning`, description: DEFAULT_DESCRIPTION, canonical: '/', type: 'website' };
/** Breadcrumbs from the home page: [name, path] pairs. */
const crumbs = (origin: string, trail: Array<[string, string]>) => breadcrumbJsonLd([['Home', '/'] as [string, string], ...trail].map(([name, path]) => ({ name, url: `${origin}${path}` })));
/** A description of at most 160 characters, cut at a word. */
const clip = (text: string | null | undefined) => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length <= 160 ? flat || DEFAULT_DESCRIPTION : `${flat.slice(0, 157).replace(/\s\S*$/, '')}…`;
};

/** Pages with a fixed path: their head. */
const FIXED: Partial<Record<Route, PageHead>> = {
  '/': { ...HOME, jsonLd: (origin) => [organizationJsonLd(origin)] },
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
  const row = await findCategoryRow(db, slug);
  return row ? { title: titled(row.name), description: clip(row.description), canonical: sitePaths.category(slug), type: 'website', image: row.image ?? undefined } : null;
};

/** The routes whose last segment names a record: its head, or null when it does not exist. */
const RECORD_LOOKUPS: Partial<Record<Route, Lookup>> = {
  '/product/:slug': async (db, slug) => {
    const row = await findPublicProduct(db, slug);
    if (!row) return null;
    const { product, category, rating: reviews } = row;
    // As the storefront shows it: the lowest variant price, or the product's own without variants.
    const variantPrices = product.variants.map((v) => parseCents(v.price)).filter((c): c is number => c !== null && c > 0);
    const lowest = product.variants.length ? (variantPrices.length ? Math.min(...variantPrices) : null) : product.price;
    const path = sitePaths.product(slug);
    return {
      title: titled(product.name),
      description: clip(product.shortDescription ?? product.description),
      canonical: path,
      type: 'product',
      image: mainProductImage(product.images),
      price: lowest === null ? undefined : centsToDecimal(lowest),
      jsonLd: (origin) => [
        productJsonLd({
          name: product.name,
          description: product.shortDescription ?? product.description,
          url: `${origin}${path}`,
          images: (product.images.length ? product.images : [null]).map((key) => new URL(mainProductImage(key ? [key] : []), origin).toString()),
          sku: product.sku,
          gtin12: product.upc,
          category: category?.name ?? null,
          priceCents: lowest,
          inStock: product.status === 'active' && product.inventory > 0,
          // The rating the product's card and page show; none at all without visible reviews.
          rating: reviews ? ratingOf(reviews.sum, reviews.count) : null,
        }),
        crumbs(origin, [['Shop', '/shop'], ...(category ? [[category.name, sitePaths.category(category.slug)] as [string, string]] : []), [product.name, path]]),
      ],
    };
  },
  '/shop/:categorySlug': findCategory,
  '/category/:categorySlug': findCategory,
  '/journal/:slug': async (db, slug) => {
    const row = await findPublishedPost(db, slug);
    if (!row) return null;
    const path = sitePaths.article(slug);
    const description = clip(row.metaDescription ?? row.excerpt);
    return {
      title: titled(row.metaTitle ?? row.title),
      description,
      canonical: path,
      type: 'article',
      image: row.image ?? undefined,
      jsonLd: (origin) => [
        articleJsonLd({
          headline: row.title,
          description,
          url: `${origin}${path}`,
          image: row.image ? new URL(row.image, origin).toString() : null,
          author: row.author,
          published: new Date(row.createdAt),
          modified: new Date(row.updatedAt),
        }),
        crumbs(origin, [['Journal', '/journal'], [row.title, path]]),
      ],
    };
  },
  '/legal/:page': async (_db, slug) =>
    (LEGAL_PAGE_SLUGS as readonly string[]).includes(slug)
      ? { title: titled(`${slug[0]!.toUpperCase()}${slug.slice(1)} policy`), description: DEFAULT_DESCRIPTION, canonical: sitePaths.legal(slug), type: 'website' }
      : null,
};

const SLUG = /^[a-z0-9][a-z0-9-]{0,199}$/;
const ROUTES = SPA_ROUTES.map((pattern) => ({ pattern, regex: new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, '([^/]+)')}$`) }));
const NOT_FOUND = (canonical: string): SpaPage => ({
  status: 404,
  head: { title: titled('Page not found'), description: DEFAULT_DESCRIPTION, canonical, type: 'website', noindex: true },
  serverRendered: true,
});

export function spaPage(db: Db): (path: string) => Promise<SpaPage> {
  return async (rawPath) => {
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const route = ROUTES.find((r) => r.regex.test(path));
    if (!route) return NOT_FOUND(path);
    const fixed = FIXED[route.pattern];
    if (fixed) return { status: 200, head: fixed, serverRendered: true };
    const lookup = RECORD_LOOKUPS[route.pattern];
    // Checkout, a shopper's own pages, the unsubscribe page, the back office: the shop's head, not indexed.
    // The checkout's frame and heading are rendered (its form follows in the browser, from the saved cart).
    if (!lookup) return { status: 200, head: { ...HOME, canonical: path, noindex: true }, serverRendered: route.pattern === '/checkout' };
    const slug = decodeURIComponent(route.regex.exec(path)![1]!);
    const head = SLUG.test(slug) ? await lookup(db, slug) : null;
    return head ? { status: 200, head, serverRendered: true } : NOT_FOUND(path);
  };
}
