/**
 * Shoppers change their own plans on My Subscriptions (issue 13, "Plans"): skip the next delivery, move
 * it, pause, resume on the saved card, change the card (./card.ts stores it first), the quantities and the items,
 * how often it is delivered and where it ships.
 *
 * Each change is one transaction on the plan row locked FOR UPDATE with the owner in the lock's where
 * (@nh/server lockPlanForChange: someone else's plan is not found, exactly like an unknown one), the
 * renewal's own lock, so a renewal and a change never both apply: whichever comes second judges the row
 * as the first left it. The rules are the back office's (./plan-rules.ts); the change, any skipped
 * periods and the `subscription.changed` outbox row (the confirmation email, with the next billing date,
 * amount and lines as written) are written together. Answers the plan as the page shows it.
 */
import { randomUUID } from 'node:crypto';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import {
  billingPeriodOf,
  SUBSCRIPTION_MESSAGES as MSG,
  type ChangeAddressRequest,
  type ChangeItemsRequest,
  type ShopperPlanChange,
  type SubscriptionView,
} from '@nh/shared/contracts/subscriptions';
import type { Db, DbOrTx } from '@nh/server/db/client';
import type { SubscriptionRow } from '@nh/server/db/schema';
import { recordOutbox } from '@nh/server/queries/outbox';
import { changeLockedPlan, lastPlanPeriod, skippedPeriodReason, type LockedPlan, type PlanChangeDecision } from '@nh/server/queries/subscriptions/changes';
import { findSubscriptionView } from '@nh/server/queries/subscriptions/shopper';
import { recordPlanChange, recordSuggestionAccepted, recordSuggestionDismissed } from '@nh/server/queries/subscriptions/plan-history';
import { suggestCadence } from '@nh/shared/subscriptions/cadence-suggestion';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/validation';
import { decideItems, type CatalogueLookup } from './plan-items';
import { decideAddress, decideFrequency, decidePause, decideReschedule, decideResume, decideSkip, decideTimedPause, hasEnded, type PlanDecision } from './plan-rules';
import { viewOf } from './service';
import { checkedBy, type ChangeSource } from './change-source';

