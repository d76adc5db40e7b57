import { DEFAULT_RATING_WHEN_NO_REVIEWS } from '@nh/shared/constants';

/** Average rating (one decimal) and counts per star 5→1; 4.8 when there are no reviews. */
export function reviewSummary(reviews: readonly { rating: number }[]) {
  const counts = [5, 4, 3, 2, 1].map((stars) => ({ stars, count: reviews.filter((r) => r.rating === stars).length }));
  const average =
    reviews.length === 0
      ? DEFAULT_RATING_WHEN_NO_REVIEWS
      : Math.round((reviews.reduce((s, r) => s + r.rating, 0) / reviews.length) * 10) / 10;
  return { average, total: reviews.length, counts };
}
