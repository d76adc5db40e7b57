/**
 * Storing a shopper's new card for a plan (resuming a paused plan, changing the card of an active one):
 * the card, tokenised in the browser (Accept.js), becomes a new customer payment profile with the
 * provider, not charged (the gateway validates it). A card that was not stored is answered as checkout
 * answers a charge that was not made.
 */
import { randomUUID } from 'node:crypto';
import { SHOP } from '@nh/shared';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import type { PlanToResume } from '@nh/server/queries/subscriptions/shopper';
import type { Logger } from '@nh/server/observability/logger';
import { failedStore, GATEWAY_MESSAGES, planBillTo, profileCustomerId, type PaymentGateway, type StoreCardResult, type StoredPaymentProfile } from '@nh/server/payments';
import { AppError } from '../../lib/errors';

export interface StoredCard {
  profile: StoredPaymentProfile;
  cardType: string | null;
  lastFour: string | null;
}

/** Stores the card for the user's plan `id` (its name and shipping address billed), or throws the refusal. */
export async function storePlanCard(
  { gateway, log }: { gateway: PaymentGateway; log: Logger },
  userId: string,
  id: string,
  plan: Pick<PlanToResume, 'customer_name' | 'customer_email'> & { shipping_address: NonNullable<PlanToResume['shipping_address']> },
  card: { dataDescriptor: string; dataValue: string },
): Promise<StoredCard> {
  const stored = await gateway
    .storeCard({
      opaqueData: { dataDescriptor: card.dataDescriptor, dataValue: card.dataValue },
      // A new customer id per card: the gateway refuses a second profile under one id (E00039).
      customerId: profileCustomerId(userId, randomUUID()),
      email: plan.customer_email,
      billTo: planBillTo(plan.customer_name, plan.shipping_address),
      description: `${SHOP.name} subscription ${id.slice(0, 8)}`,
    })
    .catch((error: unknown) => {
      log.warn({ err: error, subscriptionId: id }, 'storing a card threw; treated as no answer');
      return failedStore('unknown', GATEWAY_MESSAGES.storeUnknown, 'exception');
    });
  if (stored.outcome !== 'stored' || !stored.profile) throw refusal(log, id, stored);
  return { profile: stored.profile, cardType: stored.cardType, lastFour: stored.lastFour };
}

/** A card that was not stored, answered as checkout answers a charge that was not made. */
function refusal(log: Logger, subscriptionId: string, stored: StoreCardResult): AppError {
  if (stored.outcome === 'unknown') return new AppError('PAYMENT_OUTCOME_UNKNOWN', stored.message, { responseMessage: stored.message });
  if (stored.errorCode === 'E00007') {
    log.error({ subscriptionId }, 'Authorize.Net refused our credentials (E00007): check AUTHNET_API_LOGIN_ID and AUTHNET_TRANSACTION_KEY');
    return new AppError('PAYMENTS_UNAVAILABLE', CHECKOUT_MESSAGES.paymentsUnavailable);
  }
  // Declined, or refused (a used or expired token, …): the provider's sentence, 402 (counted by the card-testing guard).
  return new AppError('PAYMENT_DECLINED', stored.message, { responseMessage: stored.message });
}
