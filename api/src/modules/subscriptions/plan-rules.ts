/**
 * The rules of a change to a plan, one place for staff (the back office, on the customer's behalf) and
 * for the shopper (My Subscriptions): pause, resume on the saved card, skip the next delivery, move it,
 * change the cadence, change the delivery address (the items' rules are ./plan-items.ts).
 * Pure: each takes the plan as locked (@nh/server lockPlanForChange: the row, today by the database's
 * clock, the charge of the period it is on) and answers what to write, or refuses with the caller's
 * words. The callers write it in their transaction with their own record (staff: an audit row and the
 * staff email; the shopper: the confirmation email). docs/decisions/subscriptions.md.
 */
import type { LockedPlan, PlanChange } from '@nh/server/queries/subscriptions/changes';
import { chargeBeingChecked, chargeUnderWay } from '@nh/server/queries/subscriptions/period-charge';
import type { Address, SubscriptionRow } from '@nh/server/db/schema';
import {
  billingPeriodOf,
  INTERVAL_MONTHS,
  missedWhilePaused,
  nextBillingDate,
  nextBillingDateForCadence,
  rescheduleWindow,
  resumeDayAfter,
  type SkippedPeriodReason,
} from '@nh/shared/contracts/subscriptions';
import { AppError } from '../../lib/errors';

/** The sentences each side refuses with (ADMIN_SUBSCRIPTION_MESSAGES for staff, SUBSCRIPTION_MESSAGES for shoppers). */
export interface PlanRuleWords {
  alreadyEnded: string;
  pauseNotActive: string;
  skipNotActive: string;
  rescheduleNotActive: string;
  notPaused: string;
  needsNewCard: string;
  noStoredCard: string;
  chargeInProgress: string;
  /** The period's charge was held for review or its answer lost: staff check it; the period cannot move meanwhile. */
  chargeBeingChecked: string;
  inDunning: string;
  dateNotAllowed: (earliest: string, latest: string) => string;
  noDateAllowed: string;
  frequencyNotActive: string;
  cadenceNotOffered: (months: readonly number[]) => string;
}

