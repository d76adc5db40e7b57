import { z } from 'zod';
import type { CreateReviewRequest, Review } from '@nh/shared/contracts/reviews';
import type { createReviewRequestSchema } from '@nh/shared/contracts/reviews';
import type { DbOrTx } from '@nh/server/db/client';
import * as reviewQueries from '@nh/server/queries/reviews';

type ReviewRow = Awaited<ReturnType<typeof reviewQueries.insertReview>>;
export type ParsedReview = z.output<typeof createReviewRequestSchema>;
export type { CreateReviewRequest };

const isUuid = (value: string) => z.uuid().safeParse(value).success;

export const toReview = (row: ReviewRow): Review => ({ ...row, createdAt: row.createdAt.toISOString() });

/** Reviews of a product, newest first; undefined when the product does not exist. */
export async function listReviews(db: DbOrTx, productId: number): Promise<Review[] | undefined> {
  const rows = await reviewQueries.productWithReviews(db, productId);
  if (rows.length === 0) return undefined;
  return rows.flatMap((r) => (r.review ? [toReview(r.review)] : []));
}

/**
 * Stores a review. It is "verified" only when the server itself finds the order named by `orderId`
 * with this product and this email; an unknown, foreign or malformed orderId still stores the review,
 * unverified (the visitor did nothing wrong by following a link). Undefined: no such product.
 */
export async function submitReview(db: DbOrTx, productId: number, input: ParsedReview): Promise<Review | undefined> {
  if (!(await reviewQueries.productExists(db, productId))) return undefined;
  const orderId = input.orderId && isUuid(input.orderId) ? input.orderId.toLowerCase() : null;
  const verified = orderId !== null && (await reviewQueries.orderHasProductForEmail(db, orderId, productId, input.customerEmail));
  const row = await reviewQueries.insertReview(db, {
    productId,
    customerName: input.customerName,
    customerEmail: input.customerEmail,
    rating: input.rating,
    title: input.title ? input.title : null,
    comment: input.comment,
    verified,
    orderId: verified ? orderId : null,
  });
  return toReview(row);
}
