/**
 * A change to a plan, by staff in the back office or by its shopper on My Subscriptions: the plan row
 * locked FOR UPDATE — the same lock the renewal takes (renewals.ts lockSubscription), so the two never
 * both apply — with what the change's rules read beside it, then the change written with any billing
 * periods it skips, in the caller's transaction.
 */
import { and, eq, sql } from 'drizzle-orm';
import { billingPeriodOf, type SkippedPeriodReason } from '@nh/shared/contracts/subscriptions';
import type { DbOrTx } from '../../db/client';
import { paymentTransactions, subscriptions, subscriptionSkippedPeriods, type SubscriptionRow } from '../../db/schema';
import { TODAY_SQL } from './plan';

/** A plan locked for a change (staff or its shopper), with what the change's rules read beside it. */
export interface LockedPlan {
  row: SubscriptionRow;
  /** Start of today (UTC) by the database's clock. */
  today: Date;
  /**
   * The charge row of the period the plan is on (its next billing date), if any: its status and the
   * payment service's words. Pending without words: the renewal's charge is in flight; pending with them:
   * its answer was held for review or lost, and staff check it (payment-in-flight.ts).
   */
  periodCharge: PeriodCharge | null;
}

/** A period's charge row as the plan rules read it. */
export type PeriodCharge = Pick<typeof paymentTransactions.$inferSelect, 'status' | 'responseMessage'>;

/**
 * Locks the plan row FOR UPDATE in the caller's transaction — the renewal's lock (lockSubscription): a
 * renewal that holds it is waited for, and one that comes later waits for the change and then judges
 * the row as the change left it (status, next billing date, period, card, items). With `ownerId`, only
 * that user's plan (a shopper's change): anyone else's is not found.
 */
export async function lockPlanForChange(tx: DbOrTx, id: string, ownerId?: string): Promise<LockedPlan | null> {
  const [found] = await tx
    .select({ row: subscriptions, today: sql<string>`${sql.raw(TODAY_SQL)}` })
    .from(subscriptions)
    .where(ownerId === undefined ? eq(subscriptions.id, id) : and(eq(subscriptions.id, id), eq(subscriptions.userId, ownerId)))
    .for('update');
  if (!found) return null;
  const [charge] = await tx
    .select({ status: paymentTransactions.status, responseMessage: paymentTransactions.responseMessage })
    .from(paymentTransactions)
    .where(and(eq(paymentTransactions.subscriptionId, id), eq(paymentTransactions.billingPeriod, billingPeriodOf(found.row.nextBillingDate)), eq(paymentTransactions.kind, 'charge')));
  return { row: found.row, today: new Date(`${found.today}T00:00:00.000Z`), periodCharge: charge ?? null };
}

export type PlanChange = Partial<
  Pick<SubscriptionRow, 'status' | 'nextBillingDate' | 'failedAttempts' | 'retryAt' | 'cancelledAt' | 'authnetCustomerProfileId' | 'authnetPaymentProfileId' | 'cardExpiresOn' | 'cardType' | 'cardLastFour' | 'items' | 'amount' | 'interval' | 'intervalCount' | 'shippingAddress' | 'resumesOn' | 'oneTimeItems' | 'nextDeliveryDiscountPercent' | 'agreedAmount' | 'agreedAmountFrom' | 'priorAgreedAmount'>
>;

/** A change to the plan row (locked by lockPlanForChange in the same transaction). */
export async function updatePlan(tx: DbOrTx, id: string, change: PlanChange): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ ...change, updatedAt: sql`now()` })
    .where(eq(subscriptions.id, id));
}

/** What a change decided for the locked plan: the row's new values and any billing periods it skips. */
export interface PlanChangeDecision {
  change: PlanChange;
  skip?: { periods: string[]; reason: SkippedPeriodReason };
}

/**
 * The one sequence of a change to a plan, by staff or its shopper, in the caller's transaction: the plan
 * locked (lockPlanForChange), `decide` judges it (throws to refuse: nothing written; null: nothing to
 * change, nothing recorded), then the skipped periods, the row's change and the caller's own `record`
 * (staff: audit and outbox rows; the shopper: the outbox row) with the row as it now is. Answers false
 * when there is no such plan (or not the owner's).
 */
export async function changeLockedPlan<D extends PlanChangeDecision>(
  tx: DbOrTx,
  id: string,
  ownerId: string | undefined,
  decide: (plan: LockedPlan) => D | null | Promise<D | null>,
  record: (decision: D, after: SubscriptionRow) => Promise<unknown>,
): Promise<boolean> {
  const plan = await lockPlanForChange(tx, id, ownerId);
  if (!plan) return false;
  const decision = await decide(plan);
  if (!decision) return true;
  if (decision.skip) await recordSkippedPeriods(tx, id, decision.skip.periods, decision.skip.reason);
  // Consent on record (issue 22): a new price the plan's owner chose on screen is agreed, in force at once;
  // one staff (or a bulk swap) set is not, until a price-change notice (workers renewals/price-notices.ts).
  const change = ownerId !== undefined && decision.change.amount !== undefined ? { ...decision.change, agreedAmount: decision.change.amount, agreedAmountFrom: null, priorAgreedAmount: null } : decision.change;
  await updatePlan(tx, id, change);
  await record(decision, { ...plan.row, ...change });
  return true;
}

/**
 * The plan's last delivery: the latest billing period (yyyy-mm-dd) it was charged for (approved) or passed
 * over (skipped), or the day it was created when it has neither. A change of cadence counts from it.
 */
export async function lastPlanPeriod(tx: DbOrTx, plan: Pick<SubscriptionRow, 'id' | 'createdAt'>): Promise<string> {
  const [row] = await tx
    .select({
      period: sql<string | null>`greatest(
        (select max(${paymentTransactions.billingPeriod}) from ${paymentTransactions}
          where ${paymentTransactions.subscriptionId} = ${plan.id} and ${paymentTransactions.kind} = 'charge' and ${paymentTransactions.status} = 'approved'),
        (select max(${subscriptionSkippedPeriods.billingPeriod}) from ${subscriptionSkippedPeriods} where ${subscriptionSkippedPeriods.subscriptionId} = ${plan.id}))`,
    })
    .from(sql`(select 1) as one`);
  return row?.period ?? billingPeriodOf(plan.createdAt);
}

/** Why a period of the plan was skipped, or null when it was not. */
export async function skippedPeriodReason(tx: DbOrTx, subscriptionId: string, period: string): Promise<SkippedPeriodReason | null> {
  const [row] = await tx
    .select({ reason: subscriptionSkippedPeriods.reason })
    .from(subscriptionSkippedPeriods)
    .where(and(eq(subscriptionSkippedPeriods.subscriptionId, subscriptionId), eq(subscriptionSkippedPeriods.billingPeriod, period)));
  return (row?.reason as SkippedPeriodReason | undefined) ?? null;
}

/** Records billing periods as skipped (never charged later); a period recorded before is left as it is. */
export async function recordSkippedPeriods(tx: DbOrTx, subscriptionId: string, periods: readonly string[], reason: SkippedPeriodReason): Promise<void> {
  if (periods.length === 0) return;
  await tx
    .insert(subscriptionSkippedPeriods)
    .values(periods.map((billingPeriod) => ({ subscriptionId, billingPeriod, reason })))
    .onConflictDoNothing();
}
