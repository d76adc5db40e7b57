/**
 * What the order write path (./service.ts) needs of a request, whichever call sent it: a checkout
 * (POST /api/payments/checkout-nonce) or the first delivery of a new Subscribe & Save plan
 * (POST /api/payments/subscribe-nonce).
 *
 * Subscribing is the checkout's write path with a plan attached: the first delivery is an order placed
 * now, priced as a subscription (15% off, free shipping, tax) and, with a promo code, that code's
 * discount on top; the same charge stores the card (CIM) for renewals, and the statement that records
 * the charge also writes the subscription, whose amount is the subscriber price without the promo
 * (what each renewal charges).
 */
import { randomUUID } from 'node:crypto';
import type { ShippingMethod } from '@nh/shared';
import type { AuthUser } from '@nh/shared/contracts/auth';
import type { CheckoutAddress, CheckoutNonceInput, CustomerFields, OrderItemInput, SubscribeNonceInput } from '@nh/shared/contracts/checkout';
import { billingPeriodOf, nextBillingDate, SUBSCRIPTION_DISCOUNT_PERCENT, type SubscriptionInterval } from '@nh/shared/contracts/subscriptions';
import { profileCustomerId } from '@nh/server/payments';

/** What the write path needs of a request, whichever call sent it. */
export interface OrderRequest {
  /** The billing name, email and address (the card's). */
  customer: CustomerFields;
  /** The tokenised card; null when none was sent (the store credit must then pay the whole order). */
  opaqueData: { dataDescriptor: string; dataValue: string } | null;
  /** The total the browser showed: charged only when it is the server's. */
  amount: string;
  items: OrderItemInput[];
  /** The summary lines the checkout showed, each checked too; null when only the amount is sent. */
  summary: { subtotal: string; shipping: string; tax: string; total: string } | null;
  promoCode: string | null;
  shippingAddress: CheckoutAddress;
  billingAddress: CheckoutAddress | null;
  /** Standard unless the shopper chose express (a plan: always standard). */
  shippingMethod: ShippingMethod;
}

/** A checkout call as an order request. */
export function checkoutOrder(input: CheckoutNonceInput): OrderRequest {
  const { orderData } = input;
  return {
    customer: { firstName: input.firstName, lastName: input.lastName, email: input.email, address: input.address, city: input.city, state: input.state, zip: input.zip },
    opaqueData: input.dataDescriptor && input.dataValue ? { dataDescriptor: input.dataDescriptor, dataValue: input.dataValue } : null,
    amount: input.amount,
    items: orderData.items,
    summary: { subtotal: orderData.subtotal, shipping: orderData.shipping, tax: orderData.tax, total: orderData.total },
    promoCode: orderData.promoCode,
    shippingAddress: orderData.shippingAddress,
    billingAddress: orderData.billingAddress,
    shippingMethod: orderData.shippingMethod ?? 'standard',
  };
}

/** A subscribe call as an order request: the customer fields are the card's billing details. */
export function subscriptionOrder(input: SubscribeNonceInput): OrderRequest {
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
    shippingMethod: 'standard',
  };
}

/** A Subscribe & Save plan the order starts (the order is its first delivery). */
export interface NewPlan {
  subscriptionId: string;
  userId: string;
  interval: SubscriptionInterval;
  intervalCount: number;
  discountPercent: number;
  nextBillingDate: Date;
  /** The period the first charge pays (yyyy-MM-dd). */
  billingPeriod: string;
  /** Merchant customer id of the stored card profile (≤ 20 characters). */
  customerId: string;
}

/** The plan a subscribe call starts now for `user`, delivered every `intervalCount` intervals. */
export function newPlan(user: AuthUser, interval: SubscriptionInterval, intervalCount = 1, now = new Date()): NewPlan {
  const subscriptionId = randomUUID();
  return {
    subscriptionId,
    userId: user.id,
    interval,
    intervalCount,
    discountPercent: SUBSCRIPTION_DISCOUNT_PERCENT,
    nextBillingDate: nextBillingDate(now, interval, intervalCount),
    billingPeriod: billingPeriodOf(now),
    customerId: profileCustomerId(user.id, subscriptionId),
  };
}
