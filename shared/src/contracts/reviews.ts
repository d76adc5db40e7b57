/**
 * Product reviews: the form contract (storefront §5, exact messages; the SPA's review form uses
 * `reviewFormSchema` with its zod resolver), the request the API accepts and the public review shape.
 */
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './newsletter';

export const REVIEW_MESSAGES = {
  rating: 'Please select a rating',
  name: 'Name is required',
  email: 'Valid email is required',
  comment: 'Review must be at least 10 characters',
  nameTooLong: 'Name must be at most 100 characters',
  titleTooLong: 'Title must be at most 150 characters',
  commentTooLong: 'Review must be at most 5000 characters',
  productMismatch: 'The review names a different product than the page it was sent to',
} as const;

export const REVIEW_LIMITS = { nameMax: 100, titleMax: 150, commentMin: 10, commentMax: 5000 } as const;

export const reviewFormSchema = z.object({
  rating: z
    .number({ error: REVIEW_MESSAGES.rating })
    .int({ error: REVIEW_MESSAGES.rating })
    .min(1, REVIEW_MESSAGES.rating)
    .max(5, REVIEW_MESSAGES.rating),
  customerName: z
    .string({ error: REVIEW_MESSAGES.name })
    .trim()
    .min(1, REVIEW_MESSAGES.name)
    .max(REVIEW_LIMITS.nameMax, REVIEW_MESSAGES.nameTooLong),
  customerEmail: z
    .string({ error: REVIEW_MESSAGES.email })
    .trim()
    .max(EMAIL_MAX_LENGTH, REVIEW_MESSAGES.email)
    .regex(EMAIL_PATTERN, REVIEW_MESSAGES.email),
  title: z.string().trim().max(REVIEW_LIMITS.titleMax, REVIEW_MESSAGES.titleTooLong).optional(),
  comment: z
    .string({ error: REVIEW_MESSAGES.comment })
    .trim()
    .min(REVIEW_LIMITS.commentMin, REVIEW_MESSAGES.comment)
    .max(REVIEW_LIMITS.commentMax, REVIEW_MESSAGES.commentTooLong),
});
export type ReviewForm = z.input<typeof reviewFormSchema>;

/** The form's starting values (rating 0 = none chosen yet). */
export const reviewFormDefaults: ReviewForm = { rating: 0, customerName: '', customerEmail: '', title: '', comment: '' };

/**
 * POST /api/products/{id}/reviews. `productId` is optional (the path names the product) and must match
 * when sent. `orderId` comes from the product page's ?orderId= link; it only ever makes a review
 * "verified" when the server finds that order with this product and this email.
 */
export const createReviewRequestSchema = reviewFormSchema.extend({
  title: z.string().trim().max(REVIEW_LIMITS.titleMax, REVIEW_MESSAGES.titleTooLong).nullish(),
  productId: z.coerce.number().int().positive().optional(),
  orderId: z.string().trim().max(64).nullish(),
});
export type CreateReviewRequest = z.input<typeof createReviewRequestSchema>;

/** A published review. The reviewer's email is never published (it only verifies the purchase). */
export const reviewSchema = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  customerName: z.string(),
  rating: z.number().int().min(1).max(5),
  title: z.string().nullable(),
  comment: z.string(),
  verified: z.boolean(),
  createdAt: z.string(),
});
export type Review = z.infer<typeof reviewSchema>;
