/**
 * Product reviews: the form contract (storefront §5, exact messages; the SPA's review form uses
 * `reviewFormSchema` with its zod resolver), the request the API accepts and the public review shape.
 */
import { z } from 'zod';
import { CATALOG_MESSAGES } from './catalog';
import { idField, textField } from './fields';
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

const reviewTitle = textField({ max: REVIEW_LIMITS.titleMax, tooLong: REVIEW_MESSAGES.titleTooLong });

export const reviewFormSchema = z.object({
  rating: z
    .number({ error: REVIEW_MESSAGES.rating })
    .int({ error: REVIEW_MESSAGES.rating })
    .min(1, REVIEW_MESSAGES.rating)
    .max(5, REVIEW_MESSAGES.rating),
  customerName: textField({ max: REVIEW_LIMITS.nameMax, required: REVIEW_MESSAGES.name, tooLong: REVIEW_MESSAGES.nameTooLong }).min(1, REVIEW_MESSAGES.name),
  customerEmail: textField({ max: EMAIL_MAX_LENGTH, required: REVIEW_MESSAGES.email, tooLong: REVIEW_MESSAGES.email }).regex(EMAIL_PATTERN, REVIEW_MESSAGES.email),
  title: reviewTitle.optional(),
  comment: textField({ max: REVIEW_LIMITS.commentMax, required: REVIEW_MESSAGES.comment, tooLong: REVIEW_MESSAGES.commentTooLong, multiline: true }).min(
    REVIEW_LIMITS.commentMin,
    REVIEW_MESSAGES.comment,
  ),
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
  title: reviewTitle.nullish(),
  productId: z.coerce.number().pipe(idField(CATALOG_MESSAGES.badProductId, CATALOG_MESSAGES.productNotFound)).optional(),
  orderId: textField({ max: 64 }).nullish(),
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
