import { LIMITS, SUBSCRIBE_AND_SAVE_PERCENT } from '@nh/shared/constants';
import { cadenceChoiceWords } from '@nh/shared/contracts/subscriptions';
import { usePlanCadences } from '@/components/plan-cadence/cadences';
import { formatCents, percentOf } from '@nh/shared/money';
import { Leaf, RotateCcw } from 'lucide-react';
import { validPrice, type CatalogProduct } from '../../product-model';
import type { reviewSummary } from '../../review-summary';
import { ProductBadges } from '../product-badges';
import { StarRating } from '../star-rating';

interface Props {
  product: CatalogProduct;
  /** The chosen variant's unit price in cents (null or invalid: not for sale yet). */
  price: number | null | undefined;
  summary: ReturnType<typeof reviewSummary>;
}

/** Badges, name, rating, price (with the Subscribe & Save price), short description and key benefits. */
export function ProductSummary({ product, price, summary }: Props) {
  const purchasable = validPrice(price);
  const cadences = usePlanCadences();
  const subscriptionPrice = purchasable ? price - percentOf(price, SUBSCRIBE_AND_SAVE_PERCENT * 100) : null;
  const compareAt = product.compareAtPrice ? Math.round(Number(product.compareAtPrice) * 100) : null;
  const benefits = (product.benefits.length > 0 ? product.benefits : product.features).slice(0, LIMITS.keyBenefits);

  return (
    <>
      <ProductBadges product={product} className="mb-3 flex flex-wrap gap-1.5" />
      <h1 className="text-3xl font-bold tracking-tight text-brand-900 md:text-4xl">{product.name}</h1>
      <p className="mt-2 flex items-center gap-2 text-sm text-stone-600" data-testid="product-rating">
        {summary.rating ? (
          <>
            <StarRating rating={summary.rating.average} size="md" />
            <span>
              {summary.rating.average.toFixed(1)} ({summary.rating.count} review{summary.rating.count === 1 ? '' : 's'})
            </span>
          </>
        ) : (
          // No reviews, no rating (never a made-up one): docs/decisions/storefront-web.md.
          <span>No reviews yet</span>
        )}
      </p>
      <div className="mt-5 flex items-baseline gap-3">
        <span className="text-3xl font-bold text-stone-900" data-testid="product-price">
          {purchasable ? formatCents(price) : 'Price TBA'}
        </span>
        {purchasable && compareAt !== null && compareAt > price && (
          // stone-500 on white is 4.8:1 (stone-400 was 2.5:1, below WCAG's 4.5:1 for text).
          <span className="text-lg text-stone-500 line-through">
            <span className="sr-only">Regular price </span>
            {formatCents(compareAt)}
          </span>
        )}
      </div>
      {subscriptionPrice !== null && (
        <p
          className="mt-2 inline-flex items-center gap-2 rounded-full bg-brand-100 px-3 py-1 text-sm text-brand-900"
          data-testid="subscription-price"
        >
          <RotateCcw className="size-4" aria-hidden="true" /> Subscribe &amp; Save: <strong>{formatCents(subscriptionPrice)}</strong>{' '}
          ({SUBSCRIBE_AND_SAVE_PERCENT}% off)
        </p>
      )}
      {subscriptionPrice !== null && (
        // The choice itself is made at checkout (the cart holds products, not a plan).
        <p className="mt-1 text-sm text-stone-600" data-testid="subscription-cadences">
          {cadenceChoiceWords(cadences)} with free shipping. Choose at checkout.
        </p>
      )}
      {product.shortDescription && <p className="mt-5 text-lg leading-relaxed text-stone-700">{product.shortDescription}</p>}

      {benefits.length > 0 && (
        <ul className="mt-6 grid gap-2 sm:grid-cols-2" aria-label="Key benefits">
          {benefits.map((b) => (
            <li key={b} className="flex gap-2 text-sm text-stone-700">
              <Leaf className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" /> {b}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
