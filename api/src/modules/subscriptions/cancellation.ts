/**
 * Cancellation that listens (issue 22): the offer shown for a reason (POST: it records the offer as shown),
 * taking it (one request: the change itself and its acceptance in one transaction on the locked plan, so
 * neither is ever written without the other), and cancelling with an optional reason (./service.ts cancel).
 */
import { CANCELLATION_MESSAGES, type CancelOffer, type CancelOfferKind, type CancelReason } from '@nh/shared/contracts/cancellation';
import { SHIP_NOW_MESSAGES } from '@nh/shared/contracts/ship-now-add-ons';
import { SUBSCRIPTION_MESSAGES as MSG, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import type { Db, DbOrTx } from '@nh/server/db/client';
import { latestDiscountOffer, recordOfferAccepted, recordOfferShown } from '@nh/server/queries/subscriptions/cancellations';
import { lastPlanPeriod, lockPlanForChange, type LockedPlan } from '@nh/server/queries/subscriptions/changes';
import { recordSuggestionAccepted } from '@nh/server/queries/subscriptions/plan-history';
import { shipNowLockedPlan } from '@nh/server/queries/subscriptions/ship-now';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/validation';
import { decideShipNow, shipNowChange, shipNowPeriod } from './add-on-rules';
import { offerFor } from './cancel-offer';
import { changePlan, recordChangedForShopper, type ShopperDecision } from './changes';
import { decideFrequency, decideSkip, hasEnded, refuseWhilePeriodBusy } from './plan-rules';
import { viewOf } from './service';

export interface OfferSettings {
  offered: readonly number[];
  /** CANCEL_SAVE_DISCOUNT_PERCENT (0: no discount offer). */
  discountPercent: number;
}

const notFound = () => new AppError('NOT_FOUND', MSG.notFound);
const noOffer = (kind: CancelOfferKind) => new AppError('SUBSCRIPTION_CHANGED', kind === 'discount' ? CANCELLATION_MESSAGES.discountUsed : CANCELLATION_MESSAGES.noOffer);

/**
 * The discount may be offered when none was shown in the last 12 months, or the one shown today is still
 * open (the dialog opened again the same day shows the same offer, not a second one).
 */
async function discountAllowed(tx: DbOrTx, id: string, percent: number): Promise<{ percent: number; alreadyShown: boolean }> {
  if (percent <= 0) return { percent: 0, alreadyShown: false };
  const last = await latestDiscountOffer(tx, id);
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
    const discount = reason === 'price' ? await discountAllowed(tx, id, settings.discountPercent) : { percent: 0, alreadyShown: false };
    const offer = offerFor(reason, { plan: plan.row, offered: settings.offered, discountPercent: discount.percent });
    if (offer && !(offer.kind === 'discount' && discount.alreadyShown)) await recordOfferShown(tx, id, reason, offer.kind);
    return offer;
  });
}

/** What the shopper says they take: the offer as the dialog showed it (its kind; its cadence or period when it has one). */
export interface OfferTaken {
  kind: CancelOfferKind;
  intervalCount?: number;
  period?: string;
}

/**
 * The offer as it stands now for the reason it was shown for: the server's own figures, never the
 * browser's. Refused (409, nothing written) when the plan has moved since (another cadence, another
 * period) so that the shopper would get something other than what the dialog said.
 */
function offerNow(plan: LockedPlan, reason: string, taken: OfferTaken, settings: OfferSettings): CancelOffer {
  const discountPercent = taken.kind === 'discount' ? settings.discountPercent : 0;
  const offer = offerFor(reason as CancelReason, { plan: plan.row, offered: settings.offered, discountPercent });
  if (!offer || offer.kind !== taken.kind) throw noOffer(taken.kind);
  if ('intervalCount' in offer && taken.intervalCount !== undefined && taken.intervalCount !== offer.intervalCount) throw new AppError('SUBSCRIPTION_CHANGED', MSG.planChanged);
  if ('period' in offer && taken.period !== undefined && taken.period !== offer.period) throw new AppError('SUBSCRIPTION_CHANGED', MSG.planChanged);
  return offer;
}

