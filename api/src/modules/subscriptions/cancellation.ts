/**
 * Cancellation that listens (issue 22): the offer shown for a reason (recorded), accepting it (the
 * discount is a change to the plan through changeLockedPlan; the other offers are done by their own
 * endpoints and only recorded here), and cancelling with an optional reason (./service.ts cancel).
 */
import { CANCELLATION_MESSAGES, type CancelOffer, type CancelOfferKind, type CancelReason } from '@nh/shared/contracts/cancellation';
import { SUBSCRIPTION_MESSAGES as MSG, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import type { Db } from '@nh/server/db/client';
import { latestDiscountOffer, recordOfferAccepted, recordOfferShown } from '@nh/server/queries/subscriptions/cancellations';
import { lockPlanForChange } from '@nh/server/queries/subscriptions/changes';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/validation';
import { offerFor } from './cancel-offer';
import { changePlan } from './changes';
import { hasEnded, refuseWhilePeriodBusy } from './plan-rules';

export interface OfferSettings {
  offered: readonly number[];
  /** CANCEL_SAVE_DISCOUNT_PERCENT (0: no discount offer). */
  discountPercent: number;
}

const notFound = () => new AppError('NOT_FOUND', MSG.notFound);

/**
 * The discount may be offered when none was shown in the last 12 months, or the one shown today is still
 * open (the dialog opened again the same day shows the same offer, not a second one).
 */
async function discountAllowed(db: Db, id: string, percent: number): Promise<{ percent: number; alreadyShown: boolean }> {
  if (percent <= 0) return { percent: 0, alreadyShown: false };
  const last = await latestDiscountOffer(db, id);
  if (!last) return { percent, alreadyShown: false };
  return last.shownToday && !last.acceptedAt ? { percent, alreadyShown: true } : { percent: 0, alreadyShown: false };
}

/** The offer for `reason` on the user's plan, recorded as shown (404 for anyone else's plan). */
export async function cancelOffer(db: Db, settings: OfferSettings, userId: string, id: string, reason: CancelReason): Promise<CancelOffer | null> {
  if (!isUuid(id)) throw notFound();
  return db.transaction(async (tx) => {
    const plan = await lockPlanForChange(tx, id, userId);
    if (!plan) throw notFound();
    if (hasEnded(plan.row)) throw new AppError('SUBSCRIPTION_ENDED', MSG.alreadyEnded);
    const discount = reason === 'price' ? await discountAllowed(db, id, settings.discountPercent) : { percent: 0, alreadyShown: false };
    const offer = offerFor(reason, { plan: plan.row, offered: settings.offered, discountPercent: discount.percent });
    if (offer && !(offer.kind === 'discount' && discount.alreadyShown)) await recordOfferShown(tx, id, reason, offer.kind);
    return offer;
  });
}

/**
 * The shopper takes the offer shown. The discount is written on the plan (the next approved renewal takes
 * it once), audited as the customer with the `subscription.changed` email; any other kind was done by its
 * own endpoint and is recorded as accepted. An offer not shown (or taken already) is refused (409).
 */
export async function acceptCancelOffer(db: Db, settings: OfferSettings, userId: string, id: string, kind: CancelOfferKind): Promise<SubscriptionView> {
  return changePlan(db, userId, id, async (plan, tx) => {
    if (hasEnded(plan.row)) throw new AppError('SUBSCRIPTION_ENDED', MSG.alreadyEnded);
    if (!(await recordOfferAccepted(tx, id, kind))) throw new AppError('SUBSCRIPTION_CHANGED', kind === 'discount' ? CANCELLATION_MESSAGES.discountUsed : CANCELLATION_MESSAGES.noOffer);
    if (kind !== 'discount') return null;
    // Not while the period's charge is under way: that renewal read the plan before this and would clear an unused discount.
    refuseWhilePeriodBusy(plan.periodCharge, MSG);
    const percent = settings.discountPercent;
    if (percent <= 0) throw new AppError('SUBSCRIPTION_CHANGED', CANCELLATION_MESSAGES.noOffer);
    return {
      change: { nextDeliveryDiscountPercent: percent },
      email: { kind: 'discount', percent },
      before: { nextDeliveryDiscountPercent: plan.row.nextDeliveryDiscountPercent },
      after: { nextDeliveryDiscountPercent: percent },
    };
  });
}
