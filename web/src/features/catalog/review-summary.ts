import { ratingOf } from '@nh/shared/contracts/catalog';

/**
 * The product's rating (average to one decimal and count, by the catalogue's `ratingOf`, so the page says
 * what its card says; null without reviews: no rating is shown then) and the counts per star 5→1.
 */
export function reviewSummary(reviews: readonly { rating: number }[]) {
  const counts = [5, 4, 3, 2, 1].map((stars) => ({ stars, count: reviews.filter((r) => r.rating === stars).length }));
  const rating = ratingOf(
    reviews.reduce((s, r) => s + r.rating, 0),
    reviews.length,
  );
  return { rating, total: reviews.length, counts };
}
