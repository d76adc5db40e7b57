/**
 * The SPA's view of a catalogue product: prices parsed to integer cents (null when missing or not a
 * positive amount), so every display and cart rule works on exact cents.
 */
import { formatCents, parseCents } from '@nh/shared/money';
import type { Product, ProductRating, ProductVariant, StorefrontProduct } from '@nh/shared/contracts/catalog';

export interface CatalogVariant extends ProductVariant {
  /** Integer cents, or null when the variant has no valid positive price. */
  priceCents: number | null;
}

export interface CatalogProduct extends Omit<Product, 'variants'> {
  priceCents: number | null;
  variants: CatalogVariant[];
  /** Its visible reviews' average and count (the catalogue's answer); null without reviews or when not known. */
  rating: ProductRating | null;
}

/** Raw product as it may arrive (prices as string or number; variant label may be missing). */
export type RawProduct = Omit<Product, 'price' | 'variants'> & {
  price: string | number | null;
  variants?: Array<{ sku: string; label?: string | null; size?: string | null; price: string | number | null }> | null;
  rating?: ProductRating | null;
};

/** A price a shopper can pay: a finite number of cents above 0 (storefront §5). */
export function validPrice(cents: number | null | undefined): cents is number {
  return typeof cents === 'number' && Number.isFinite(cents) && cents > 0;
}

function positiveCents(value: unknown): number | null {
  const cents = parseCents(value);
  return validPrice(cents) ? cents : null;
}

export function toCatalogProduct(raw: RawProduct | Product | StorefrontProduct | CatalogProduct): CatalogProduct {
  const variants = (raw.variants ?? []).map((v) => {
    const variant = v as { sku: string; label?: string | null; size?: string | null; price: string | number | null };
    const priceCents = positiveCents(variant.price);
    return {
      sku: variant.sku,
      label: variant.label || variant.size || 'Standard',
      price: String(variant.price ?? ''),
      priceCents,
    };
  });
  return {
    ...(raw as Omit<Product, 'variants'>),
    images: raw.images ?? [],
    kitContents: raw.kitContents ?? [],
    price: String(raw.price ?? ''),
    priceCents: positiveCents(raw.price),
    variants,
    rating: ('rating' in raw ? raw.rating : null) ?? null,
  };
}

/** Unit price of the chosen variant (or of the product when it has none), in cents or null. */
export function unitPriceCents(product: CatalogProduct, variant: CatalogVariant | null | undefined): number | null {
  return variant ? variant.priceCents : product.priceCents;
}

/** Lowest valid price among the variants (or the product price without variants). */
export function lowestPriceCents(product: CatalogProduct): number | null {
  if (product.variants.length === 0) return product.priceCents;
  const prices = product.variants.map((v) => v.priceCents).filter(validPrice);
  return prices.length === 0 ? null : Math.min(...prices);
}

/** Price text of a card: "From $min" with several variants, "$12.99" otherwise, "Price TBA" without a valid price. */
export function priceDisplay(product: CatalogProduct): string {
  const lowest = lowestPriceCents(product);
  if (!validPrice(lowest)) return 'Price TBA';
  return product.variants.length > 1 ? `From ${formatCents(lowest)}` : formatCents(lowest);
}

/** Cart line name: the product name with " - {variant label}" when a variant is chosen. */
export function cartLineName(product: Pick<CatalogProduct, 'name'>, variant: CatalogVariant | null | undefined): string {
  return variant ? `${product.name} - ${variant.label}` : product.name;
}
