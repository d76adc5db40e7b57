/**
 * The shop's product list (GET /api/products: active and out-of-stock products, each with its rating), one query option shared
 * by the catalog, the site search and My Subscriptions' "add a product", so they share one cache entry.
 * A shared layer because features may not import each other (docs/decisions/web-structure.md).
 */
import type { StorefrontProduct } from '@nh/shared/contracts/catalog';
import { queryOptions } from '@tanstack/react-query';

export const productsQuery = queryOptions<StorefrontProduct[]>({ queryKey: ['/api/products'] });
