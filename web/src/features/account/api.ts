/** Server calls of the shopper's self-service screens (issue 13): orders, a guest's order link, password reset. */
import type { StoreCreditView } from '@nh/shared/contracts/store-credit';
import {
  acceptedResponseSchema,
  shopperOrderListSchema,
  shopperOrderSchema,
  type ForgotPasswordRequest,
  type OrderLookupRequest,
  type ResetPasswordRequest,
  type ShopperOrder,
  type ShopperOrderSummary,
} from '@nh/shared/contracts/account';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/query-client';

/** GET /api/orders; null when signed out (the page shows the sign-in prompt). */
export async function fetchOrders(): Promise<ShopperOrderSummary[] | null> {
  try {
    const res = await apiRequest('GET', '/api/orders');
    return shopperOrderListSchema.parse(await res.json()).orders;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const useOrders = (signedIn: boolean) => useQuery({ queryKey: ['/api/orders'], queryFn: fetchOrders, enabled: signedIn });

/** GET /api/orders/{id}: the shopper's own order (404 for any other). */
export async function fetchOrder(id: string): Promise<ShopperOrder> {
  const res = await apiRequest('GET', `/api/orders/${encodeURIComponent(id)}`);
  return shopperOrderSchema.parse(await res.json());
}

export const useOrder = (id: string, signedIn: boolean) => useQuery({ queryKey: ['/api/orders', id], queryFn: () => fetchOrder(id), enabled: signedIn });

/** POST /api/orders/lookup: always the same accepted message when the input is well-formed. */
export async function lookupOrder(input: OrderLookupRequest): Promise<string> {
  const res = await apiRequest('POST', '/api/orders/lookup', input);
  return acceptedResponseSchema.parse(await res.json()).message;
}

/** POST /api/orders/access: spends the emailed link, answers its order (this browser then sees it for an hour). */
export async function openOrderLink(token: string): Promise<ShopperOrder> {
  const res = await apiRequest('POST', '/api/orders/access', { token });
  return shopperOrderSchema.parse(await res.json());
}

/** GET /api/orders/guest/{id}: the order a link opened in this browser, while its hour lasts. */
export async function fetchGuestOrder(id: string): Promise<ShopperOrder> {
  const res = await apiRequest('GET', `/api/orders/guest/${encodeURIComponent(id)}`);
  return shopperOrderSchema.parse(await res.json());
}

export async function forgotPassword(input: ForgotPasswordRequest): Promise<string> {
  const res = await apiRequest('POST', '/api/password/forgot', input);
  return acceptedResponseSchema.parse(await res.json()).message;
}

export async function resetPassword(input: ResetPasswordRequest): Promise<string> {
  const res = await apiRequest('POST', '/api/password/reset', input);
  return acceptedResponseSchema.parse(await res.json()).message;
}

/** GET /api/account/credit: the shopper's store credit and its history (issue 23). */
export async function fetchStoreCredit(): Promise<StoreCreditView> {
  const res = await apiRequest('GET', '/api/account/credit');
  return (await res.json()) as StoreCreditView;
}

export const useStoreCredit = (signedIn: boolean) => useQuery({ queryKey: ['/api/account/credit'], queryFn: fetchStoreCredit, enabled: signedIn });
