/**
 * Placing the order, as one mutation: tokenise the card, send the order (or start Subscribe & Save),
 * then toast, clear the cart and open the order's confirmation page (/checkout/complete/:orderId, issue
 * 22; a plan's id in `?plan=`); a failure is toasted and leaves the form as it was.
 *
 * - Subscribe & Save: the first charge and the plan (every 1, 2 or 3 months: the shopper's choice) are created by the subscriptions API. The
 *   amount is the first delivery's, as the summary shows it (a promo applies to it alone), and the
 *   promo code goes with it.
 * - Checkout: one Idempotency-Key per attempt (`checkout-attempt.ts`). A request that got no answer
 *   leaves its attempt pending, and submitting the same form and cart again re-sends it as it was
 *   (same key, no new card token); any answer, or any change, starts a new attempt.
 */
import { SUBSCRIPTION_TERMS_VERSION } from '@nh/shared/contracts/subscription-terms';
import type { CartItem } from '@nh/shared/cart';
import { LIMITS } from '@nh/shared/constants';
import type { CheckoutForm, CheckoutNonceRequest, SubscribeNonceRequest } from '@nh/shared/contracts/checkout';
import type { PromoValidation } from '@nh/shared/contracts/promo';
import { SUBSCRIPTION_MESSAGES, subscribeNonceResponseSchema } from '@nh/shared/contracts/subscriptions';
import { centsToDecimal } from '@nh/shared/money';
import { priceCart, pricePlan, toPayloadStrings, type PricingStrings } from '@nh/shared/pricing';
import type { ShippingMethod } from '@nh/shared/shipping-rules';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { TokenizeError, type OpaqueCardData } from '@/components/card-entry/accept';
import type { CardForm } from '@/components/card-entry/card-form';
import { toast } from '@/components/ui/use-toast';
import { formatLongDate } from '@/lib/format-date';
import { useCart } from '@/stores/cart-context';
import { createSubscription, placeOrder } from './api';
import { clearCheckoutDraft } from './checkout-draft';
import { isNetworkFailure, newAttempt, reusableAttempt, type CheckoutAttempt } from './checkout-attempt';
import { failureMessage } from './failure-message';
import { nextDeliveryFromAnswer } from './subscription-answer';

export interface PlaceOrderInput {
  values: CheckoutForm;
  /** The cart lines being bought (prices in integer cents). */
  items: readonly CartItem[];
  promo: PromoValidation | null;
  /** The signed-in shopper's store credit pays the whole order (issue 23): no card is tokenised or sent. */
  creditCovers?: boolean;
  /** The summary's figures, the server's quote for this address (issue 25); absent: the shared rules' (flat, home zone). */
  figures?: PricingStrings;
  /** Standard unless the shopper chose express (a plan: always standard). */
  shippingMethod?: ShippingMethod;
}

export type PlacedOrder = { kind: 'subscription'; nextDelivery: Date; orderId: string | null; subscriptionId: string | null } | { kind: 'order'; orderId: string };

export interface UsePlaceOrderOptions {
  /** The card entry's tokeniser (`useCardEntry().tokenize`). */
  tokenize: (card: CardForm) => Promise<OpaqueCardData>;
}

export function usePlaceOrder({ tokenize }: UsePlaceOrderOptions) {
  const { clearCart } = useCart();
  const navigate = useNavigate();
  const pendingAttempt = useRef<CheckoutAttempt<CheckoutNonceRequest> | null>(null);

  return useMutation({
    mutationFn: async ({ values, items, promo, creditCovers = false, figures, shippingMethod = 'standard' }: PlaceOrderInput): Promise<PlacedOrder> => {
      const customer = {
        firstName: values.firstName,
        lastName: values.lastName,
        email: values.email,
        address: values.address,
        city: values.city,
        state: values.state,
        zip: values.zip,
      };
      const address = { address: values.address, city: values.city, state: values.state, zip: values.zip };
      const lines = items.map((item) => ({ price: item.price, quantity: item.quantity }));
      const orderItems = items.map((item) => ({ productId: item.productId, variantSku: item.variantSku, quantity: item.quantity, price: centsToDecimal(item.price) }));
      const fingerprint = JSON.stringify({ values, orderItems, promo: promo?.code ?? null, creditCovers, figures: figures ?? null, shippingMethod });

      if (values.subscribeAndSave) {
        const opaque = await tokenize(values);
        const body: SubscribeNonceRequest = {
          amount: figures?.total ?? centsToDecimal(pricePlan(lines, promo).firstDelivery.total),
          promoCode: promo?.code ?? null,
          ...opaque,
          ...customer,
          interval: 'monthly',
          intervalCount: values.intervalCount,
          items: orderItems,
          shippingAddress: address,
          // The terms the checkout showed (consent on record): the server refuses a version it no longer offers.
          termsVersion: SUBSCRIPTION_TERMS_VERSION,
        };
        const answer = await createSubscription(body, crypto.randomUUID());
        const ids = subscribeNonceResponseSchema.safeParse(answer);
        return { kind: 'subscription', nextDelivery: nextDeliveryFromAnswer(answer), orderId: ids.data?.orderId ?? null, subscriptionId: ids.data?.subscriptionId ?? null };
      }

      let attempt = reusableAttempt(pendingAttempt.current, fingerprint);
      if (!attempt) {
        // The server decides what credit pays; when the summary showed it paying all, no card goes.
        const opaque = creditCovers ? {} : await tokenize(values);
        const strings = figures ?? toPayloadStrings(priceCart(lines, { promo }));
        attempt = newAttempt(fingerprint, {
          amount: strings.total,
          ...opaque,
          ...customer,
          orderData: {
            items: orderItems,
            subtotal: strings.subtotal,
            discount: strings.discount,
            shipping: strings.shipping,
            tax: strings.tax,
            total: strings.total,
            promoCode: promo?.code ?? null,
            shippingAddress: address,
            billingAddress: address,
            ...(shippingMethod === 'express' ? { shippingMethod } : {}),
          },
        });
      }
      pendingAttempt.current = attempt;
      try {
        const { orderId } = await placeOrder(attempt.body, attempt.key);
        pendingAttempt.current = null;
        return { kind: 'order', orderId };
      } catch (error) {
        // Only a request that got no answer may be re-sent as it is; any answer ends the attempt.
        if (!isNetworkFailure(error)) pendingAttempt.current = null;
        throw error;
      }
    },
    onSuccess: (placed) => {
      if (placed.kind === 'subscription') {
        toast({ title: SUBSCRIPTION_MESSAGES.created, description: `Your next delivery is scheduled for ${formatLongDate(placed.nextDelivery)}.` });
      } else {
        toast({ title: 'Order placed successfully!', description: `Your order number is ${placed.orderId.slice(0, LIMITS.orderIdDisplayLength)}.` });
      }
      clearCart();
      clearCheckoutDraft();
      if (placed.kind === 'order') void navigate(`/checkout/complete/${placed.orderId}`);
      else if (placed.orderId) void navigate(`/checkout/complete/${placed.orderId}${placed.subscriptionId ? `?plan=${placed.subscriptionId}` : ''}`);
      else void navigate('/');
    },
    onError: (error) => {
      if (error instanceof TokenizeError) {
        toast({ title: 'Payment Error', description: error.message, variant: 'destructive' });
      } else {
        toast({ title: 'Payment failed', description: failureMessage(error), variant: 'destructive' });
      }
    },
  });
}
