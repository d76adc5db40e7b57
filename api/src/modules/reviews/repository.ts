import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { tables, type DbOrTx } from '@nh/server';

const { products, reviews, orders } = tables;

export const publicReviewColumns = {
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
