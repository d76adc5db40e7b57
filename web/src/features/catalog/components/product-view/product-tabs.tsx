import type { Review } from '@nh/shared/contracts/reviews';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { CatalogProduct } from '../../product-model';
import { CheckList } from './check-list';
import { DescriptionPanel } from './description-panel';
import { ShippingPanel } from './shipping-panel';

// The Reviews tab's form brings zod, the review schemas and react-hook-form (about 40 KB gzipped): they
// load when the tab opens, not with every product page (Lighthouse's mobile run on the product page).
const ReviewsSection = lazy(() => import('../reviews-section').then((m) => ({ default: m.ReviewsSection })));

const PANEL = 'rounded-2xl bg-white p-6 text-stone-700 shadow-sm ring-1 ring-stone-200 md:p-8';

interface Props {
  product: CatalogProduct;
  reviews: Review[];
  reviewsLoading: boolean;
  /** The order a review link came from (`?orderId=`), for a verified-purchase review. */
  orderId: string | null;
  /** The signed-in shopper's email, to fill the review form. */
  defaultEmail: string | null | undefined;
}

/** Description, Ingredients, Reviews (with their count) and Shipping. */
export function ProductTabs({ product, reviews, reviewsLoading, orderId, defaultEmail }: Props) {
  return (
    <Tabs defaultValue="description" className="mt-16">
      {/* The panels' headings are h3s: this h2 keeps the outline in order after the product's h1. */}
      <h2 className="sr-only">Product details</h2>
      <TabsList>
        <TabsTrigger value="description">Description</TabsTrigger>
        <TabsTrigger value="ingredients">Ingredients</TabsTrigger>
        <TabsTrigger value="reviews">Reviews ({reviews.length})</TabsTrigger>
        <TabsTrigger value="shipping">Shipping</TabsTrigger>
      </TabsList>
      <TabsContent value="description" className="rounded-2xl bg-white p-6 leading-relaxed text-stone-700 shadow-sm ring-1 ring-stone-200 md:p-8">
        <DescriptionPanel product={product} />
      </TabsContent>
      <TabsContent value="ingredients" className={PANEL}>
        {product.ingredients.length > 0 ? <CheckList items={product.ingredients} /> : <p>Full ingredient list coming soon.</p>}
        <p className="mt-4 text-sm">
          See every ingredient's EWG safety rating on our{' '}
          <Link to="/ingredients" className="font-semibold text-brand-700 underline">
            ingredients page
          </Link>
          .
        </p>
      </TabsContent>
      <TabsContent value="reviews">
        <Suspense fallback={<Skeleton className="h-48 w-full rounded-2xl" />}>
          <ReviewsSection productId={product.id} reviews={reviews} isLoading={reviewsLoading} orderId={orderId} defaultEmail={defaultEmail} />
        </Suspense>
      </TabsContent>
      <TabsContent value="shipping" className={PANEL}>
        <ShippingPanel />
      </TabsContent>
    </Tabs>
  );
}
