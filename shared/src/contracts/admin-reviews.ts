/** Review moderation in the back office: GET /api/admin/reviews, hide, show, delete (each audited). */
import { z } from 'zod';

export const REVIEW_VISIBILITIES = ['all', 'visible', 'hidden'] as const;
export type ReviewVisibility = (typeof REVIEW_VISIBILITIES)[number];
export const REVIEW_VISIBILITY_LABELS: Record<ReviewVisibility, string> = { all: 'All reviews', visible: 'Shown on the shop', hidden: 'Hidden' };

export const ADMIN_REVIEW_MESSAGES = {
  notFound: 'Review not found',
  visibility: 'Show must be all, visible or hidden',
  rating: 'Rating must be a whole number from 1 to 5',
  productId: 'Product id must be a positive whole number',
  pageLimit: 'Limit must be a whole number from 1 to 100',
  pageOffset: 'Offset must be a whole number of at least 0',
  hidden: 'Review hidden from the shop',
  shown: 'Review shown on the shop',
  deleted: 'Review deleted',
} as const;

const queryInt = (message: string, min: number, max: number) => z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

export const adminReviewsQuerySchema = z.object({
  show: z.preprocess(blankToUndefined, z.enum(REVIEW_VISIBILITIES, { error: ADMIN_REVIEW_MESSAGES.visibility }).default('all')),
  productId: z.preprocess(blankToUndefined, queryInt(ADMIN_REVIEW_MESSAGES.productId, 1, 2_147_483_647).optional()),
  rating: z.preprocess(blankToUndefined, queryInt(ADMIN_REVIEW_MESSAGES.rating, 1, 5).optional()),
  limit: queryInt(ADMIN_REVIEW_MESSAGES.pageLimit, 1, 100).default(50),
  offset: queryInt(ADMIN_REVIEW_MESSAGES.pageOffset, 0, 10_000_000).default(0),
});
export type AdminReviewsQuery = z.infer<typeof adminReviewsQuerySchema>;

export const adminReviewSchema = z.object({
  id: z.number(),
  productId: z.number(),
  productName: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  rating: z.number(),
  title: z.string().nullable(),
  comment: z.string(),
  verified: z.boolean(),
  hidden: z.boolean(),
  createdAt: z.string(),
});
export type AdminReview = z.infer<typeof adminReviewSchema>;
export const adminReviewsPageSchema = z.object({ reviews: z.array(adminReviewSchema), total: z.number() });
export type AdminReviewsPage = z.infer<typeof adminReviewsPageSchema>;
