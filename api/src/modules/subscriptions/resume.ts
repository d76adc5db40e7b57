/**
 * Resuming a paused plan with a new card (POST /api/subscriptions/{id}/resume). A plan is paused when
 * its renewal could not be paid (dunning in the workers); the shopper sends a card tokenised in the
 * browser (Accept.js), as at checkout.
 *
 * 1. The plan must be the user's (anything else is not found) and paused (else 409), before any
 *    gateway call: a repeat on a plan already resumed stores nothing.
 * 2. The card is stored with the provider as a new customer payment profile, not charged (the gateway
 *    validates it). Not stored: the plan stays paused and the answer says why (402 declined, 502/503
 *    when the provider could not be asked), as checkout answers.
 * 3. One statement makes the plan active on the new profile with a clean dunning slate, its billing
 *    date left on the unpaid period, and writes the `subscription.resumed` outbox row: the relay adds
 *    the renewal at once, which charges that period's delivery on the new card.
 */
import { SHOP } from '@nh/shared';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import { billingPeriodOf, SUBSCRIPTION_MESSAGES, type ResumeSubscriptionRequest, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { findPlanToResume, resumeSubscription } from '@nh/server/queries/subscriptions/shopper';
import type { PaymentGateway } from '@nh/server/payments';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/validation';
import { toView } from './service';
import { storePlanCard } from './store-card';

export interface ResumeDeps {
  pool: Db['$client'];
  gateway: PaymentGateway | null;
  log: Logger;
}

/** A paused plan with nothing to deliver or nowhere to deliver it: a new card would not help. */
const cannotResume = () => `This subscription cannot be resumed online. Please contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone}.`;

export async function resume({ pool, gateway, log }: ResumeDeps, userId: string, id: string, input: ResumeSubscriptionRequest): Promise<SubscriptionView> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', SUBSCRIPTION_MESSAGES.notFound);
  const plan = await findPlanToResume(pool, id, userId);
  if (!plan) throw new AppError('NOT_FOUND', SUBSCRIPTION_MESSAGES.notFound);
  if (plan.status !== 'paused') throw new AppError('SUBSCRIPTION_NOT_PAUSED', SUBSCRIPTION_MESSAGES.notPaused);
  const address = plan.shipping_address;
  if (!address || plan.items.length === 0) throw new AppError('SUBSCRIPTION_NOT_RESUMABLE', cannotResume());
  if (!gateway) throw new AppError('PAYMENTS_UNAVAILABLE', CHECKOUT_MESSAGES.paymentsUnavailable);

  const stored = await storePlanCard({ gateway, log }, userId, id, { ...plan, shipping_address: address }, input);
  const outcome = await resumeSubscription(pool, {
    id,
    userId,
    profile: stored.profile,
    period: billingPeriodOf(plan.next_billing_date),
    cardType: stored.cardType,
    cardLastFour: stored.lastFour,
  });
  if (outcome.kind !== 'resumed') {
    // Changed between the read and now (a cancel, another resume): the stored card is left unused.
    log.warn({ subscriptionId: id, outcome: outcome.kind, profile: stored.profile }, 'plan changed while its new card was stored; card profile left unused');
    if (outcome.kind === 'not-found') throw new AppError('NOT_FOUND', SUBSCRIPTION_MESSAGES.notFound);
    throw outcome.kind === 'not-paused'
      ? new AppError('SUBSCRIPTION_NOT_PAUSED', SUBSCRIPTION_MESSAGES.notPaused)
      : new AppError('SUBSCRIPTION_CHANGED', SUBSCRIPTION_MESSAGES.resumeFailed);
  }
  // The new card is the plan's card on the page (subscriptions.card_type, card_last_four).
  return toView(outcome.row);
}
