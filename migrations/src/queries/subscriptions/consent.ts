/**
 * Consent on record (issue 22): the consent written with a new plan (payments.ts `recordAcceptedPayment`
 * inserts it in the plan's statement), read for the staff plan page; the price-change notices sent.
 * Nothing here deletes: the rows are kept at least three years (docs/decisions/subscriptions.md).
 */
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { subscriptionConsents, subscriptionPriceNotices } from '../../db/schema';

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
