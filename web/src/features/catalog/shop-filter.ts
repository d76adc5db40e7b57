/**
 * Shop listing rules (storefront §4): the filter value, which products it shows, and the shop page's
 * list normalisation.
 */
import { SHOP } from '@nh/shared/constants';
import type { Category } from '@nh/shared/contracts/catalog';
import { toCatalogProduct, type CatalogProduct, type RawProduct } from './product-model';

export type ShopFilter =
  { kind: 'all' } | { kind: 'starter' } | { kind: 'category'; slug: string; name: string; description: string | null };

type CategoryLike = Pick<Category, 'slug' | 'name'> & { description?: string | null };

/** all, starter or a known category slug; anything else (missing, unknown) means all. */
export function resolveShopFilter(value: string | null | undefined, categories: readonly CategoryLike[]): ShopFilter {
  if (value === 'starter') return { kind: 'starter' };
  const category = value ? categories.find((c) => c.slug === value) : undefined;
  if (category) return { kind: 'category', slug: category.slug, name: category.name, description: category.description ?? null };
  return { kind: 'all' };
}

/** 'all' excludes starter kits; 'starter' shows only kits; a category slug matches the product's category. */
export function filterShopProducts<P extends Pick<CatalogProduct, 'isStarterKit' | 'category'>>(
  products: readonly P[],
  filter: ShopFilter,
): P[] {
  switch (filter.kind) {
    case 'all':
      return products.filter((p) => !p.isStarterKit);
    case 'starter':
      return products.filter((p) => p.isStarterKit);
    case 'category':
      return products.filter((p) => p.category?.slug === filter.slug);
  }
}

/**
 * The shop page's normalisation: variants sorted by price ascending, string prices parsed, and the
 * bestseller, refill and fragrance-free flags forced false (as the spec states for this listing).
 */
export function normalizeShopProducts(products: readonly (RawProduct | CatalogProduct)[]): CatalogProduct[] {
  return products.map((raw) => {
    const product = toCatalogProduct(raw);
    const variants = [...product.variants].sort(
      (a, b) => (a.priceCents ?? Number.POSITIVE_INFINITY) - (b.priceCents ?? Number.POSITIVE_INFINITY),
    );
    return { ...product, variants, isBestseller: false, isRefill: false, isFragranceFree: false };
  });
}

export function filterLabel(filter: ShopFilter): string {
  switch (filter.kind) {
    case 'all':
      return `All ${SHOP.name} Products`;
    case 'starter':
      return 'Starter Kits';
    case 'category':
      return filter.name;
  }
}

export function filterHref(filter: ShopFilter): string {
  return filter.kind === 'all' ? '/shop' : `/shop?filter=${filter.kind === 'starter' ? 'starter' : encodeURIComponent(filter.slug)}`;
}

export const productCountLabel = (count: number) => (count === 1 ? '1 product' : `${count} products`);

export function emptyStateText(filter: ShopFilter): string {
  if (filter.kind === 'starter') return 'No starter kits available at the moment';
  if (filter.kind === 'category') return `No ${filter.name} found in this category`;
  return 'No products found in this category';
}

const CATEGORY_DESCRIPTIONS: Record<string, string> = {
  kitchen:
    'Shop probiotic kitchen cleaners: non-toxic dish soap, dishwasher pods, produce wash and counter sprays that are food-safe and family-safe.',
  bathroom:
    'Shop probiotic bathroom cleaners: toilet, sink and drain care that keeps working after you wipe, with no bleach fumes or chlorine.',
  laundry:
    'Shop non-toxic laundry pods, oxygen boosters and probiotic stain removers that are gentle on sensitive skin and septic systems.',
  'multi-surface': 'Shop streak-free, plant-based multi-surface, glass and floor cleaners that are safe around babies and pets.',
};

/** Document title, description and canonical path for a filter. */
export function shopPageMeta(filter: ShopFilter): { title: string; description: string; canonical: string } {
  switch (filter.kind) {
    case 'all':
      return {
        title: `Shop All Products | ${SHOP.name}`,
        description: `Shop ${SHOP.name}'s probiotic, non-toxic household cleaners: family-safe, ocean-friendly formulas for kitchen, bathroom, laundry and every surface.`,
        canonical: '/shop',
      };
    case 'starter':
      return {
        title: `Starter Kits | ${SHOP.name}`,
        description: `Switch to non-toxic cleaning with ${SHOP.name} starter kits: curated bundles of our most-loved probiotic cleaners, saving up to 15%.`,
        canonical: '/shop?filter=starter',
      };
    case 'category':
      return {
        title: `${filter.name} Cleaners | ${SHOP.name}`,
        description:
          CATEGORY_DESCRIPTIONS[filter.slug] ??
          filter.description ??
          `Shop ${filter.name} products from ${SHOP.name}: probiotic, family-safe cleaning.`,
        canonical: `/shop?filter=${encodeURIComponent(filter.slug)}`,
      };
  }
}
