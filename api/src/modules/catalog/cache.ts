import type { AppContext } from '../../lib/context';
import { JsonCache } from '../../lib/json-cache';
import { perApp } from '../../lib/per-app';
import { clearPriceList } from './price-list';

/** The catalogue's in-process answer cache (TTL `CATALOG_CACHE_SECONDS`). */
export const catalogCache = perApp((ctx) => new JsonCache(ctx.config.CATALOG_CACHE_SECONDS * 1000));

/**
 * Call after any write to products, categories, blog posts, ingredients or impact figures, and after a
 * review is added, hidden, shown or deleted (a product's rating is in its answers), so this process
 * serves the change at once. Other API processes pick it up within CATALOG_CACHE_SECONDS.
 */
export function invalidateCatalogCache(ctx: AppContext): void {
  catalogCache(ctx).clear();
  clearPriceList(ctx);
}
