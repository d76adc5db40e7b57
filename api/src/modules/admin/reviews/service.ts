/**
 * Review moderation: the list (newest first, filtered by visibility, product and rating), hide and show
 * (a hidden review leaves the storefront and its product's rating at once), delete. Each change writes
 * its audit row in its transaction.
 */
import type { Db, DbOrTx } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { deleteReviewRow, listModeratedReviews, lockModeratedReview, setReviewHiddenAt, type ModeratedReviewRow } from '@nh/server/queries/reviews';
import { ADMIN_REVIEW_MESSAGES, type AdminReview, type AdminReviewsPage, type AdminReviewsQuery } from '@nh/shared/contracts/admin-reviews';
import { AppError } from '../../../lib/errors';

const toReview = ({ hiddenAt, createdAt, ...r }: ModeratedReviewRow): AdminReview => ({ ...r, hidden: hiddenAt !== null, createdAt: createdAt.toISOString() });

export async function listReviewsForModeration(db: Db, q: AdminReviewsQuery): Promise<AdminReviewsPage> {
  const { rows, total } = await listModeratedReviews(db, q);
  return { reviews: rows.map(toReview), total };
}

async function lockReview(tx: DbOrTx, id: number): Promise<ModeratedReviewRow> {
  const row = await lockModeratedReview(tx, id);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_REVIEW_MESSAGES.notFound);
  return row;
}

/** Hides (true) or shows (false) a review; setting what already holds changes and records nothing. */
export async function setReviewHidden(db: Db, id: number, hidden: boolean, actor: AuditActor): Promise<AdminReview> {
  return db.transaction(async (tx) => {
    const before = await lockReview(tx, id);
    if ((before.hiddenAt !== null) === hidden) return toReview(before);
    const hiddenAt = hidden ? new Date() : null;
    await setReviewHiddenAt(tx, id, hiddenAt);
    await recordAudit(tx, actor, { action: hidden ? 'review.hidden' : 'review.shown', entityType: 'review', entityId: String(id), before: { hidden: !hidden }, after: { hidden } });
    return toReview({ ...before, hiddenAt });
  });
}

export async function deleteReview(db: Db, id: number, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockReview(tx, id);
    await deleteReviewRow(tx, id);
    const { hiddenAt, createdAt, ...kept } = before;
    await recordAudit(tx, actor, { action: 'review.deleted', entityType: 'review', entityId: String(id), before: { ...kept, hidden: hiddenAt !== null, createdAt: createdAt.toISOString() }, after: null });
  });
}
