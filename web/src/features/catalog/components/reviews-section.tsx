import type { Review } from '@nh/shared/contracts/reviews';
import { BadgeCheck } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { reviewSummary } from '../review-summary';
import { ReviewForm } from './review-form';
import { StarRating } from './star-rating';

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

export function ReviewsSection({
  productId,
  reviews,
  isLoading,
  orderId,
  defaultEmail,
}: {
  productId: number;
  reviews: Review[];
  isLoading: boolean;
  orderId?: string | null;
  defaultEmail?: string | null;
}) {
  const summary = reviewSummary(reviews);
  return (
    <div className="grid gap-8 lg:grid-cols-[20rem_1fr]">
      <div className="space-y-4">
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200" data-testid="rating-summary">
          {summary.rating ? (
            <>
              <p className="text-4xl font-bold text-brand-900">{summary.rating.average.toFixed(1)}</p>
              <StarRating rating={summary.rating.average} size="md" />
              <p className="mt-1 text-sm text-stone-600">
                Based on {summary.rating.count} review{summary.rating.count === 1 ? '' : 's'}
              </p>
            </>
          ) : (
            <p className="text-sm text-stone-600">No rating yet</p>
          )}
          <ul className="mt-4 space-y-1.5">
            {summary.counts.map(({ stars, count }) => (
              <li key={stars} className="flex items-center gap-2 text-sm">
                <span className="w-12 text-stone-700">{stars} star</span>
                <span className="h-2 flex-1 overflow-hidden rounded-full bg-stone-200" role="presentation">
                  <span
                    className="block h-full rounded-full bg-amber-400"
                    style={{ width: `${summary.total === 0 ? 0 : (count / summary.total) * 100}%` }}
                  />
                </span>
                <span className="w-6 text-right tabular-nums text-stone-600">{count}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="space-y-6">
        {isLoading ? (
          <div className="space-y-3">
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : reviews.length === 0 ? (
          <p className="rounded-2xl bg-white p-6 text-stone-600 ring-1 ring-stone-200">
            No reviews yet. Be the first to share your experience!
          </p>
        ) : (
          <ul className="space-y-4" aria-label="Customer reviews">
            {reviews.map((r) => (
              <li key={r.id} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <StarRating rating={r.rating} />
                  {r.title && <h3 className="font-semibold text-brand-900">{r.title}</h3>}
                </div>
                <p className="mt-2 text-stone-700">{r.comment}</p>
                <p className="mt-3 flex flex-wrap items-center gap-2 text-xs text-stone-500">
                  <span className="font-semibold text-stone-700">{r.customerName}</span>
                  {r.verified && (
                    <span className="inline-flex items-center gap-1 font-semibold text-brand-700">
                      <BadgeCheck className="size-3.5" aria-hidden="true" /> Verified Purchase
                    </span>
                  )}
                  <span>{dateFormat.format(new Date(r.createdAt))}</span>
                </p>
              </li>
            ))}
          </ul>
        )}
        <ReviewForm productId={productId} orderId={orderId} defaultEmail={defaultEmail} />
      </div>
    </div>
  );
}
