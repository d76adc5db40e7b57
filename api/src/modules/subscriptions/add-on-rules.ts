/**
 * The rules of Ship now and of one-time add-ons (issue 21), one place for the shopper and staff. Pure: the
 * plan as locked (@nh/server lockPlanForChange) and what was read beside it in, the change to write or a
 * refusal (AppError) out. docs/decisions/subscriptions.md "Ship now", "One-time add-ons".
 */
import { randomUUID } from 'node:crypto';
import { PLAN_ITEM_MAX_QUANTITY, PLAN_MAX_LINES } from '@nh/shared/constants';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { ONE_TIME_ITEM_MESSAGES, SHIP_NOW_MESSAGES } from '@nh/shared/contracts/ship-now-add-ons';
import type { UnavailableItem } from '@nh/shared/contracts/admin-subscriptions';
import type { LockedPlan, PlanChange } from '@nh/server/queries/subscriptions/changes';
import type { ShipNowFacts } from '@nh/server/queries/subscriptions/ship-now';
import type { LineItem, OneTimeLine, ProductVariant } from '@nh/server/db/schema';
import { AppError } from '../../lib/errors';
import { hasEnded, refuseWhilePeriodBusy, type PlanRuleWords } from './plan-rules';

const DAY_MS = 86_400_000;

/** The plan is due today or earlier (its billing day has come): the sweep's own test, on the lock's clock. */
export const dueToday = ({ row, today }: Pick<LockedPlan, 'row' | 'today'>) => row.nextBillingDate.getTime() < today.getTime() + DAY_MS;

/**
 * The period a ship-now charges: the plan's own when it is already due (the sweep would charge it today),
 * else today's (the next billing date moves to today, at the plan's time of day).
 */
export const shipNowPeriod = (plan: Pick<LockedPlan, 'row' | 'today'>) => (dueToday(plan) ? billingPeriodOf(plan.row.nextBillingDate) : billingPeriodOf(plan.today));

export type ShipNowDecision =
  /** Nothing to write: the same request again, or a ship-now of this period still under way. */
  | { kind: 'as-is' }
  | { kind: 'ship'; period: string; attempt: number; change: PlanChange; before: Record<string, unknown>; after: Record<string, unknown> };

/**
 * Ship the next delivery now: active plans not in dunning, not while its period's charge is under way or
 * being checked, never a second delivery charged on one day, and only when every line (add-ons too) can
 * be delivered (`unavailable`: the pre-flight's stock rule). A plan not yet due moves its next billing date
 * to today (its time of day kept), so the period becomes today's and the renewal's due and period checks
 * and the period's one payment row guard the charge; on approval the renewal moves it to today + cadence.
 */
export function decideShipNow(
  plan: LockedPlan,
  facts: ShipNowFacts,
  unavailable: UnavailableItem[],
  words: Pick<PlanRuleWords, 'alreadyEnded' | 'chargeInProgress' | 'chargeBeingChecked'>,
): ShipNowDecision {
  const { row, today, periodCharge } = plan;
  if (facts.repeatOfKey) return { kind: 'as-is' };
  if (hasEnded(row)) throw new AppError('SUBSCRIPTION_ENDED', words.alreadyEnded);
  if (row.status !== 'active') throw new AppError('SUBSCRIPTION_NOT_ACTIVE', SHIP_NOW_MESSAGES.notActive);
  if (row.failedAttempts > 0) throw new AppError('SUBSCRIPTION_IN_DUNNING', SHIP_NOW_MESSAGES.inDunning);
  const due = dueToday(plan);
  // A ship-now of this period was asked: while the plan is still on it, its charge is under way (two tabs);
  // once the plan moved on, that delivery was charged today.
  if (facts.askedForPeriod) {
    if (due) return { kind: 'as-is' };
    throw new AppError('SUBSCRIPTION_ALREADY_SHIPPED_TODAY', SHIP_NOW_MESSAGES.alreadyShippedToday);
  }
  if (!due && facts.chargedToday) throw new AppError('SUBSCRIPTION_ALREADY_SHIPPED_TODAY', SHIP_NOW_MESSAGES.alreadyShippedToday);
  refuseWhilePeriodBusy(periodCharge, words);
  if (unavailable.length > 0) {
    throw new AppError('SUBSCRIPTION_ITEM_UNAVAILABLE', SHIP_NOW_MESSAGES.itemsUnavailable(unavailable.map((i) => i.productName)), { unavailableItems: unavailable });
  }
  const period = shipNowPeriod(plan);
  if (due) return { kind: 'ship', period, attempt: row.failedAttempts, change: {}, before: {}, after: { period } };
  const timeOfDay = row.nextBillingDate.getTime() - Date.parse(`${billingPeriodOf(row.nextBillingDate)}T00:00:00.000Z`);
  const next = new Date(today.getTime() + timeOfDay);
  return {
    kind: 'ship',
    period,
    attempt: row.failedAttempts,
    change: { nextBillingDate: next },
    before: { nextBillingDate: row.nextBillingDate.toISOString() },
    after: { nextBillingDate: next.toISOString(), period },
  };
}

