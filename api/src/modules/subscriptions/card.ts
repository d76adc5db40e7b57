/**
 * A new card for an active plan (POST /api/subscriptions/{id}/card): the plan must be the user's (else
 * not found) and active (a paused plan is resumed with a new card, ./resume.ts), before any gateway call.
 * The card is stored as a new customer payment profile (./store-card.ts), not charged; then, in one
 * transaction on the locked plan, the plan's profile ids become the new card's (its expiry forgotten:
 * the workers look it up from the outbox row), and the confirmation email's outbox row is written. The
 * next renewal, and any retry of a failing one, charges the new card. While the period's charge is under
 * way (on the old card) the change is refused, the stored card left unused. The old profile is kept with the
 * provider, as the resume keeps it (docs/decisions/subscriptions.md).
 */
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import { SUBSCRIPTION_MESSAGES as MSG, type ChangeCardRequest, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { findPlanToResume } from '@nh/server/queries/subscriptions/shopper';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import type { SubscriptionRow } from '@nh/server/db/schema';
import type { PaymentGateway } from '@nh/server/payments';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/validation';
import { changePlan, type ShopperDecision } from './changes';
import { refuseState, refuseWhilePeriodBusy } from './plan-rules';
import { storePlanCard, type StoredCard } from './store-card';

/**
 * The plan's card becomes the stored one (its expiry forgotten: the workers look it up from the outbox
 * row), with the confirmation email naming it: here and through a card link staff sent (./card-link.ts).
 */
export function newCardDecision(stored: StoredCard): ShopperDecision {
  const cardType = stored.lastFour ? stored.cardType : null;
  return {
    change: {
      authnetCustomerProfileId: stored.profile.customerProfileId,
      authnetPaymentProfileId: stored.profile.paymentProfileId,
      cardExpiresOn: null,
      cardType,
      cardLastFour: stored.lastFour,
    },
    email: { kind: 'card', cardType, cardLastFour: stored.lastFour },
  };
}

const refuseNotActive = (row: Pick<SubscriptionRow, 'status'>): never => refuseState(row, MSG, 'SUBSCRIPTION_NOT_ACTIVE', MSG.cardNotActive);

export async function changeCard({ db, gateway, log }: { db: Db; gateway: PaymentGateway | null; log: Logger }, userId: string, id: string, input: ChangeCardRequest): Promise<SubscriptionView> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', MSG.notFound);
  const plan = await findPlanToResume(db.$client, id, userId);
  if (!plan) throw new AppError('NOT_FOUND', MSG.notFound);
  if (plan.status !== 'active') refuseNotActive(plan);
  const address = plan.shipping_address;
  if (!address) throw new AppError('SUBSCRIPTION_NOT_RESUMABLE', MSG.noAddress);
  if (!gateway) throw new AppError('PAYMENTS_UNAVAILABLE', CHECKOUT_MESSAGES.paymentsUnavailable);

  const stored = await storePlanCard({ gateway, log }, userId, id, { ...plan, shipping_address: address }, input);
  try {
    return await changePlan(db, userId, id, ({ row, periodCharge }) => {
      if (row.status !== 'active') refuseNotActive(row);
      // Today's charge is under way on the old card: the shopper would be told the new one pays for it.
      refuseWhilePeriodBusy(periodCharge, MSG);
      return newCardDecision(stored);
    });
  } catch (error) {
    // Changed between the read and now (a cancel, a pause): the stored card is left unused.
    log.warn({ subscriptionId: id, profile: stored.profile }, 'plan changed while its new card was stored; card profile left unused');
    throw error;
  }
}
