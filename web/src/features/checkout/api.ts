/** Server calls of the checkout: promo validation, placing the order, Subscribe & Save. */
import type { StoreCreditView } from '@nh/shared/contracts/store-credit';
import { toCents, type Cents } from '@nh/shared/money';
import { checkoutQuoteSchema, type CheckoutNonceRequest, type CheckoutNonceResponse, type CheckoutQuote, type CheckoutQuoteRequest, type SubscribeNonceRequest } from '@nh/shared/contracts/checkout';
import { shopperOrderListSchema, shopperOrderSchema, type ShopperOrder } from '@nh/shared/contracts/account';
import type { PromoValidation } from '@nh/shared/contracts/promo';
import { apiRequest } from '@/lib/query-client';

export async function validatePromoCode(code: string): Promise<PromoValidation> {
  const res = await apiRequest('GET', `/api/promo-codes/validate/${encodeURIComponent(code)}`);
  return (await res.json()) as PromoValidation;
}

export async function placeOrder(body: CheckoutNonceRequest, idempotencyKey: string): Promise<CheckoutNonceResponse> {
  const res = await apiRequest('POST', '/api/payments/checkout-nonce', body, { 'Idempotency-Key': idempotencyKey });
  return (await res.json()) as CheckoutNonceResponse;
}

/** Subscribe & Save: answers the raw body (subscriptionId, orderId, nextBillingDate); see subscription-answer.ts. */
export async function createSubscription(body: SubscribeNonceRequest, idempotencyKey: string): Promise<unknown> {
  const res = await apiRequest('POST', '/api/payments/subscribe-nonce', body, { 'Idempotency-Key': idempotencyKey });
  return res.json().catch(() => null);
}

/** A signed-in shopper's newest order's shipping address (for the checkout's prefill), or null. */
export async function fetchLastAddress(): Promise<ShopperOrder['shippingAddress'] | null> {
  const list = shopperOrderListSchema.parse(await (await apiRequest('GET', '/api/orders')).json());
  const newest = list.orders[0];
  if (!newest) return null;
  return shopperOrderSchema.parse(await (await apiRequest('GET', `/api/orders/${encodeURIComponent(newest.id)}`)).json()).shippingAddress;
}

/** The signed-in shopper's store credit balance in cents (0 when signed out or none): the summary's "Store credit" line (issue 23). */
export async function fetchCreditBalance(): Promise<Cents> {
  const res = await apiRequest('GET', '/api/account/credit');
  return toCents(((await res.json()) as StoreCreditView).balance);
}

/** The summary's figures for the cart shipped to the address typed so far (issue 25): the server's pricing. */
export async function fetchCheckoutQuote(body: CheckoutQuoteRequest, signal?: AbortSignal): Promise<CheckoutQuote> {
  const res = await fetch('/api/checkout/quote', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), credentials: 'include', signal });
  if (!res.ok) {
    const answer = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(answer?.message ?? 'We could not work out shipping and tax just now. Please try again.');
  }
  return checkoutQuoteSchema.parse(await res.json());
}