/** What a change writes to the locked plan, with its before and after (the audit row, the email). */
export interface PlanDecision {
  kind: 'paused' | 'resumed' | 'skipped' | 'rescheduled' | 'frequency' | 'items' | 'address';
  change: PlanChange;
  skip?: { periods: string[]; reason: SkippedPeriodReason };
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const hasStoredCard = (row: Pick<SubscriptionRow, 'authnetCustomerProfileId' | 'authnetPaymentProfileId'>) =>
  Boolean(row.authnetCustomerProfileId && row.authnetPaymentProfileId);

export const hasEnded = (row: Pick<SubscriptionRow, 'status'>) => row.status === 'cancelled' || row.status === 'expired';

// The period charge's rules are @nh/server's, so the bulk swap job reads the same ones.
export { chargeBeingChecked, chargeUnderWay, periodBusy } from '@nh/server/queries/subscriptions/period-charge';

/** Refuses a change to the period (skip, move, passing it over, its lines or card) while its charge is under way or being checked. */
export function refuseWhilePeriodBusy(charge: LockedPlan['periodCharge'], words: Pick<PlanRuleWords, 'chargeInProgress' | 'chargeBeingChecked'>): void {
  if (chargeUnderWay(charge)) throw new AppError('SUBSCRIPTION_CHARGE_IN_PROGRESS', words.chargeInProgress);
  if (chargeBeingChecked(charge)) throw new AppError('SUBSCRIPTION_CHARGE_BEING_CHECKED', words.chargeBeingChecked);
}

/**
 * A paused plan may be resumed on its saved card only when it was paused with its renewals paid (failed
 * attempts 0: the renewals never pause without counting one) and a card is on file; otherwise only a
 * new card restarts it.
 */
export const resumableOnSavedCard = (row: Pick<SubscriptionRow, 'status' | 'failedAttempts'>, storedCard: boolean) =>
  row.status === 'paused' && row.failedAttempts === 0 && storedCard;

/** The refusal of a change on a plan that has ended, or that is not in the state the change needs. */
export function refuseState(
  row: Pick<SubscriptionRow, 'status'>,
  words: Pick<PlanRuleWords, 'alreadyEnded'>,
  code: 'SUBSCRIPTION_NOT_ACTIVE' | 'SUBSCRIPTION_NOT_PAUSED',
  message: string,
): never {
  if (hasEnded(row)) throw new AppError('SUBSCRIPTION_ENDED', words.alreadyEnded);
  throw new AppError(code, message);
}

/**
 * Pause (active only). Dunning state is kept: a plan paused mid-dunning stays one only a new card restarts.
 * Refused while the period's charge is under way (in flight), as skip and move are: that charge goes ahead
 * (its order ships), so a pause accepted now would not stop it. A charge being checked (held or unknown)
 * does not refuse it: the pause goes through and its confirmation says that charge stands.
 */
export function decidePause({ row, periodCharge }: LockedPlan, words: PlanRuleWords): PlanDecision {
  if (row.status !== 'active') refuseState(row, words, 'SUBSCRIPTION_NOT_ACTIVE', words.pauseNotActive);
  if (chargeUnderWay(periodCharge)) throw new AppError('SUBSCRIPTION_CHARGE_IN_PROGRESS', words.chargeInProgress);
  return { kind: 'paused', change: { status: 'paused', resumesOn: null }, before: { status: 'active' }, after: { status: 'paused' } };
}

/**
 * Pause for `deliveries` deliveries (1..3, issue 21): a pause (decidePause) that the daily renewal sweep
 * ends on its own on `resumesOn`, the billing date that many deliveries after the next one, resuming it on
 * the saved card as decideResume does (the dates in between skipped as paused). So only a plan whose
 * payments are in order and that has a saved card may pause so (else 409: it can still pause until resumed).
 */
export function decideTimedPause(plan: LockedPlan, deliveries: number, words: PlanRuleWords & { timedPauseNeedsCard: string }): PlanDecision {
  const pause = decidePause(plan, words);
  const { row } = plan;
  if (row.failedAttempts > 0 || !hasStoredCard(row)) throw new AppError('SUBSCRIPTION_NEEDS_NEW_CARD', words.timedPauseNeedsCard);
  const resumesOn = resumeDayAfter(row.nextBillingDate, row.interval, row.intervalCount, deliveries);
  return { ...pause, change: { ...pause.change, resumesOn }, after: { ...pause.after, deliveries, resumesOn } };
}

/**
 * Cancel (active or paused): the plan ends now. Refused while the period's charge is under way (in flight,
 * seconds), with the same answer as pause, skip and move: that charge goes ahead and its order ships, so
 * "cancelled" now would not be true of this period. Once the charge is booked (the plan moved on) or
 * failed, it may go; and a charge being checked (held or unknown, which can last days) never stops it:
 * cancelling must always be possible, so it goes through and its confirmation says that charge stands.
 */
export function decideCancel({ row, periodCharge }: LockedPlan, words: Pick<PlanRuleWords, 'alreadyEnded' | 'chargeInProgress'>): { status: 'cancelled'; cancelledAt: Date } {
  if (hasEnded(row)) throw new AppError('SUBSCRIPTION_ENDED', words.alreadyEnded);
  if (chargeUnderWay(periodCharge)) throw new AppError('SUBSCRIPTION_CHARGE_IN_PROGRESS', words.chargeInProgress);
  return { status: 'cancelled', cancelledAt: new Date() };
}

/**
 * Resume on the saved card (see resumableOnSavedCard). Billing dates that went by while paused are
 * skipped (never charged later); a period whose charge may have gone through is never passed over.
 */
export function decideResume({ row, today, periodCharge }: LockedPlan, words: PlanRuleWords): PlanDecision {
  if (row.status !== 'paused') refuseState(row, words, 'SUBSCRIPTION_NOT_PAUSED', words.notPaused);
  if (row.failedAttempts > 0) throw new AppError('SUBSCRIPTION_NEEDS_NEW_CARD', words.needsNewCard);
  if (!hasStoredCard(row)) throw new AppError('SUBSCRIPTION_NEEDS_NEW_CARD', words.noStoredCard);
  const { next, missed } = missedWhilePaused(row.nextBillingDate, row.interval, row.intervalCount, today);
  if (missed.length > 0) refuseWhilePeriodBusy(periodCharge, words);
  const periods = missed.map(billingPeriodOf);
  const moved = missed.length > 0;
  return {
    kind: 'resumed',
    change: { status: 'active', resumesOn: null, ...(moved ? { nextBillingDate: next } : {}) },
    skip: moved ? { periods, reason: 'plan-paused' } : undefined,
    before: { status: 'paused', ...(moved ? { nextBillingDate: row.nextBillingDate.toISOString() } : {}) },
    after: { status: 'active', ...(moved ? { nextBillingDate: next.toISOString(), skippedPeriods: periods } : {}) },
  };
}

/**
 * Skip the next delivery (active only): its period recorded as skipped with `reason`, the next billing
 * date one interval on. A period in dunning may be skipped: its retries end with it.
 */
export function decideSkip({ row, periodCharge }: LockedPlan, reason: SkippedPeriodReason, words: PlanRuleWords): PlanDecision {
  if (row.status !== 'active') refuseState(row, words, 'SUBSCRIPTION_NOT_ACTIVE', words.skipNotActive);
  refuseWhilePeriodBusy(periodCharge, words);
  const period = billingPeriodOf(row.nextBillingDate);
  const next = nextBillingDate(row.nextBillingDate, row.interval, row.intervalCount);
  const dunning = row.failedAttempts > 0 || row.retryAt !== null;
  return {
    kind: 'skipped',
    change: { nextBillingDate: next, failedAttempts: 0, retryAt: null },
    skip: { periods: [period], reason },
    before: { nextBillingDate: row.nextBillingDate.toISOString(), ...(dunning ? { failedAttempts: row.failedAttempts, retryAt: iso(row.retryAt) } : {}) },
    after: { nextBillingDate: next.toISOString(), skippedPeriod: period, ...(dunning ? { failedAttempts: 0, retryAt: null } : {}) },
  };
}

/**
 * Move the next delivery to `day` (yyyy-mm-dd, UTC; active plans not in dunning) within rescheduleWindow.
 * The billing date keeps its time of day; later dates follow from the new one. The same day again: null
 * (nothing changes, nothing is recorded).
 */
export function decideReschedule({ row, today, periodCharge }: LockedPlan, day: string, words: PlanRuleWords): PlanDecision | null {
  if (row.status !== 'active') refuseState(row, words, 'SUBSCRIPTION_NOT_ACTIVE', words.rescheduleNotActive);
  if (row.failedAttempts > 0) throw new AppError('SUBSCRIPTION_IN_DUNNING', words.inDunning);
  refuseWhilePeriodBusy(periodCharge, words);
  const window = rescheduleWindow(row.nextBillingDate, row.interval, row.intervalCount, today);
  if (!window) throw new AppError('SUBSCRIPTION_DATE_NOT_ALLOWED', words.noDateAllowed);
  if (day < window.earliest || day > window.latest) throw new AppError('SUBSCRIPTION_DATE_NOT_ALLOWED', words.dateNotAllowed(window.earliest, window.latest), window);
  const timeOfDay = row.nextBillingDate.getTime() - Date.parse(`${billingPeriodOf(row.nextBillingDate)}T00:00:00.000Z`);
  const next = new Date(Date.parse(`${day}T00:00:00.000Z`) + timeOfDay);
  if (next.getTime() === row.nextBillingDate.getTime()) return null;
  return {
    kind: 'rescheduled',
    change: { nextBillingDate: next },
    before: { nextBillingDate: row.nextBillingDate.toISOString() },
    after: { nextBillingDate: next.toISOString() },
  };
}

/**
 * Deliver every `intervalCount` months (one of `offered`, PLAN_CADENCE_MONTHS, else 422; active plans not
 * in dunning, not while the period's charge is under way). The next billing date becomes the last
 * delivery (`lastPeriod`: @nh/server lastPlanPeriod) plus the new cadence, never before tomorrow
 * (nextBillingDateForCadence), so two changes in one period move it once. The same cadence again: null.
 */
export function decideFrequency(
  { row, today, periodCharge }: LockedPlan,
  intervalCount: number,
  lastPeriod: string,
  offered: readonly number[],
  words: PlanRuleWords,
): PlanDecision | null {
  if (!offered.includes(intervalCount)) throw new AppError('SUBSCRIPTION_CADENCE_NOT_OFFERED', words.cadenceNotOffered(offered), { offered: [...offered] });
  if (row.status !== 'active') refuseState(row, words, 'SUBSCRIPTION_NOT_ACTIVE', words.frequencyNotActive);
  if (row.failedAttempts > 0) throw new AppError('SUBSCRIPTION_IN_DUNNING', words.inDunning);
  refuseWhilePeriodBusy(periodCharge, words);
  const fromMonths = INTERVAL_MONTHS[row.interval] * row.intervalCount;
  if (fromMonths === intervalCount) return null;
  const next = nextBillingDateForCadence(lastPeriod, row.nextBillingDate, 'monthly', intervalCount, today);
  return {
    kind: 'frequency',
    change: { interval: 'monthly', intervalCount, nextBillingDate: next },
    before: { intervalCount: fromMonths, nextBillingDate: row.nextBillingDate.toISOString() },
    after: { intervalCount, nextBillingDate: next.toISOString() },
  };
}

/**
 * Ship the next deliveries to `address` (already checked by the checkout's address schema): active or
 * paused plans, from the next renewal on. Refused on an ended plan (409), and while the period's charge
 * is under way or being checked (its order is already written with the old address: the change waits
 * for it, as a change of items does). The same address again: null (nothing changes, nothing recorded).
 */
export function decideAddress(
  { row, periodCharge }: LockedPlan,
  address: Address,
  words: Pick<PlanRuleWords, 'alreadyEnded' | 'chargeInProgress' | 'chargeBeingChecked'>,
): PlanDecision | null {
  if (hasEnded(row)) throw new AppError('SUBSCRIPTION_ENDED', words.alreadyEnded);
  const to: Address = { address: address.address, city: address.city, state: address.state, zip: address.zip };
  const from = row.shippingAddress;
  if (from && from.address === to.address && from.city === to.city && from.state === to.state && from.zip === to.zip) return null;
  refuseWhilePeriodBusy(periodCharge, words);
  return { kind: 'address', change: { shippingAddress: to }, before: { shippingAddress: from ?? null }, after: { shippingAddress: to } };
}

/** The days the next delivery may move to now (null: it cannot move), as the screens offer them. */
export function movableWindow(row: Pick<SubscriptionRow, 'status' | 'failedAttempts' | 'nextBillingDate' | 'interval' | 'intervalCount'>, today: Date) {
  if (row.status !== 'active' || row.failedAttempts > 0) return null;
  return rescheduleWindow(row.nextBillingDate, row.interval, row.intervalCount, today);
}
