/** Review moderation: GET /api/admin/reviews (filters, paged), POST /{id}/hide, /{id}/show, DELETE /{id}; each audited. */
import type { AdminReview, AdminReviewsPage, ReviewVisibility } from '@nh/shared/contracts/admin-reviews';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';

export const REVIEWS_PAGE_SIZE = 50;

export interface ReviewFilters {
  show: ReviewVisibility;
  /** '' for any product. */
  productId: string;
  /** '' for any rating, else 1 to 5. */
  rating: string;
  offset: number;
}

async function listReviews(filters: ReviewFilters): Promise<AdminReviewsPage> {
  const params = new URLSearchParams({ show: filters.show, limit: String(REVIEWS_PAGE_SIZE), offset: String(filters.offset) });
  if (filters.productId) params.set('productId', filters.productId);
  if (filters.rating) params.set('rating', filters.rating);
  return (await (await apiRequest('GET', `/api/admin/reviews?${params.toString()}`)).json()) as AdminReviewsPage;
}

export const setReviewHidden = async (id: number, hidden: boolean) =>
  (await (await apiRequest('POST', `/api/admin/reviews/${id}/${hidden ? 'hide' : 'show'}`, {})).json()) as AdminReview;

export const deleteReview = async (id: number): Promise<void> => {
  await apiRequest('DELETE', `/api/admin/reviews/${id}`);
};

const REVIEWS = [...ADMIN_KEY, 'reviews'] as const;

export const reviewQueries = {
  /** Every page of reviews (what to read again after a review changed). */
  all: REVIEWS,
  list: (filters: ReviewFilters) => queryOptions({ queryKey: [...REVIEWS, filters], queryFn: () => listReviews(filters), staleTime: 0 }),
};
