/**
 * The one save offer matched to a cancel reason (issue 22). Pure: the plan as it is, the cadences the
 * shop offers and whether the discount may be offered (its cool-down) in; the offer, or null, out.
 * The cancel button is always shown beside it (docs/decisions/subscriptions.md, "Cancellation").
 */
import { billingPeriodOf, INTERVAL_MONTHS } from '@nh/shared/contracts/subscriptions';
import type { CancelOffer, CancelReason } from '@nh/shared/contracts/cancellation';
import type { SubscriptionRow } from '@nh/server/db/schema';

export interface OfferInputs {
  plan: Pick<SubscriptionRow, 'status' | 'failedAttempts' | 'interval' | 'intervalCount' | 'nextBillingDate'>;
  /** PLAN_CADENCE_MONTHS. */
  offered: readonly number[];
  /** CANCEL_SAVE_DISCOUNT_PERCENT when the plan may have it now (cool-down over), else 0. */
  discountPercent: number;
}

export function offerFor(reason: CancelReason, { plan, offered, discountPercent }: OfferInputs): CancelOffer | null {
  // Only a running plan with its payments in order can take an offer (the same rules the endpoints apply).
  if (plan.status !== 'active' || plan.failedAttempts > 0) return null;
  const months = INTERVAL_MONTHS[plan.interval] * plan.intervalCount;
  switch (reason) {
    case 'too-much': {
      const longer = offered.find((m) => m > months);
      return longer ? { kind: 'longer-cadence', intervalCount: longer } : { kind: 'skip', period: billingPeriodOf(plan.nextBillingDate) };
    }
    case 'ran-out': {
      const shorter = [...offered].reverse().find((m) => m < months);
      return shorter ? { kind: 'shorter-cadence', intervalCount: shorter } : { kind: 'ship-now' };
    }
    case 'price':
      return discountPercent > 0 ? { kind: 'discount', percent: discountPercent } : null;
    case 'dislike-product':
      return { kind: 'change-items' };
    default:
      return null;
  }
}
