/**
 * Consent on record (issue 22): the price per delivery a plan may be charged, and when a higher one may
 * start. One place for the rule the renewal, the price-change sweep and the screens follow
 * (docs/decisions/subscriptions.md "Consent on record").
 *
 * A plan's `amount` may rise without the shopper's say (staff change its items for the customer, a bulk
 * swap). The shopper is charged the higher price only from a billing day at least
 * PRICE_CHANGE_NOTICE_DAYS after a notice of it was sent; until then the price last agreed to (or
 * notified in time) is charged and the shop absorbs the difference (priceRenewal's price lock).
 */
import { PRICE_CHANGE_NOTICE_DAYS } from '../constants';
import { billingPeriodOf, nextBillingDate, type SubscriptionInterval } from '../contracts/subscriptions';
import type { Cents } from '../money';

export interface AgreedPrice {
  /** The plan's price per delivery now. */
  amount: Cents;
  /** The price last agreed to or notified; null on plans from before it was kept (their amount stands). */
  agreedAmount: Cents | null;
  /** yyyy-mm-dd: the first billing day at `agreedAmount` (a notice's); null: already in force. */
  agreedAmountFrom: string | null;
  /** What may be charged before `agreedAmountFrom`. */
  priorAgreedAmount: Cents | null;
}

/** The most the delivery of `billingDay` (yyyy-mm-dd, UTC) may be charged for the plan's recurring lines. */
export function chargeableAmount(plan: AgreedPrice, billingDay: string): Cents {
  if (plan.agreedAmount === null) return plan.amount;
  const inForce = plan.agreedAmountFrom === null || billingDay >= plan.agreedAmountFrom ? plan.agreedAmount : (plan.priorAgreedAmount ?? plan.agreedAmount);
  return Math.min(plan.amount, inForce);
}

/**
 * The first billing day of the plan at least `days` after `today` (yyyy-mm-dd, UTC): the first delivery a
 * notice sent today may charge at a new price. Follows the plan's own billing dates from `next`.
 */
export function firstChargeAfterNotice(next: Date, interval: SubscriptionInterval, intervalCount: number, today: string, days = PRICE_CHANGE_NOTICE_DAYS): string {
  const earliest = billingPeriodOf(new Date(Date.parse(`${today}T00:00:00.000Z`) + days * 86_400_000));
  let date = next;
  for (let i = 0; billingPeriodOf(date) < earliest && i < 1000; i++) date = nextBillingDate(date, interval, intervalCount);
  return billingPeriodOf(date);
}

/** What a price-change sweep does with a plan whose price today differs from the one agreed. */
export type PriceNoticeDecision =
  | { kind: 'none' }
  /** Lower: the agreed price follows it down, no email needed. */
  | { kind: 'drop'; to: Cents }
  /** Higher: a notice of `from` → `to`, charged from `firstChargeOn`. */
  | { kind: 'notice'; from: Cents; to: Cents; firstChargeOn: string; priorAgreedAmount: Cents };

/**
 * `renewalPrice`: the plan's recurring delivery priced by priceRenewal (the one computation) at its
 * current amount. `today`: yyyy-mm-dd (UTC).
 */
export function decidePriceNotice(
  plan: AgreedPrice & { nextBillingDate: Date; interval: SubscriptionInterval; intervalCount: number },
  renewalPrice: Cents,
  today: string,
  days = PRICE_CHANGE_NOTICE_DAYS,
): PriceNoticeDecision {
  if (plan.agreedAmount === null || renewalPrice === plan.agreedAmount) return { kind: 'none' };
  if (renewalPrice < plan.agreedAmount) return { kind: 'drop', to: renewalPrice };
  // The price in force until the new one starts: the one in force today (an earlier notice not yet in
  // force keeps its own prior price, the lower one: never more than what was notified in time).
  const inForceToday = plan.agreedAmountFrom === null || today >= plan.agreedAmountFrom ? plan.agreedAmount : (plan.priorAgreedAmount ?? plan.agreedAmount);
  return {
    kind: 'notice',
    from: plan.agreedAmount,
    to: renewalPrice,
    firstChargeOn: firstChargeAfterNotice(plan.nextBillingDate, plan.interval, plan.intervalCount, today, days),
    priorAgreedAmount: inForceToday,
  };
}
