import { LIMITS, SHOP } from '@nh/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { Leaf, Recycle, ShieldCheck, Sparkles } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { categoryHeroImage, Hero } from '@/components/hero';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import type { Prefetch } from '@/lib/prefetch';
import { ApiError } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { productsQuery } from '@/lib/catalog-queries';
import { categoryQuery } from '../api';
import { Breadcrumb } from '../components/breadcrumb';
import { NotFoundPanel } from '../components/not-found-panel';
import { ProductCard, ProductCardSkeleton } from '../components/product-card';
import { toCatalogProduct } from '../product-model';
import { productCountLabel } from '../shop-filter';

const WHY = [
  {
    Icon: ShieldCheck,
    title: 'Family-safe formulas',
    text: 'No bleach, ammonia, phosphates or synthetic dyes: safe around kids and pets.',
  },
  { Icon: Sparkles, title: 'Probiotic power', text: 'Beneficial bacteria keep breaking down grime and odors long after you clean.' },
  {
    Icon: Leaf,
    title: 'Plant-based and EWG-rated',
    text: 'Every ingredient is disclosed, with its safety rating on our ingredients page.',
  },
  { Icon: Recycle, title: 'Ocean-friendly', text: 'Biodegradable formulas and recyclable, refillable packaging.' },
];

export const prefetch: Prefetch = (queryClient, { categorySlug = '' }) =>
  Promise.all([queryClient.prefetchQuery(categoryQuery(categorySlug)), queryClient.prefetchQuery(productsQuery)]);

export default function CategoryPage() {
  const slug = useParams().categorySlug ?? '';
  const category = useQuery(categoryQuery(slug));
  const products = useQuery(productsQuery);
  const inCategory = useMemo(
    () =>
      (products.data ?? [])
        .map(toCatalogProduct)
        .filter((p) => p.category?.slug === slug)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [products.data, slug],
  );
  const name = category.data?.name ?? 'Category';
  usePageMeta({
    title: `${name} | ${SHOP.name}`,
    description: category.data?.description ?? `Shop ${name} products from ${SHOP.name}.`,
    canonical: `/category/${slug}`,
  });

  if (category.isLoading) {
    return (
      <div aria-busy="true" aria-label="Loading category">
        <Skeleton className="h-[360px] w-full rounded-none md:h-[440px]" />
        <div className="mx-auto grid max-w-7xl grid-cols-2 gap-4 px-4 py-10 sm:px-6 md:grid-cols-3 lg:grid-cols-4 lg:px-8 xl:grid-cols-5">
          {Array.from({ length: LIMITS.placeholders.shop }, (_, i) => (
            <ProductCardSkeleton key={i} />
          ))}
        </div>
      </div>
    );
  }
  if (category.isError || !category.data) {
    if (category.error instanceof ApiError && category.error.status !== 404) console.error('Category could not be loaded', category.error);
    return <NotFoundPanel title="Category Not Found" message="The category you're looking for doesn't exist." />;
  }

  const c = category.data;
  return (
    <>
      <Hero
        image={categoryHeroImage(c.slug)}
        overlay="black"
        title={c.name}
        subtitle={c.description ?? undefined}
        actions={[
          { label: 'Shop All Products', to: '/shop' },
          { label: 'Shop Starter Kits', to: '/shop?filter=starter' },
        ]}
      />
      <div className="mx-auto max-w-7xl space-y-14 px-4 py-10 sm:px-6 lg:px-8">
        <div>
          <Breadcrumb items={[{ label: 'Home', to: '/' }, { label: 'Shop', to: '/shop' }, { label: c.name }]} />
          <div className="mt-4 flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-3xl font-bold tracking-tight text-brand-900">{c.name} Products</h2>
            {!products.isLoading && (
              <p className="text-stone-600" data-testid="product-count">
                {productCountLabel(inCategory.length)}
              </p>
            )}
          </div>
        </div>
        <section aria-label={`${c.name} products`}>
          {products.isLoading ? (
            <div className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
              {Array.from({ length: LIMITS.placeholders.shop }, (_, i) => (
                <ProductCardSkeleton key={i} />
              ))}
            </div>
          ) : inCategory.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-stone-300 bg-white p-10 text-center">
              <p className="text-lg font-semibold text-brand-900">No products found in this category</p>
              <Button asChild className="mt-4">
                <Link to="/shop">Browse All Products</Link>
              </Button>
            </div>
          ) : (
            <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
              {inCategory.map((p) => (
                <li key={p.id}>
                  <ProductCard product={p} className="h-full" />
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="why-heading" className="rounded-3xl bg-white p-8 shadow-sm ring-1 ring-stone-200 md:p-12">
          <h2 id="why-heading" className="text-2xl font-bold text-brand-900 md:text-3xl">
            Why Choose {SHOP.name} {c.name}?
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {WHY.map(({ Icon, title, text }) => (
              <li key={title}>
                <span className="flex size-11 items-center justify-center rounded-full bg-brand-100 text-brand-700">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-3 font-semibold text-brand-900">{title}</h3>
                <p className="mt-1 text-sm text-stone-600">{text}</p>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </>
  );
}
