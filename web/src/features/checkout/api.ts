/** Server calls of the checkout: payments status, promo validation, placing the order. */
import type { CheckoutNonceRequest, CheckoutNonceResponse, PaymentsStatus, SubscribeNonceRequest } from '@nh/shared/contracts/checkout';
import type { PromoValidation } from '@nh/shared/contracts/promo';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from '@/lib/query-client';

export const paymentsStatusQuery = queryOptions({
  queryKey: ['/api/payments/status'],
  queryFn: getQueryFn<PaymentsStatus>({ on401: 'throw' }),
  staleTime: 60_000,
});

export const usePaymentsStatus = () => useQuery(paymentsStatusQuery);

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