/** The change an offer makes, decided on the locked plan by the same rules as its own endpoint. */
async function decideOffer(plan: LockedPlan, tx: DbOrTx, offer: CancelOffer, settings: OfferSettings): Promise<ShopperDecision | null> {
  switch (offer.kind) {
    case 'longer-cadence':
    case 'shorter-cadence': {
      const decision = decideFrequency(plan, offer.intervalCount, await lastPlanPeriod(tx, plan.row), settings.offered, MSG);
      if (!decision) return null;
      // As /frequency: a change to a cadence suggested to the shopper counts as that suggestion accepted.
      await recordSuggestionAccepted(tx, plan.row.id, offer.intervalCount);
      return { ...decision, email: { kind: 'frequency', fromIntervalCount: plan.row.intervalCount, intervalCount: offer.intervalCount } };
    }
    case 'skip': {
      const decision = decideSkip(plan, 'shopper-skip', MSG);
      return { ...decision, email: { kind: 'skipped', period: offer.period } };
    }
    case 'discount': {
      // Not while the period's charge is under way: that renewal read the plan before this and would clear an unused discount.
      refuseWhilePeriodBusy(plan.periodCharge, MSG);
      return {
        change: { nextDeliveryDiscountPercent: offer.percent },
        email: { kind: 'discount', percent: offer.percent },
        before: { nextDeliveryDiscountPercent: plan.row.nextDeliveryDiscountPercent },
        after: { nextDeliveryDiscountPercent: offer.percent },
      };
    }
    // Change items: the items dialog opens next; taking the offer is recorded, the plan is unchanged until the shopper saves new items.
    default:
      return null;
  }
}

/**
 * The shopper takes the offer shown: one request, one transaction on the plan locked as every change
 * locks it. The acceptance is recorded and the change written (a longer or shorter cadence, a skip, the
 * next-delivery discount, a ship-now) with its history row and `subscription.changed` email, or neither
 * (a refusal rolls both back). An offer not shown in the last day, or taken already, is 409.
 * A ship-now needs the request's Idempotency-Key (its hash, `shipNowKeyHash`), as `/ship-now` does: a
 * repeat with the same key answers the plan and changes nothing.
 */
export async function acceptCancelOffer(db: Db, settings: OfferSettings, userId: string, id: string, taken: OfferTaken, shipNowKey: string | null): Promise<SubscriptionView> {
  if (!isUuid(id)) throw notFound();
  if (taken.kind === 'ship-now') return acceptShipNow(db, settings, userId, id, shipNowKey);
  return changePlan(db, userId, id, async (plan, tx) => {
    if (hasEnded(plan.row)) throw new AppError('SUBSCRIPTION_ENDED', MSG.alreadyEnded);
    const reason = await recordOfferAccepted(tx, id, taken.kind);
    if (reason === null) throw noOffer(taken.kind);
    return decideOffer(plan, tx, offerNow(plan, reason, taken, settings), settings);
  });
}

async function acceptShipNow(db: Db, settings: OfferSettings, userId: string, id: string, keyHash: string | null): Promise<SubscriptionView> {
  if (!keyHash) throw new AppError('BAD_REQUEST', SHIP_NOW_MESSAGES.idempotencyKeyMissing);
  await db.transaction(async (tx) => {
    const found = await shipNowLockedPlan(
      tx,
      db.$client,
      { id, ownerId: userId, keyHash, by: { userId } },
      shipNowPeriod,
      (plan, facts, unavailable) => {
        if (hasEnded(plan.row)) throw new AppError('SUBSCRIPTION_ENDED', MSG.alreadyEnded);
        // A repeat of the same key: the first request took the offer; nothing more to do.
        if (!facts.repeatOfKey) offerNow(plan, 'ran-out', { kind: 'ship-now' }, settings);
        return shipNowChange(decideShipNow(plan, facts, unavailable, MSG));
      },
      async (decision, after) => {
        if ((await recordOfferAccepted(tx, id, 'ship-now')) === null) throw noOffer('ship-now');
        await recordChangedForShopper(tx, id, { kind: 'ship-now', period: decision.period }, after);
      },
    );
    if (!found) throw notFound();
  });
  return viewOf(db.$client, id, userId);
}
