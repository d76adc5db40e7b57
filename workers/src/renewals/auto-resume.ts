/**
 * The end of a timed pause (issue 21, "pause for 1, 2 or 3 deliveries"): the daily renewal sweep, before
 * it adds the renew jobs, resumes each plan paused so whose day has come, on its saved card, through the
 * one plan-change sequence (@nh/server changeLockedPlan: the plan locked as a change or a renewal locks
 * it, judged as it then is). The billing dates before that day are recorded as skipped (`plan-paused`)
 * and the plan's next billing date becomes that day, so the same sweep's renew jobs charge it. The
 * change is kept in the plan's history (by the plan itself) and the shopper gets the usual confirmation.
 * docs/decisions/subscriptions.md ("Pause for 1, 2 or 3 deliveries").
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { recordOutbox } from '@nh/server/queries/outbox';
import { changeLockedPlan, type LockedPlan, type PlanChangeDecision } from '@nh/server/queries/subscriptions/changes';
import { findTimedPausesEnding, recordPlanChange } from '@nh/server/queries/subscriptions/plan-history';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { billingPeriodOf, missedWhilePaused } from '@nh/shared/contracts/subscriptions';

export interface AutoResume extends PlanChangeDecision {
  skipped: string[];
}

/**
 * The rule (pure): a plan paused with a day to resume that has come, payments in order and a saved card,
 * resumes with the dates before that day skipped. Null (nothing changes, tried again by tomorrow's sweep)
 * otherwise, or while the period it would pass over has a charge that is not a failure (it may stand).
 */
export function decideAutoResume({ row, today, periodCharge }: LockedPlan): AutoResume | null {
  if (row.status !== 'paused' || !row.resumesOn) return null;
  const resumeDay = new Date(`${row.resumesOn}T00:00:00.000Z`);
  if (resumeDay > today) return null;
  if (row.failedAttempts > 0 || !row.authnetCustomerProfileId || !row.authnetPaymentProfileId) return null;
  // The dates before the day to resume are skipped; a worker late by days still charges the day to resume (the renewal catches up).
  const { next, missed } = missedWhilePaused(row.nextBillingDate, row.interval, row.intervalCount, resumeDay);
  if (missed.length > 0 && periodCharge && periodCharge.status !== 'declined' && periodCharge.status !== 'error') return null;
  const skipped = missed.map(billingPeriodOf);
  return {
    change: { status: 'active', resumesOn: null, nextBillingDate: next },
    skip: skipped.length > 0 ? { periods: skipped, reason: 'plan-paused' } : undefined,
    skipped,
  };
}

/** Resumes every timed pause whose day has come; answers the ids resumed. One plan failing is logged and left for tomorrow. */
export async function resumeTimedPauses(db: Db, log: Logger): Promise<string[]> {
  const resumed: string[] = [];
  for (const id of await findTimedPausesEnding(db.$client)) {
    try {
      let changed = false;
      await db.transaction((tx) =>
        changeLockedPlan(tx, id, undefined, decideAutoResume, async (decision, after) => {
          changed = true;
          await recordPlanChange(tx, id, 'plan', {
            kind: 'resumed',
            before: { status: 'paused' },
            after: { status: 'active', nextBillingDate: after.nextBillingDate.toISOString(), ...(decision.skipped.length > 0 ? { skippedPeriods: decision.skipped } : {}) },
          });
          await recordOutbox(tx, OUTBOX_TOPICS.subscriptionChanged, {
            subscriptionId: id,
            changeId: randomUUID(),
            change: { kind: 'resumed', skippedWhilePaused: decision.skipped.length, automatic: true },
            status: after.status,
            nextBillingDate: after.nextBillingDate.toISOString(),
            amount: after.amount,
            items: after.items.map(({ productId, productName, variantSku, quantity, price }) => ({ productId, productName, variantSku, quantity, price })),
          });
        }),
      );
      if (changed) resumed.push(id);
      else log.warn({ subscriptionId: id }, 'timed pause not ended: payment needs attention or a charge is being checked; tried again tomorrow');
    } catch (error) {
      log.error({ err: error, subscriptionId: id }, 'timed pause could not be ended; tried again tomorrow');
    }
  }
  return resumed;
}
