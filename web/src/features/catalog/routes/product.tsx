import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { usePageMeta } from '@/lib/use-page-meta';
import { productQuery, productsQuery } from '../api';
import { NotFoundPanel } from '../components/not-found-panel';
import { ProductSkeleton } from '../components/product-view/product-skeleton';
import { ProductView } from '../components/product-view/product-view';
import { toCatalogProduct } from '../product-model';

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
