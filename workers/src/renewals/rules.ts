/**
 * The renewal rules in one place: what is due and what a failed attempt leads to (RENEWAL_RETRY_DAYS,
 * then paused). The billing period a charge pays is the contract's billingPeriodOf(due date), so it
 * stays the same across the retries of one period.
 */
import { RENEWAL_REMINDER_DAYS, RENEWAL_RETRY_DAYS } from '@nh/shared/contracts/subscriptions';

/**
 * A billing date is a day: a subscription is due on its billing day (UTC), whatever the time of day it
 * was created, so the 06:00 sweep charges on the date the customer was shown and not a day late. SQL,
 * because the database's clock decides (the sweep and the job agree whichever host runs them).
 */
export const DUE_BEFORE_SQL = `(date_trunc('day', now(), 'UTC') + interval '1 day')`;

/**
 * The UTC day RENEWAL_REMINDER_DAYS ahead, as [start, end) in SQL: a plan billed on that day gets its
 * renewal reminder from today's sweep. Same clock as DUE_BEFORE_SQL.
 */
export const REMINDER_DAY_SQL = {
  from: `(date_trunc('day', now(), 'UTC') + interval '${RENEWAL_REMINDER_DAYS} days')`,
  to: `(date_trunc('day', now(), 'UTC') + interval '${RENEWAL_REMINDER_DAYS + 1} days')`,
};

export type DunningStep =
  /** Try again at the start of the UTC day `retryInDays` days from today (the sweep of that day picks it up). */
  | { failedAttempts: number; retryInDays: number; pause: false }
  /** Retries used up: paused, and the customer is told. */
  | { failedAttempts: number; retryInDays: null; pause: true };

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
