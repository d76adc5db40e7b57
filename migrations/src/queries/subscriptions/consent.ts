/**
 * Consent on record (issue 22): the consent written with a new plan (payments.ts `recordAcceptedPayment`
 * inserts it in the plan's statement), read for the staff plan page; the price-change notices sent.
 * Nothing here deletes: the rows are kept at least three years (docs/decisions/subscriptions.md).
 */
import { and, desc, eq, gt, inArray, isNotNull, ne } from 'drizzle-orm';
import type { Cents } from '@nh/shared/money';
import type { DbOrTx } from '../../db/client';
import { subscriptionConsents, subscriptionPriceNotices, subscriptions } from '../../db/schema';

export type ConsentRow = typeof subscriptionConsents.$inferSelect;
export type PriceNoticeRow = typeof subscriptionPriceNotices.$inferSelect;

/** The consent given when the plan was made; null for a plan from before consents were kept. */
export async function findPlanConsent(db: DbOrTx, subscriptionId: string): Promise<ConsentRow | null> {
  const [row] = await db.select().from(subscriptionConsents).where(eq(subscriptionConsents.subscriptionId, subscriptionId));
  return row ?? null;
}

/** The plan's price-change notices, newest first. */
export async function listPriceNotices(db: DbOrTx, subscriptionId: string): Promise<PriceNoticeRow[]> {
  return db
    .select()
    .from(subscriptionPriceNotices)
    .where(eq(subscriptionPriceNotices.subscriptionId, subscriptionId))
    .orderBy(desc(subscriptionPriceNotices.id));
}

/**
 * Plans whose price per delivery differs from the one agreed (active or paused; plans from before the
 * agreed price was kept have none and are left out): the price-change sweep's candidates, one keyset page
 * of at most `limit` ids after `after` (by id).
 */
export async function findPriceChangeCandidates(db: DbOrTx, after: string | null = null, limit = 1000): Promise<string[]> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        inArray(subscriptions.status, ['active', 'paused']),
        isNotNull(subscriptions.agreedAmount),
        ne(subscriptions.amount, subscriptions.agreedAmount),
        after === null ? undefined : gt(subscriptions.id, after),
      ),
    )
    .orderBy(subscriptions.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Records a notice sent for a plan (in the plan change's transaction); answers its id. */
export async function insertPriceNotice(tx: DbOrTx, notice: { subscriptionId: string; fromAmount: Cents; toAmount: Cents; firstChargeOn: string }): Promise<number> {
  const [row] = await tx.insert(subscriptionPriceNotices).values(notice).returning({ id: subscriptionPriceNotices.id });
  return row!.id;
}

/** One notice, for its email. */
export async function findPriceNotice(db: DbOrTx, id: number): Promise<PriceNoticeRow | null> {
  const [row] = await db.select().from(subscriptionPriceNotices).where(eq(subscriptionPriceNotices.id, id));
  return row ?? null;
}
