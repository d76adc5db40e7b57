/**
 * The links staff email a customer to give a plan a new card (plan_card_links): single use, only the
 * token's SHA-256 stored, the token made by the mail worker as it sends the email (../single-use-tokens.ts).
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx } from '../../db/client';
import { planCardLinks, type SubscriptionRow } from '../../db/schema';
import { unsentTokenHash } from '../single-use-tokens';
import { PLAN_CARD_COLUMNS, PLAN_CARD_JOIN } from './plan';

export type PlanCardLinkRow = typeof planCardLinks.$inferSelect;

/**
 * A new link for the plan, in the caller's transaction (the plan locked): the plan's earlier open links
 * stop working (expired now), so only the latest email's link changes the card.
 */
export async function insertPlanCardLink(tx: DbOrTx, values: { subscriptionId: string; email: string; createdBy: string | null; expiresAt: Date }): Promise<PlanCardLinkRow> {
  await tx
    .update(planCardLinks)
    .set({ expiresAt: sql`least(${planCardLinks.expiresAt}, now())` })
    .where(and(eq(planCardLinks.subscriptionId, values.subscriptionId), isNull(planCardLinks.usedAt), gt(planCardLinks.expiresAt, sql`now()`)));
  const [row] = await tx
    .insert(planCardLinks)
    .values({ ...values, tokenHash: unsentTokenHash() })
    .returning();
  return row!;
}

export async function findPlanCardLinkById(db: DbOrTx, id: string): Promise<PlanCardLinkRow | null> {
  const [row] = await db.select().from(planCardLinks).where(eq(planCardLinks.id, id));
  return row ?? null;
}

/** A link by its token's hash, with what the page shows of its plan (its card as brand and last four only). */
export interface PlanCardLinkWithPlan {
  id: string;
  subscription_id: string;
  expires_at: Date;
  used_at: Date | null;
  user_id: string | null;
  status: SubscriptionRow['status'];
  items: SubscriptionRow['items'];
  amount: string;
  interval: SubscriptionRow['interval'];
  interval_count: number;
  next_billing_date: Date;
  failed_attempts: number;
  has_stored_card: boolean;
  card_type: string | null;
  card_last_four: string | null;
}

export async function findPlanCardLink(pool: pg.Pool, tokenHash: string): Promise<PlanCardLinkWithPlan | null> {
  const { rows } = await pool.query<PlanCardLinkWithPlan>({
    name: 'plan_card_link_by_hash',
    text: `select l.id, l.subscription_id, l.expires_at, l.used_at, s.user_id, s.status, s.items, s.amount::text as amount, s.interval, s.interval_count,
             s.next_billing_date, s.failed_attempts,
             (s.authnet_customer_profile_id is not null and s.authnet_payment_profile_id is not null) as has_stored_card, ${PLAN_CARD_COLUMNS}
           from plan_card_links l join subscriptions s on s.id = l.subscription_id ${PLAN_CARD_JOIN}
           where l.token_hash = $1`,
    values: [tokenHash],
  });
  return rows[0] ?? null;
}