/** The decision as the ship-now sequence writes it (null: nothing to write, the plan answered as it is). */
export const shipNowChange = (decision: ShipNowDecision) => (decision.kind === 'as-is' ? null : decision);

/** The size the request names (`size`: a size's SKU or its label, any case), or null when none matches. */
export function variantForSize(variants: readonly ProductVariant[], size: string | null | undefined): ProductVariant | null {
  if (!size) return null;
  const wanted = size.trim().toLowerCase();
  return variants.find((v) => v.sku.toLowerCase() === wanted) ?? variants.find((v) => v.label.trim().toLowerCase() === wanted) ?? null;
}

/** Adding and removing one-time items: active plans only, not while the period's charge is under way or being checked. */
function refuseOneTimeChange({ row, periodCharge }: LockedPlan, words: Pick<PlanRuleWords, 'alreadyEnded' | 'chargeInProgress' | 'chargeBeingChecked'>): void {
  if (hasEnded(row)) throw new AppError('SUBSCRIPTION_ENDED', words.alreadyEnded);
  if (row.status !== 'active') throw new AppError('SUBSCRIPTION_NOT_ACTIVE', ONE_TIME_ITEM_MESSAGES.notActive);
  refuseWhilePeriodBusy(periodCharge, words);
}

export interface OneTimeDecision {
  change: PlanChange;
  line: OneTimeLine;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * Adds `line` (built from the catalogue: an active product, its size) to the next delivery. The same
 * product and size again adds to that line's quantity (at most PLAN_ITEM_MAX_QUANTITY); at most
 * PLAN_MAX_LINES one-time lines.
 */
export function decideAddOneTime(plan: LockedPlan, line: LineItem, words: Pick<PlanRuleWords, 'alreadyEnded' | 'chargeInProgress' | 'chargeBeingChecked'>): OneTimeDecision {
  refuseOneTimeChange(plan, words);
  const current = plan.row.oneTimeItems;
  const same = current.find((o) => o.productId === line.productId && (o.variantSku ?? null) === (line.variantSku ?? null));
  if (same && same.quantity + line.quantity > PLAN_ITEM_MAX_QUANTITY) throw new AppError('SUBSCRIPTION_ITEMS_INVALID', ONE_TIME_ITEM_MESSAGES.tooManyOfOne, { maxQuantity: PLAN_ITEM_MAX_QUANTITY });
  if (!same && current.length >= PLAN_MAX_LINES) throw new AppError('SUBSCRIPTION_ITEMS_INVALID', ONE_TIME_ITEM_MESSAGES.tooMany, { maxLines: PLAN_MAX_LINES });
  const added: OneTimeLine = same
    ? { ...same, quantity: same.quantity + line.quantity }
    : { id: randomUUID(), productId: line.productId, productName: line.productName, variantSku: line.variantSku, quantity: line.quantity };
  const oneTimeItems = same ? current.map((o) => (o.id === same.id ? added : o)) : [...current, added];
  return {
    change: { oneTimeItems },
    line: { ...added, quantity: line.quantity },
    before: { oneTimeItems: current.length },
    after: { productName: added.productName, quantity: line.quantity, lineId: added.id },
  };
}

/** Removes one-time line `lineId`; null when it is not (or no longer) on the plan: nothing to write. */
export function decideRemoveOneTime(plan: LockedPlan, lineId: string, words: Pick<PlanRuleWords, 'alreadyEnded' | 'chargeInProgress' | 'chargeBeingChecked'>): OneTimeDecision | null {
  const line = plan.row.oneTimeItems.find((o) => o.id === lineId);
  if (!line) {
    if (hasEnded(plan.row)) throw new AppError('SUBSCRIPTION_ENDED', words.alreadyEnded);
    return null;
  }
  refuseOneTimeChange(plan, words);
  return {
    change: { oneTimeItems: plan.row.oneTimeItems.filter((o) => o.id !== lineId) },
    line,
    before: { productName: line.productName, quantity: line.quantity, lineId },
    after: { removed: true },
  };
}
