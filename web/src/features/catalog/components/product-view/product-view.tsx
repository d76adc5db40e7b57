import { SHOP } from '@nh/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '@/lib/auth';
import { usePageMeta } from '@/lib/use-page-meta';
import { productsQuery } from '@/lib/catalog-queries';
import { relatedProductsQuery, reviewsQuery } from '../../api';
import { toCatalogProduct, unitPriceCents, type CatalogProduct } from '../../product-model';
import { reviewSummary } from '../../review-summary';
import { Breadcrumb } from '../breadcrumb';
import { KitContents } from './kit-contents';
import { ProductGallery } from './product-gallery';
import { ProductPromises } from './product-promises';
import { ProductSummary } from './product-summary';
import { ProductTabs } from './product-tabs';
import { PurchaseBox } from './purchase-box';
import { RelatedProductsSection } from './related-products-section';

/**
 * One product's page, section by section: JSON-LD, breadcrumb, gallery beside the summary and purchase
 * box, a starter kit's contents, the tabs, related products. Holds the chosen variant (its price shows
 * in the summary and goes to the cart) and the product's reviews (summary, tabs and JSON-LD).
 */
export function ProductView({ product }: { product: CatalogProduct }) {
  const [params] = useSearchParams();
  const { user } = useAuth();
  const [variantSku, setVariantSku] = useState<string | null>(product.variants[0]?.sku ?? null);
  const variant = product.variants.find((v) => v.sku === variantSku) ?? product.variants[0] ?? null;
  const reviews = useQuery(reviewsQuery(product.id));
  const reviewList = useMemo(() => reviews.data ?? [], [reviews.data]);
  const related = useQuery(relatedProductsQuery(product));
  const relatedList = useMemo(() => (related.data ?? []).map(toCatalogProduct), [related.data]);
  // Only a starter kit needs the catalogue (to name its contents); other products never load it.
  const catalog = useQuery({ ...productsQuery, enabled: product.isStarterKit });
  const all = useMemo(() => (catalog.data ?? []).map(toCatalogProduct), [catalog.data]);
  const price = unitPriceCents(product, variant);

  usePageMeta({
    title: `${product.name} | ${SHOP.name}`,
    description: product.shortDescription ?? product.description ?? undefined,
    canonical: `/product/${product.slug}`,
  });

  return (
    <>
      <div className="mx-auto max-w-7xl px-4 pb-16 pt-24 sm:px-6 md:pt-28 lg:px-8">
        <Breadcrumb
          className="mb-6"
          items={[
            { label: 'Home', to: '/' },
            { label: 'Shop', to: '/shop' },
            ...(product.category ? [{ label: product.category.name, to: `/category/${product.category.slug}` }] : []),
            { label: product.name },
          ]}
        />
        <div className="grid gap-10 md:grid-cols-2 lg:gap-16">
          <ProductGallery images={product.images} name={product.name} />
          <div>
            <ProductSummary product={product} price={price} summary={reviewSummary(reviewList)} />
            <PurchaseBox product={product} variant={variant} onVariantChange={setVariantSku} price={price} />
            <ProductPromises />
          </div>
        </div>

        {product.isStarterKit && (
          <div className="mt-16">
            <KitContents product={product} all={all} />
          </div>
        )}

        <ProductTabs
          product={product}
          reviews={reviewList}
          reviewsLoading={reviews.isLoading}
          orderId={params.get('orderId')}
          defaultEmail={user?.email}
        />

        <RelatedProductsSection products={relatedList} />
      </div>
    </>
  );
}
