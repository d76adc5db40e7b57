/**
 * schema.org JSON-LD of the storefront's pages, written into the page's head by the server (search
 * engines read it without running the app): Product with its Offer and AggregateRating, BreadcrumbList,
 * Article, and Organization on the home page. URLs are absolute.
 */
import { CURRENCY, SHOP } from '@nh/shared/constants';
import { centsToDecimal } from '@nh/shared/money';
import type { ProductRating } from '@nh/shared/contracts/catalog';

export type JsonLd = Record<string, unknown>;

/** One year after `now`, as yyyy-mm-dd (an offer's priceValidUntil). */
export function oneYearAhead(now: Date): string {
  const next = new Date(now);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next.toISOString().slice(0, 10);
}

export interface ProductFacts {
  name: string;
  description: string | null;
  url: string;
  images: string[];
  sku: string | null;
  gtin12: string | null;
  category: string | null;
  /** The lowest price of the product or its variants; null when it has none (no offer is made). */
  priceCents: number | null;
  inStock: boolean;
  /** Visible reviews: their average rating (one decimal, `ratingOf`) and how many; null without any. */
  rating: ProductRating | null;
}

export function productJsonLd(p: ProductFacts, now = new Date()): JsonLd {
  const data: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    description: p.description ?? undefined,
    image: p.images,
    sku: p.sku ?? undefined,
    gtin12: p.gtin12 ?? undefined,
    brand: { '@type': 'Brand', name: SHOP.name },
    category: p.category ?? undefined,
    url: p.url,
  };
  if (p.priceCents !== null && p.priceCents > 0) {
    data.offers = {
      '@type': 'Offer',
      price: centsToDecimal(p.priceCents),
      priceCurrency: CURRENCY,
      priceValidUntil: oneYearAhead(now),
      availability: p.inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      url: p.url,
    };
  }
  if (p.rating && p.rating.count > 0) {
    data.aggregateRating = { '@type': 'AggregateRating', ratingValue: p.rating.average, reviewCount: p.rating.count };
  }
  return data;
}

export const breadcrumbJsonLd = (items: ReadonlyArray<{ name: string; url: string }>): JsonLd => ({
  '@context': 'https://schema.org',
  '@type': 'BreadcrumbList',
  itemListElement: items.map((item, i) => ({ '@type': 'ListItem', position: i + 1, name: item.name, item: item.url })),
});

export const articleJsonLd = (a: { headline: string; description: string; url: string; image: string | null; author: string | null; published: Date; modified: Date }): JsonLd => ({
  '@context': 'https://schema.org',
  '@type': 'Article',
  headline: a.headline,
  description: a.description,
  url: a.url,
  mainEntityOfPage: a.url,
  image: a.image ?? undefined,
  author: a.author ? { '@type': 'Person', name: a.author } : { '@type': 'Organization', name: SHOP.name },
  publisher: { '@type': 'Organization', name: SHOP.name },
  datePublished: a.published.toISOString(),
  dateModified: a.modified.toISOString(),
});

export const organizationJsonLd = (origin: string): JsonLd => ({
  '@context': 'https://schema.org',
  '@type': 'Organization',
  name: SHOP.name,
  url: `${origin}/`,
  logo: `${origin}/api/public/logo.svg`,
  email: SHOP.supportEmail,
});

/** JSON for an inline script element: "<" escaped so no text can close the element. */
export const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
