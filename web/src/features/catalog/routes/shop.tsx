import { LIMITS, SHOP } from '@nh/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Hero } from '@/components/hero';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import type { Prefetch } from '@/lib/prefetch';
import { usePageMeta } from '@/lib/use-page-meta';
import { cn } from '@/lib/utils';
import { productsQuery } from '@/lib/catalog-queries';
import { categoriesQuery } from '../api';
import { Breadcrumb } from '../components/breadcrumb';
import { ShopByCategory } from '../components/category-grid';
import { FeaturedKitsCarousel } from '../components/featured-kits-carousel';
import { ProductCard, ProductCardSkeleton } from '../components/product-card';
import { SustainabilityCta } from '../components/sustainability-cta';
import {
  emptyStateText,
  filterLabel,
  filterShopProducts,
  normalizeShopProducts,
  productCountLabel,
  resolveShopFilter,
  shopPageMeta,
} from '../shop-filter';

export function ShopSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading products">
      <Skeleton className="h-[360px] w-full rounded-none md:h-[440px]" />
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
        <Skeleton className="h-8 w-64" />
        <div className="mt-8 grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
          {Array.from({ length: LIMITS.placeholders.shop }, (_, i) => (
            <ProductCardSkeleton key={i} />
          ))}
        </div>
      </div>
    </div>
  );
}

export const prefetch: Prefetch = (queryClient) =>
  Promise.all([queryClient.prefetchQuery(productsQuery), queryClient.prefetchQuery(categoriesQuery)]);

export default function ShopPage() {
  const [params] = useSearchParams();
  const products = useQuery(productsQuery);
  const categories = useQuery(categoriesQuery);
  const categoryList = useMemo(() => categories.data ?? [], [categories.data]);
  const filter = resolveShopFilter(params.get('filter'), categoryList);
  const meta = shopPageMeta(filter);
  usePageMeta(meta);

  const normalized = useMemo(() => normalizeShopProducts(products.data ?? []), [products.data]);
  const shown = useMemo(() => filterShopProducts(normalized, filter), [normalized, filter]);
  const kits = useMemo(() => normalized.filter((p) => p.isStarterKit).slice(0, LIMITS.featuredKits), [normalized]);
  const label = filterLabel(filter);

  if (products.isLoading || categories.isLoading) return <ShopSkeleton />;

  const buttons = [
    { key: 'all', label: 'All Products', to: '/shop', active: filter.kind === 'all' },
    { key: 'starter', label: 'Starter Kits', to: '/shop?filter=starter', active: filter.kind === 'starter' },
    // The 'Starter Kits' button already covers the kit category.
    ...categoryList
      .filter((c) => c.slug !== 'starter-kits')
      .map((c) => ({
        key: c.slug,
        label: c.name,
        to: `/shop?filter=${encodeURIComponent(c.slug)}`,
        active: filter.kind === 'category' && filter.slug === c.slug,
      })),
  ];

  return (
    <>
      <Hero
        image="/api/public/hero-default.svg"
        overlay="brand"
        title={`Shop ${SHOP.name}`}
        subtitle="Family-safe, ocean-friendly probiotic cleaners for every room: tough on grime, gentle on the people and planet you love."
        actions={[
          { label: 'Browse All Products', to: '/shop' },
          { label: 'Shop Starter Kits', to: '/shop?filter=starter' },
        ]}
      />
      <div className="mx-auto max-w-7xl space-y-14 px-4 py-10 sm:px-6 lg:px-8">
        <div>
          <Breadcrumb
            items={[{ label: 'Home', to: '/' }, { label: 'Shop', to: '/shop' }, { label: filter.kind === 'all' ? 'All Products' : label }]}
          />
          <div className="mt-4 flex flex-wrap items-baseline justify-between gap-2">
            <h1 className="text-3xl font-bold tracking-tight text-brand-900 md:text-4xl">{label}</h1>
            <p className="text-stone-600" data-testid="product-count">
              {productCountLabel(shown.length)}
            </p>
          </div>
          <nav aria-label="Filter products" className="-mx-4 mt-6 overflow-x-auto px-4">
            <ul className="flex gap-2">
              {buttons.map((b) => (
                <li key={b.key}>
                  <Button asChild variant={b.active ? 'default' : 'outline'} size="sm" className="h-9 px-4">
                    <Link to={b.to} aria-current={b.active ? 'page' : undefined}>
                      {b.label}
                    </Link>
                  </Button>
                </li>
              ))}
            </ul>
          </nav>
        </div>

        {filter.kind !== 'starter' && kits.length > 0 && <FeaturedKitsCarousel kits={kits} />}

        <section aria-label={label}>
          {products.isError ? (
            <p role="alert" className="rounded-2xl bg-white p-8 text-center text-stone-700">
              We couldn't load the products right now. Please refresh the page.
            </p>
          ) : shown.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-stone-300 bg-white p-10 text-center">
              <p className="text-lg font-semibold text-brand-900">{emptyStateText(filter)}</p>
              <Button asChild variant="link" className="mt-2">
                <Link to="/shop">Browse our complete collection</Link>
              </Button>
            </div>
          ) : (
            <ul className={cn('grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5')}>
              {shown.map((p) => (
                <li key={p.id}>
                  <ProductCard product={p} className="h-full" />
                </li>
              ))}
            </ul>
          )}
        </section>

        <SustainabilityCta />
        <ShopByCategory categories={categoryList} />
      </div>
    </>
  );
}
