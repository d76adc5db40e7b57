import { CURRENCY, SHOP } from '@nh/shared/constants';
import { centsToDecimal } from '@nh/shared/money';
import type { Review } from '@nh/shared/contracts/reviews';
import { mainProductImage } from '@/lib/product-images';
import { lowestPriceCents, validPrice, type CatalogProduct } from './product-model';

/** One year after `now`, as yyyy-mm-dd (the offer's priceValidUntil). */
export function oneYearAhead(now: Date): string {
  const next = new Date(now);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next.toISOString().slice(0, 10);
}

/** schema.org Product structured data (currency USD, price valid one year). */
export function productJsonLd(
  product: CatalogProduct,
  reviews: readonly Review[],
  origin: string,
  now = new Date(),
): Record<string, unknown> {
  const url = `${origin}/product/${product.slug}`;
  const price = lowestPriceCents(product);
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.shortDescription ?? product.description ?? undefined,
    image: product.images.map((img) => new URL(mainProductImage([img]), origin).toString()),
    sku: product.sku ?? undefined,
    gtin12: product.upc ?? undefined,
    brand: { '@type': 'Brand', name: SHOP.name },
    category: product.category?.name,
    url,
  };
  if (validPrice(price)) {
    data.offers = {
      '@type': 'Offer',
      price: centsToDecimal(price),
      priceCurrency: CURRENCY,
      priceValidUntil: oneYearAhead(now),
      availability: product.inventory > 0 && product.status === 'active' ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      url,
    };
  }
  if (reviews.length > 0) {
    const average = reviews.reduce((sum, r) => sum + r.rating, 0) / reviews.length;
    data.aggregateRating = { '@type': 'AggregateRating', ratingValue: Math.round(average * 10) / 10, reviewCount: reviews.length };
  }
  return data;
}

/** JSON for an inline script: "<" escaped so text can never close the script element. */
export const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
