/** Catalogue calls (storefront §7): one query option per endpoint, used through react-query (the product list's is shared: @/lib/catalog-queries). */
import { LIMITS } from '@nh/shared/constants';
import type { BlogPostSummary, Category, ImpactStats, Product, StorefrontProduct } from '@nh/shared/contracts/catalog';
import type { Review } from '@nh/shared/contracts/reviews';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { productsQuery } from '@/lib/catalog-queries';
import { apiFetchOf, throwIfResNotOk, urlFromQueryKey } from '@/lib/query-client';
import { toCatalogProduct } from './product-model';
import { relatedProducts } from './related-products';

export const categoriesQuery = queryOptions<Category[]>({ queryKey: ['/api/categories'] });
export const blogPostsQuery = queryOptions<BlogPostSummary[]>({ queryKey: ['/api/blog'] });
export const impactQuery = queryOptions<ImpactStats>({ queryKey: ['/api/impact'] });
export const productQuery = (slug: string) => queryOptions<StorefrontProduct>({ queryKey: ['/api/products', slug] });
export const categoryQuery = (slug: string) => queryOptions<Category>({ queryKey: ['/api/categories', slug] });
/**
 * A product's related products (`relatedProducts`), picked from the catalogue inside the query: the
 * server-rendered product page hands over these few products, not the whole catalogue (~90 KB the
 * browser would parse and keep for four cards). The catalogue the browser already holds (the shop's) is
 * used as it is; otherwise it is asked for, and not kept.
 */
export const relatedProductsQuery = (product: Pick<Product, 'id' | 'slug' | 'category'>) =>
  queryOptions<StorefrontProduct[]>({
    queryKey: ['related-products', product.slug],
    queryFn: async ({ client }) => {
      let all = client.getQueryData(productsQuery.queryKey);
      if (!all) {
        const res = await apiFetchOf(client)(urlFromQueryKey(productsQuery.queryKey));
        await throwIfResNotOk(res);
        all = (await res.json()) as StorefrontProduct[];
      }
      return relatedProducts(all, product, LIMITS.recommendations);
    },
  });
export const reviewsQuery = (productId: number) => queryOptions<Review[]>({ queryKey: ['/api/products', productId, 'reviews'] });

export const useProducts = () => useQuery(productsQuery);
export const useCategories = () => useQuery(categoriesQuery);

export function useProduct(slug: string) {
  const query = useQuery(productQuery(slug));
  return { ...query, product: query.data ? toCatalogProduct(query.data) : undefined };
}