/** What a shopper's change writes, and what its email says. */
export interface ShopperDecision extends PlanChangeDecision {
  email: ShopperPlanChange;
  /** The change's before and after as the plan's history keeps them (subscription_changes); the email's fields when absent. */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

const notFound = () => new AppError('NOT_FOUND', MSG.notFound);


/** The `subscription.changed` row of a change (the confirmation email), with the plan as written. */
export function recordChangedForShopper(tx: DbOrTx, id: string, change: ShopperPlanChange, after: SubscriptionRow) {
  return recordOutbox(tx, OUTBOX_TOPICS.subscriptionChanged, {
    subscriptionId: id,
    changeId: randomUUID(),
    change,
    status: after.status,
    nextBillingDate: after.nextBillingDate.toISOString(),
    amount: after.amount,
    items: after.items.map(({ productId, productName, variantSku, quantity, price }) => ({ productId, productName, variantSku, quantity, price })),
  });
}

/**
 * A change by the plan's owner in its own transaction (changeLockedPlan: locked, decided or refused with
 * its message, written, then `record`); someone else's or an unknown plan is not found. Answers the plan.
 */
export async function changeOwnPlan<D extends PlanChangeDecision>(
  db: Db,
  userId: string,
  id: string,
  decide: (plan: LockedPlan, tx: DbOrTx) => D | null | Promise<D | null>,
  record: (tx: DbOrTx, decision: D, after: SubscriptionRow) => Promise<unknown>,
): Promise<SubscriptionView> {
  if (!isUuid(id)) throw notFound();
  await db.transaction(async (tx) => {
    const found = await changeLockedPlan(
      tx,
      id,
      userId,
      (plan) => decide(plan, tx),
      (decision, after) => record(tx, decision, after),
    );
    if (!found) throw notFound();
  });
  return viewOf(db.$client, id, userId);
}

/**
 * One change by the plan's owner, kept in the plan's history and written with its email's outbox row.
 * `decide` answering null changes nothing (a repeat) and answers the plan.
 */
export function changePlan(
  db: Db,
  userId: string,
  id: string,
  decide: (plan: LockedPlan, tx: DbOrTx) => ShopperDecision | null | Promise<ShopperDecision | null>,
  source?: ChangeSource,
): Promise<SubscriptionView> {
  return changeOwnPlan(db, userId, id, checkedBy(source, decide), async (tx, decision, after) => {
    const { kind, ...fields } = decision.email;
    await source?.spend(tx);
    await recordPlanChange(tx, id, 'customer', { kind, before: decision.before ?? null, after: decision.after ?? fields, via: source?.via ?? null });
    await recordChangedForShopper(tx, id, decision.email, after);
  });
}

/** A staff-shaped decision as the shopper's: the same write, the email told from it. */
const asShopper = (decision: PlanDecision, email: ShopperPlanChange): ShopperDecision => ({
  change: decision.change,
  skip: decision.skip,
  email,
  before: decision.before,
  after: decision.after,
});

/** Pause until resumed, or for `deliveries` deliveries (1..3): the renewal sweep resumes it on its saved card on the day it says. */
export function pausePlan(db: Db, userId: string, id: string, deliveries?: number): Promise<SubscriptionView> {
  return changePlan(db, userId, id, (plan) => {
    if (deliveries === undefined) return asShopper(decidePause(plan, MSG), { kind: 'paused' });
    const decision = decideTimedPause(plan, deliveries, MSG);
    return asShopper(decision, { kind: 'paused', resumesOn: decision.change.resumesOn! });
  });
}

/** Resumes a plan paused with its payments in order on its saved card (a failed payment needs a new card: ./resume.ts). */
export function resumePlanOnSavedCard(db: Db, userId: string, id: string): Promise<SubscriptionView> {
  return changePlan(db, userId, id, (plan) => {
    const decision = decideResume(plan, MSG);
    return asShopper(decision, { kind: 'resumed', skippedWhilePaused: decision.skip?.periods.length ?? 0 });
  });
}

/**
 * Skips the delivery the page showed (`period`). A repeat (a double click, a second tab) finds it skipped
 * by the shopper and changes nothing; a plan on another period since answers 409 with nothing changed.
 */
export function skipDelivery(db: Db, userId: string, id: string, period: string, source?: ChangeSource): Promise<SubscriptionView> {
  return changePlan(db, userId, id, async (plan, tx) => {
    if (hasEnded(plan.row)) throw new AppError('SUBSCRIPTION_ENDED', MSG.alreadyEnded);
    if (billingPeriodOf(plan.row.nextBillingDate) !== period) {
      if ((await skippedPeriodReason(tx, id, period)) === 'shopper-skip') return null;
      throw new AppError('SUBSCRIPTION_CHANGED', MSG.planChanged);
    }
    const decision = decideSkip(plan, 'shopper-skip', MSG);
    return asShopper(decision, { kind: 'skipped', period });
  }, source);
}

/** Moves the next delivery to `day` (the same day again changes nothing). */
export function moveDelivery(db: Db, userId: string, id: string, day: string | ((plan: LockedPlan) => string), source?: ChangeSource): Promise<SubscriptionView> {
  return changePlan(db, userId, id, (plan) => {
    const decision = decideReschedule(plan, typeof day === 'string' ? day : day(plan), MSG);
    return decision && asShopper(decision, { kind: 'rescheduled', from: plan.row.nextBillingDate.toISOString() });
  }, source);
}

/** Deliver every `intervalCount` months (one of `offered`, PLAN_CADENCE_MONTHS); the same cadence again changes nothing. */
export function changeFrequency(db: Db, userId: string, id: string, intervalCount: number, offered: readonly number[], source?: ChangeSource): Promise<SubscriptionView> {
  return changePlan(db, userId, id, async (plan, tx) => {
    const decision = decideFrequency(plan, intervalCount, await lastPlanPeriod(tx, plan.row), offered, MSG);
    const from = plan.row.intervalCount;
    // A change to a cadence suggested to the shopper and not declined counts as that suggestion accepted.
    if (decision) await recordSuggestionAccepted(tx, id, intervalCount);
    return decision && asShopper(decision, { kind: 'frequency', fromIntervalCount: from, intervalCount });
  }, source);
}

/**
 * The shopper declines the plan's cadence suggestion: recorded for the plan's period (hidden for three
 * periods from it). Not a change to the plan (no lock, no email): the plan must be the user's (404) and
 * not ended (409); with no suggestion now, nothing is recorded (a repeat, another tab) and the plan is answered.
 */
export async function dismissCadenceSuggestion(db: Db, userId: string, id: string, offered: readonly number[]): Promise<SubscriptionView> {
  if (!isUuid(id)) throw notFound();
  const row = await findSubscriptionView(db.$client, id, userId);
  if (!row) throw notFound();
  if (hasEnded(row)) throw new AppError('SUBSCRIPTION_ENDED', MSG.alreadyEnded);
  const suggestion = suggestCadence({ periods: row.cadence_periods, currentMonths: row.interval_count, offeredMonths: offered, dismissedPeriod: row.cadence_dismissed_period, cadenceChangedOn: row.cadence_changed_on });
  if (suggestion) await recordSuggestionDismissed(db, id, billingPeriodOf(row.next_billing_date), suggestion.intervalCount);
  return viewOf(db.$client, id, userId);
}

/**
 * New quantities for the plan's own lines and any products to add, priced from today's catalogue on the
 * server: the rule is ./plan-items.ts (staff's too). A refusal writes nothing.
 */
export function changeItems(db: Db, lookUp: CatalogueLookup, userId: string, id: string, input: ChangeItemsRequest): Promise<SubscriptionView> {
  return changePlan(db, userId, id, async (plan) => {
    const decision = await decideItems(plan, lookUp, input, MSG);
    return decision && asShopper(decision, { kind: 'items', fromAmount: decision.fromAmount, added: decision.added });
  });
}

/** Ship the next deliveries to `address` (checked as checkout checks it); the same address again changes nothing. */
export function changeAddress(db: Db, userId: string, id: string, address: ChangeAddressRequest): Promise<SubscriptionView> {
  return changePlan(db, userId, id, (plan) => {
    const decision = decideAddress(plan, address, MSG);
    return decision && asShopper(decision, { kind: 'address', address: decision.change.shippingAddress! });
  });
}
