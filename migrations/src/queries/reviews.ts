/**
 * Product reviews: the storefront's (a product's visible reviews, a new review and whether its order
 * verifies it) and the back office's moderation (the list, hide and show, delete).
 */
import { and, count, desc, eq, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { AdminReviewsQuery } from '@nh/shared/contracts/admin-reviews';
import type { Db, DbOrTx } from '../db/client';
import { orders, products, reviews } from '../db/schema';

const publicReviewColumns = {
  id: reviews.id,
  productId: reviews.productId,
  customerName: reviews.customerName,
  rating: reviews.rating,
  title: reviews.title,
  comment: reviews.comment,
  verified: reviews.verified,
  createdAt: reviews.createdAt,
};

/**
 * The product's reviews, newest first, in one statement: the product row is always there when the
 * product exists (with `review` null when it has no reviews); no rows at all means no such product.
 */
export const productWithReviews = (db: DbOrTx, productId: number) =>
  db
    .select({ productId: products.id, review: publicReviewColumns })
    .from(products)
    // Hidden reviews (moderation) are not shown.
    .leftJoin(reviews, and(eq(reviews.productId, products.id), isNull(reviews.hiddenAt)))
    .where(eq(products.id, productId))
    .orderBy(desc(reviews.createdAt), desc(reviews.id));

export async function productExists(db: DbOrTx, productId: number): Promise<boolean> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
  return row !== undefined;
}

/**
 * True when order `orderId` was placed with `email` (any letter case), contains `productId` among its
 * line items and was not cancelled.
 */
export async function orderHasProductForEmail(db: DbOrTx, orderId: string, productId: number, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.id, orderId),
        eq(sql`lower(${orders.customerEmail})`, email.toLowerCase()),
        sql`${orders.items} @> ${JSON.stringify([{ productId }])}::jsonb`,
        ne(orders.status, 'cancelled'),
      ),
    );
  return row !== undefined;
}

export async function insertReview(db: DbOrTx, values: typeof reviews.$inferInsert) {
  const [row] = await db.insert(reviews).values(values).returning(publicReviewColumns);
  return row!;
}

// ---------------------------------------------------------------- moderation
const moderatedColumns = {
  id: reviews.id,
  productId: reviews.productId,
  productName: products.name,
  customerName: reviews.customerName,
  customerEmail: reviews.customerEmail,
  rating: reviews.rating,
  title: reviews.title,
  comment: reviews.comment,
  verified: reviews.verified,
  hiddenAt: reviews.hiddenAt,
  createdAt: reviews.createdAt,
};

/** A review as moderation sees it: with its product's name and when it was hidden. */
export interface ModeratedReviewRow {
  id: number;
  productId: number;
  productName: string;
  customerName: string;
  customerEmail: string;
  rating: number;
  title: string | null;
  comment: string;
  verified: boolean;
  hiddenAt: Date | null;
  createdAt: Date;
}

/** A page of reviews, newest first, filtered by visibility, product and rating, and how many match. */
export async function listModeratedReviews(db: Db, q: AdminReviewsQuery): Promise<{ rows: ModeratedReviewRow[]; total: number }> {
  const where: SQL | undefined = and(
    q.show === 'visible' ? isNull(reviews.hiddenAt) : q.show === 'hidden' ? isNotNull(reviews.hiddenAt) : undefined,
    q.productId ? eq(reviews.productId, q.productId) : undefined,
    q.rating ? eq(reviews.rating, q.rating) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select(moderatedColumns).from(reviews).innerJoin(products, eq(products.id, reviews.productId)).where(where).orderBy(desc(reviews.createdAt), desc(reviews.id)).limit(q.limit).offset(q.offset),
    db.select({ n: count() }).from(reviews).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** The review locked for a change (its row only, not its product's), or null. */
export async function lockModeratedReview(tx: DbOrTx, id: number): Promise<ModeratedReviewRow | null> {
  const [row] = await tx.select(moderatedColumns).from(reviews).innerJoin(products, eq(products.id, reviews.productId)).where(eq(reviews.id, id)).for('update', { of: reviews });
  return row ?? null;
}

export async function setReviewHiddenAt(tx: DbOrTx, id: number, hiddenAt: Date | null): Promise<void> {
  await tx.update(reviews).set({ hiddenAt }).where(eq(reviews.id, id));
}

export async function deleteReviewRow(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(reviews).where(eq(reviews.id, id));
}
