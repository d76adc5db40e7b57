/**
 * The renewal rules in one place: what is due and what a failed attempt leads to (RENEWAL_RETRY_DAYS,
 * then paused). The billing period a charge pays is the contract's billingPeriodOf(due date), so it
 * stays the same across the retries of one period. Which plans are due is decided by the database's
 * clock: the SQL fragments DUE_SQL, DUE_BEFORE_SQL and REMINDER_DAY_SQL of @nh/server
 * (queries/subscriptions/renewals.ts, plan.ts).
 */
import { nextBillingDate, RENEWAL_RETRY_DAYS, type SubscriptionInterval } from '@nh/shared/contracts/subscriptions';
import type { DunningStep } from '@nh/server/queries/subscriptions/renewals';

/**
 * Catch-up after downtime: a renewal charges once, for the current period — the latest billing date
 * before `dueBefore` (the start of tomorrow, UTC) in the plan's sequence from `from` — and every
 * earlier one it passes over is skipped (not charged, not shipped, never billed later).
 */
export function catchUp(from: Date, dueBefore: Date, interval: SubscriptionInterval, intervalCount: number): { current: Date; skipped: Date[] } {
  const skipped: Date[] = [];
  let current = from;
  for (let next = nextBillingDate(current, interval, intervalCount); next < dueBefore; next = nextBillingDate(next, interval, intervalCount)) {
    skipped.push(current);
    current = next;
  }
  return { current, skipped };
}

/** What follows a failed attempt, given the failed attempts before it. */
export function dunningStep(failedAttemptsBefore: number): DunningStep {
  const failedAttempts = failedAttemptsBefore + 1;
  const retryInDays = RENEWAL_RETRY_DAYS[failedAttempts - 1];
  return retryInDays === undefined ? { failedAttempts, retryInDays: null, pause: true } : { failedAttempts, retryInDays, pause: false };
}

/** A failure no retry can fix (no stored card, nothing to ship): paused at once. */
export function pauseNow(failedAttemptsBefore: number): DunningStep {
  return { failedAttempts: failedAttemptsBefore + 1, retryInDays: null, pause: true };
}
