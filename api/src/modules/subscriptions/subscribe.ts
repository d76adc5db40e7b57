/**
 * Starting a Subscribe & Save plan (POST /api/payments/subscribe-nonce): the checkout's write path
 * (orders/service.ts) with a plan attached. The first delivery is an order placed now, priced as a
 * subscription (15% off, free shipping, tax) and, with a promo code, that code's discount on top; the
 * same charge stores the card (CIM) for renewals, and the statement that records the charge also writes
 * the subscription, whose amount is the subscriber price without the promo (what each renewal charges).
 */
import { randomUUID } from 'node:crypto';
import type { AuthUser } from '@nh/shared/contracts/auth';
import type { SubscribeNonceInput } from '@nh/shared/contracts/checkout';
import { billingPeriodOf, nextBillingDate, SUBSCRIPTION_DISCOUNT_PERCENT } from '@nh/shared/contracts/subscriptions';
import type { AppContext } from '../../context';
import { placeOrder, type CheckoutAnswer, type NewPlan, type OrderRequest } from '../orders/service';

/**
 * The merchant customer id of the stored card (≤ 20 characters): the user's id, then the plan's.
 * The gateway refuses a second profile with the same customer id (E00039, and then stores no card),
 * so a user's second plan must not reuse the first one's.
 */
export const profileCustomerId = (userId: string, subscriptionId: string): string => `${userId.replace(/-/g, '').slice(0, 12)}${subscriptionId.replace(/-/g, '').slice(0, 8)}`;

/** A subscribe call as an order request: the customer fields are the card's billing details. */
function subscriptionOrder(input: SubscribeNonceInput): OrderRequest {
  const billing = { address: input.address, city: input.city, state: input.state, zip: input.zip };
  return {
    customer: { firstName: input.firstName, lastName: input.lastName, email: input.email, ...billing },
    opaqueData: { dataDescriptor: input.dataDescriptor, dataValue: input.dataValue },
    amount: input.amount,
    items: input.items,
    summary: null,
    promoCode: input.promoCode,
    shippingAddress: input.shippingAddress,
    billingAddress: billing,
  };
}

export interface SubscribeOptions {
  idempotencyKey: string;
  requestHash: string;
}

export async function subscribe(ctx: AppContext, input: SubscribeNonceInput, user: AuthUser, options: SubscribeOptions): Promise<CheckoutAnswer> {
  const now = new Date();
  const subscriptionId = randomUUID();
  const plan: NewPlan = {
    subscriptionId,
    userId: user.id,
    interval: input.interval,
    intervalCount: 1,
    discountPercent: SUBSCRIPTION_DISCOUNT_PERCENT,
    nextBillingDate: nextBillingDate(now, input.interval),
    billingPeriod: billingPeriodOf(now),
    customerId: profileCustomerId(user.id, subscriptionId),
  };
  return placeOrder(ctx, subscriptionOrder(input), { ...options, userId: user.id, plan });
}
