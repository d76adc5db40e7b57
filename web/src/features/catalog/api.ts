/** Catalogue calls (storefront §7): one query option per endpoint, used through react-query (the product list's is shared: @/lib/catalog-queries). */
import type { BlogPostSummary, Category, ImpactStats, Product } from '@nh/shared/contracts/catalog';
import type { Review } from '@nh/shared/contracts/reviews';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { productsQuery } from '@/lib/catalog-queries';
import { toCatalogProduct } from './product-model';

export const categoriesQuery = queryOptions<Category[]>({ queryKey: ['/api/categories'] });
export const blogPostsQuery = queryOptions<BlogPostSummary[]>({ queryKey: ['/api/blog'] });
export const impactQuery = queryOptions<ImpactStats>({ queryKey: ['/api/impact'] });
export const productQuery = (slug: string) => queryOptions<Product>({ queryKey: ['/api/products', slug] });
export const categoryQuery = (slug: string) => queryOptions<Category>({ queryKey: ['/api/categories', slug] });
export const reviewsQuery = (productId: number) => queryOptions<Review[]>({ queryKey: ['/api/products', productId, 'reviews'] });

export const useProducts = () => useQuery(productsQuery);
export const useCategories = () => useQuery(categoriesQuery);

export function useProduct(slug: string) {
  const query = useQuery(productQuery(slug));
  return { ...query, product: query.data ? toCatalogProduct(query.data) : undefined };
}
