/**
 * The renewal rules in one place: what is due and what a failed attempt leads to (RENEWAL_RETRY_DAYS,
 * then paused). The billing period a charge pays is the contract's billingPeriodOf(due date), so it
 * stays the same across the retries of one period.
 */
import {
  INTERVAL_MONTHS,
  nextBillingDate,
  RENEWAL_REMINDER_DAYS,
  RENEWAL_RETRY_DAYS,
  type SubscriptionInterval,
} from '@nh/shared/contracts/subscriptions';

/**
 * A billing date is a day: a subscription is due on its billing day (UTC), whatever the time of day it
 * was created, so the 06:00 sweep charges on the date the customer was shown and not a day late. SQL,
 * because the database's clock decides (the sweep and the job agree whichever host runs them).
 */
export const DUE_BEFORE_SQL = `(date_trunc('day', now(), 'UTC') + interval '1 day')`;

/** One interval in SQL months, from the row's `interval` and `interval_count` (INTERVAL_MONTHS). */
const INTERVAL_MONTHS_SQL = `((case "interval" ${Object.entries(INTERVAL_MONTHS)
  .map(([name, months]) => `when '${name}' then ${months}`)
  .join(' ')} end) * interval_count)`;

/**
 * More than one period behind: the billing date after next_billing_date is due too. One step of
 * Postgres month arithmetic on the UTC wall time clamps to the month's end exactly as nextBillingDate.
 */
const BEHIND_SQL = `((next_billing_date at time zone 'UTC') + make_interval(months => ${INTERVAL_MONTHS_SQL})) at time zone 'UTC' < ${DUE_BEFORE_SQL}`;

/**
 * Due for a renewal job: the billing day has come and either no retry is waiting or the plan is more
 * than one period behind (a retry of a period long gone waits for nothing: the catch-up charges the
 * current period). retry_at is always after next_billing_date, so the first test keeps the
 * (status, next_billing_date) index usable.
 */
export const DUE_SQL = `(next_billing_date < ${DUE_BEFORE_SQL} and (retry_at is null or retry_at < ${DUE_BEFORE_SQL} or ${BEHIND_SQL}))`;

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
