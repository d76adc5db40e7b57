/**
 * Server calls of the orders and exports screens (the staff session cookie authenticates; order calls
 * carry the store code in the body). Keys live under the feature's `['admin', …]` prefixes, so a new
 * sign-in drops them and the sync panel's invalidations of `adminKeys.orders` / `adminKeys.order(id)`
 * reach them (an order's timeline sits under its order key).
 */
import { STORE_CODE } from '@nh/shared/constants';
import type { AdminOrder, AdminOrdersRequest, AdminOrderSummary, UpdateOrderInput } from '@nh/shared/contracts/admin';
import type { ExportHistory, ExportStarted, ExportStatusResponse, StartExportRequest } from '@nh/shared/contracts/exports';
import type { OrderTimeline, ResendableEmail } from '@nh/shared/contracts/order-timeline';
import type { RefundRequestInput, RefundResponse } from '@nh/shared/contracts/refunds';
import { apiRequest, readJson } from '@/lib/query-client';

/** A state-changing call always sends a JSON body with the store code. */
const send = (method: string, url: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  apiRequest(method, url, { storeCode: STORE_CODE, ...body }, headers);

const orderUrl = (id: string) => `/api/admin/orders/${encodeURIComponent(id)}`;

export const orderKeys = {
  /** Every page of the order table (the prefix `adminKeys.orders`). */
  lists: ['admin', 'orders'] as const,
  list: (request: AdminOrdersRequest) => ['admin', 'orders', request] as const,
  /** The order and everything shown with it (the prefix `adminKeys.order(id)`). */
  order: (id: string) => ['admin', 'order', id] as const,
  timeline: (id: string) => ['admin', 'order', id, 'timeline'] as const,
  exports: ['admin', 'exports'] as const,
  exportHistory: ['admin', 'exports', 'history'] as const,
  exportStatus: (id: string) => ['admin', 'exports', 'status', id] as const,
};

// ---------------------------------------------------------------- the order table
export interface OrdersPage {
  orders: AdminOrderSummary[];
  /** Matching orders, counted up to ADMIN_ORDERS_COUNT_CAP. */
  total: number;
  /** More than ADMIN_ORDERS_COUNT_CAP match: the total reads "1,000+". */
  capped: boolean;
}

/** POST /api/admin/orders: the list is the answer, the counts travel in X-Total-Count and X-Total-Capped. */
export async function listOrders(request: AdminOrdersRequest): Promise<OrdersPage> {
  const res = await send('POST', '/api/admin/orders', { ...request });
  const orders = await readJson<AdminOrderSummary[]>(res);
  const total = Number(res.headers.get('X-Total-Count'));
  return {
    orders,
    total: Number.isFinite(total) && res.headers.has('X-Total-Count') ? total : orders.length,
    capped: res.headers.get('X-Total-Capped') === 'true',
  };
}

/** POST /api/admin/sync/retry-failed with the chosen orders: those still failed go back to NetSuite. */
export const retryFailedSyncs = async (orderIds: string[]) =>
  readJson<{ retried: number }>(await send('POST', '/api/admin/sync/retry-failed', { orderIds }));

// ---------------------------------------------------------------- one order
export const getOrder = async (id: string) => readJson<AdminOrder>(await send('POST', orderUrl(id)));

export const updateOrder = async (id: string, update: Pick<UpdateOrderInput, 'status' | 'carrier' | 'trackingNumber' | 'restock'>) =>
  readJson<AdminOrder>(await send('PATCH', orderUrl(id), update));

export const getTimeline = async (id: string) => readJson<OrderTimeline>(await send('POST', `${orderUrl(id)}/timeline`));

/** The refund (or void) of `body`, sent with the attempt's Idempotency-Key (the same key for a repeat of the same attempt). */
export const refundOrder = async (id: string, body: Omit<RefundRequestInput, 'storeCode'>, idempotencyKey: string) =>
  readJson<RefundResponse>(await send('POST', `${orderUrl(id)}/refunds`, { ...body }, { 'Idempotency-Key': idempotencyKey }));

export const resendEmail = async (id: string, email: ResendableEmail) =>
  readJson<{ queued: true; message: string }>(await send('POST', `${orderUrl(id)}/emails`, { email }));

// ---------------------------------------------------------------- CSV export
export type ExportFilters = Pick<StartExportRequest, 'from' | 'to' | 'status'>;

export const startExport = async (filters: ExportFilters) =>
  readJson<ExportStarted>(await send('POST', '/api/admin/orders/export', { ...filters }));

export const exportStatus = async (exportId: string) =>
  readJson<ExportStatusResponse>(await send('POST', `/api/admin/orders/export/${encodeURIComponent(exportId)}/status`));

export const exportHistory = async (limit = 20) =>
  readJson<ExportHistory>(await send('POST', '/api/admin/orders/export/history', { limit }));

/** The finished file as a plain link: the server streams it with the session cookie and the browser saves it (no Blob). */
export const exportDownloadUrl = (exportId: string) =>
  `/api/admin/orders/export/${encodeURIComponent(exportId)}/download?storeCode=${encodeURIComponent(STORE_CODE)}`;
