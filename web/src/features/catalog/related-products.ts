import type { CatalogProduct } from './product-model';

/**
 * Related products (storefront §2): same category and active first, then other active products,
 * never the current one; at most `limit`.
 */
export function relatedProducts<P extends Pick<CatalogProduct, 'id' | 'status' | 'category'>>(
  all: readonly P[],
  current: Pick<CatalogProduct, 'id' | 'category'>,
  limit: number,
): P[] {
  const candidates = all.filter((p) => p.id !== current.id && p.status === 'active');
  const sameCategory = candidates.filter((p) => current.category && p.category?.slug === current.category.slug);
  const others = candidates.filter((p) => !sameCategory.includes(p));
  return [...sameCategory, ...others].slice(0, limit);
}
