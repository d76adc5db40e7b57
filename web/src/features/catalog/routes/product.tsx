import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import type { Prefetch } from '@/lib/prefetch';
import { usePageMeta } from '@/lib/use-page-meta';
import { productsQuery } from '@/lib/catalog-queries';
import { productQuery, reviewsQuery } from '../api';
import { NotFoundPanel } from '../components/not-found-panel';
import { ProductSkeleton } from '../components/product-view/product-skeleton';
import { ProductView } from '../components/product-view/product-view';
import { toCatalogProduct } from '../product-model';

/** The product, the catalogue (related products) and its reviews (their summary is under the name). */
export const prefetch: Prefetch = async (queryClient, { slug = '' }) => {
  const [product] = await Promise.all([
    queryClient.fetchQuery(productQuery(slug)).catch(() => null),
    queryClient.prefetchQuery(productsQuery),
  ]);
  if (product) await queryClient.prefetchQuery(reviewsQuery(product.id));
};

export default function ProductPage() {
  const slug = useParams().slug ?? '';
  const product = useQuery(productQuery(slug));
  const all = useQuery(productsQuery);
  const catalog = useMemo(() => (all.data ?? []).map(toCatalogProduct), [all.data]);
  const current = useMemo(() => (product.data ? toCatalogProduct(product.data) : null), [product.data]);

  if (product.isLoading) return <ProductSkeleton />;
  if (!current) return <ProductNotFound />;
  // Remount per product so the chosen variant and quantity reset when navigating between products.
  return <ProductView key={current.id} product={current} all={catalog} />;
}

function ProductNotFound() {
  usePageMeta({ title: 'Product Not Found' });
  return <NotFoundPanel title="Product Not Found" message="The product you're looking for doesn't exist." />;
}
