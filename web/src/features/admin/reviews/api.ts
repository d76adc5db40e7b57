/** Review moderation: GET /api/admin/reviews (filters, paged), POST /{id}/hide, /{id}/show, DELETE /{id}; each audited. */
import type { AdminReview, AdminReviewsPage, ReviewVisibility } from '@nh/shared/contracts/admin-reviews';
import { apiRequest } from '@/lib/query-client';

export const REVIEWS_PAGE_SIZE = 50;

export interface ReviewFilters {
  show: ReviewVisibility;
  /** '' for any product. */
  productId: string;
  /** '' for any rating, else 1 to 5. */
  rating: string;
  offset: number;
}

export const reviewKeys = {
  all: ['admin', 'reviews'] as const,
  list: (filters: ReviewFilters) => ['admin', 'reviews', filters] as const,
};

export async function listReviews(filters: ReviewFilters): Promise<AdminReviewsPage> {
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
