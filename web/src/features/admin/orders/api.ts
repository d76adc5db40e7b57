/**
 * Server calls of the order screens (the staff session cookie authenticates; order calls carry the
 * store code in the body), and their queries. Keys sit under the admin key, so a new sign-in drops them.
 */
import type { AdminOrder, AdminOrdersRequest, AdminOrderSummary, UpdateOrderInput } from '@nh/shared/contracts/admin';
import type { ChangeOrderAddressInput } from '@nh/shared/contracts/admin-order-address';
import type { OrderTimeline, ResendableEmail } from '@nh/shared/contracts/order-timeline';
import type { ChargeSettlement, RefundRequestInput, RefundResponse } from '@nh/shared/contracts/refunds';
import { queryOptions } from '@tanstack/react-query';
import { readJson } from '@/lib/query-client';
import { ADMIN_KEY, sendForStore } from '../shell/api';

const orderUrl = (id: string) => `/api/admin/orders/${encodeURIComponent(id)}`;

// ---------------------------------------------------------------- the order table
export interface OrdersPage {
  orders: AdminOrderSummary[];
  /** Matching orders, counted up to ADMIN_ORDERS_COUNT_CAP. */
  total: number;
  /** More than ADMIN_ORDERS_COUNT_CAP match: the total reads "1,000+". */
  capped: boolean;
}

/** POST /api/admin/orders: the list is the answer, the counts travel in X-Total-Count and X-Total-Capped. */
async function listOrders(request: AdminOrdersRequest): Promise<OrdersPage> {
  const res = await sendForStore('POST', '/api/admin/orders', { ...request });
  const orders = await readJson<AdminOrderSummary[]>(res);
  const total = Number(res.headers.get('X-Total-Count'));
  return {
    orders,
    total: Number.isFinite(total) && res.headers.has('X-Total-Count') ? total : orders.length,
    capped: res.headers.get('X-Total-Capped') === 'true',
  };
}

// ---------------------------------------------------------------- one order
const getOrder = async (id: string) => readJson<AdminOrder>(await sendForStore('POST', orderUrl(id)));

export const updateOrder = async (id: string, update: Pick<UpdateOrderInput, 'status' | 'carrier' | 'trackingNumber' | 'restock'>) =>
  readJson<AdminOrder>(await sendForStore('PATCH', orderUrl(id), update));

const getTimeline = async (id: string) => readJson<OrderTimeline>(await sendForStore('POST', `${orderUrl(id)}/timeline`));

/** The refund (or void) of `body`, sent with the attempt's Idempotency-Key (the same key for a repeat of the same attempt). */
export const refundOrder = async (id: string, body: Omit<RefundRequestInput, 'storeCode'>, idempotencyKey: string) =>
  readJson<RefundResponse>(await sendForStore('POST', `${orderUrl(id)}/refunds`, { ...body }, { 'Idempotency-Key': idempotencyKey }));

/** POST …/settlement (issue 23): whether the charge has settled (refund) or not (void in full); asks the payment service. */
const getSettlement = async (id: string) => readJson<ChargeSettlement>(await sendForStore('POST', `${orderUrl(id)}/settlement`));

/** PUT …/address (issue 23): the order as it now is, and whether the address changed. */
export const changeOrderAddress = async (id: string, body: Omit<ChangeOrderAddressInput, 'storeCode'>) =>
  readJson<AdminOrder & { changed: boolean }>(await sendForStore('PUT', `${orderUrl(id)}/address`, { ...body }));

export const resendEmail = async (id: string, email: ResendableEmail) =>
  readJson<{ queued: true; message: string }>(await sendForStore('POST', `${orderUrl(id)}/emails`, { email }));

// ---------------------------------------------------------------- queries
const LISTS = [...ADMIN_KEY, 'orders'] as const;
const ORDER = (id: string) => [...ADMIN_KEY, 'order', id] as const;

export const orderQueries = {
  /** Every page of the order table (what to read again after an order changed). */
  lists: LISTS,
  list: (request: AdminOrdersRequest) => queryOptions({ queryKey: [...LISTS, request], queryFn: () => listOrders(request), staleTime: 0 }),
  /** The order; its key is the prefix of everything shown with it (its timeline). */
  order: (id: string) => queryOptions({ queryKey: ORDER(id), queryFn: () => getOrder(id), staleTime: 0 }),
  timeline: (id: string) => queryOptions({ queryKey: [...ORDER(id), 'timeline'], queryFn: () => getTimeline(id), staleTime: 0 }),
  /** Asked by the refund review step only (a payment service call), read afresh at each review. */
  settlement: (id: string) => queryOptions({ queryKey: [...ORDER(id), 'settlement'], queryFn: () => getSettlement(id), staleTime: 0, gcTime: 0, retry: false }),
};
