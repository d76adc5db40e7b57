import type { AppContext } from '../../context';
import { JsonCache } from '../../lib/json-cache';
import { clearPriceList } from './price-list';

// One cache per running app (tests start several apps in one process, each on its own context).
const caches = new WeakMap<AppContext, JsonCache>();

/** The catalogue's in-process answer cache (TTL `CATALOG_CACHE_SECONDS`). */
export function catalogCache(ctx: AppContext): JsonCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new JsonCache(ctx.config.CATALOG_CACHE_SECONDS * 1000);
    caches.set(ctx, cache);
  }
  return cache;
}

/**
 * Call after any write to products, categories, blog posts, ingredients or impact figures, so this
 * process serves the change at once. Other API processes pick it up within CATALOG_CACHE_SECONDS.
 */
export function invalidateCatalogCache(ctx: AppContext): void {
  caches.get(ctx)?.clear();
  clearPriceList(ctx);
}
