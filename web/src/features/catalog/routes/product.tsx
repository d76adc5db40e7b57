import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import type { Prefetch } from '@/lib/prefetch';
import { usePageMeta } from '@/lib/use-page-meta';
import { productsQuery } from '@/lib/catalog-queries';
import { productQuery, relatedProductsQuery, reviewsQuery } from '../api';
import { NotFoundPanel } from '../components/not-found-panel';
import { ProductSkeleton } from '../components/product-view/product-skeleton';
import { ProductView } from '../components/product-view/product-view';
import { toCatalogProduct } from '../product-model';

/**
 * The product, its reviews (their summary is under the name) and its related products; the whole
 * catalogue only for a starter kit (its contents are named from it), before the related products,
 * which then pick from it.
 */
export const prefetch: Prefetch = async (queryClient, { slug = '' }) => {
  const product = await queryClient.fetchQuery(productQuery(slug)).catch(() => null);
  if (!product) return;
  await Promise.all([
    queryClient.prefetchQuery(reviewsQuery(product.id)),
    (product.isStarterKit ? queryClient.prefetchQuery(productsQuery) : Promise.resolve()).then(() =>
      queryClient.prefetchQuery(relatedProductsQuery(product)),
    ),
  ]);
};

export default function ProductPage() {
  const slug = useParams().slug ?? '';
  const product = useQuery(productQuery(slug));
  const current = useMemo(() => (product.data ? toCatalogProduct(product.data) : null), [product.data]);

  if (product.isLoading) return <ProductSkeleton />;
  if (!current) return <ProductNotFound />;
  // Remount per product so the chosen variant and quantity reset when navigating between products.
  return <ProductView key={current.id} product={current} />;
}

function ProductNotFound() {
  usePageMeta({ title: 'Product Not Found' });
  return <NotFoundPanel title="Product Not Found" message="The product you're looking for doesn't exist." />;
}
