/**
 * What the emails load beside the rows other modules read for them (the plan: subscriptions/plan.ts
 * findPlan; an order, a token, a user: their own modules): the newsletter subscriber, the message of a
 * plan's period payment, the audit row of a change staff made.
 */
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { auditEvents, newsletterSubscribers, paymentTransactions } from '../db/schema';

/** A newsletter subscriber's row (undefined: none). */
export function findNewsletterSubscriber(db: Db, subscriberId: number) {
  return db.query.newsletterSubscribers.findFirst({ where: eq(newsletterSubscribers.id, subscriberId) });
}

/** What a plan's payment row for a billing period says (the gateway's answer, or why nothing was charged); null when there is none or it says nothing. */
export async function findPeriodPaymentMessage(db: DbOrTx, subscriptionId: string, period: string): Promise<string | null> {
  const [payment] = await db
    .select({ message: paymentTransactions.responseMessage })
    .from(paymentTransactions)
    .where(and(eq(paymentTransactions.subscriptionId, subscriptionId), eq(paymentTransactions.billingPeriod, period)));
  return payment?.message ?? null;
}

/** A change's audit row as an email tells it: what was done to which entity, before and after (undefined: none). */
export async function findAuditChange(db: DbOrTx, auditId: number) {
  const a = auditEvents;
  const [event] = await db.select({ action: a.action, entityType: a.entityType, entityId: a.entityId, before: a.before, after: a.after }).from(a).where(eq(a.id, auditId));
  return event;
}
