/**
 * Review moderation: the list (newest first, filtered by visibility, product and rating), hide and show
 * (a hidden review leaves the storefront and its product's rating at once), delete. Each change writes
 * its audit row in its transaction.
 */
import { and, count, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { recordAudit, tables, type AuditActor, type Db } from '@nh/server';
import { ADMIN_REVIEW_MESSAGES, type AdminReview, type AdminReviewsPage, type AdminReviewsQuery } from '@nh/shared/contracts/admin-reviews';
import { AppError } from '../../../lib/errors';

const { reviews, products } = tables;

const columns = {
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

interface Row {
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

const toReview = ({ hiddenAt, createdAt, ...r }: Row): AdminReview => ({ ...r, hidden: hiddenAt !== null, createdAt: createdAt.toISOString() });

export async function listReviewsForModeration(db: Db, q: AdminReviewsQuery): Promise<AdminReviewsPage> {
  const where: SQL | undefined = and(
    q.show === 'visible' ? isNull(reviews.hiddenAt) : q.show === 'hidden' ? isNotNull(reviews.hiddenAt) : undefined,
    q.productId ? eq(reviews.productId, q.productId) : undefined,
    q.rating ? eq(reviews.rating, q.rating) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select(columns).from(reviews).innerJoin(products, eq(products.id, reviews.productId)).where(where).orderBy(desc(reviews.createdAt), desc(reviews.id)).limit(q.limit).offset(q.offset),
    db.select({ n: count() }).from(reviews).where(where),
  ]);
  return { reviews: rows.map(toReview), total: total?.n ?? 0 };
}

async function lockReview(tx: Parameters<Parameters<Db['transaction']>[0]>[0], id: number): Promise<Row> {
  const [row] = await tx.select(columns).from(reviews).innerJoin(products, eq(products.id, reviews.productId)).where(eq(reviews.id, id)).for('update', { of: reviews });
  if (!row) throw new AppError('NOT_FOUND', ADMIN_REVIEW_MESSAGES.notFound);
  return row;
}

/** Hides (true) or shows (false) a review; setting what already holds changes and records nothing. */
export async function setReviewHidden(db: Db, id: number, hidden: boolean, actor: AuditActor): Promise<AdminReview> {
  return db.transaction(async (tx) => {
    const before = await lockReview(tx, id);
    if ((before.hiddenAt !== null) === hidden) return toReview(before);
    const hiddenAt = hidden ? new Date() : null;
    await tx.update(reviews).set({ hiddenAt }).where(eq(reviews.id, id));
    await recordAudit(tx, actor, { action: hidden ? 'review.hidden' : 'review.shown', entityType: 'review', entityId: String(id), before: { hidden: !hidden }, after: { hidden } });
    return toReview({ ...before, hiddenAt });
  });
}

export async function deleteReview(db: Db, id: number, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockReview(tx, id);
    await tx.delete(reviews).where(eq(reviews.id, id));
    const { hiddenAt, createdAt, ...kept } = before;
    await recordAudit(tx, actor, { action: 'review.deleted', entityType: 'review', entityId: String(id), before: { ...kept, hidden: hiddenAt !== null, createdAt: createdAt.toISOString() }, after: null });
  });
}
