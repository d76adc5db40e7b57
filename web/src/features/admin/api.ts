/** Server calls of the admin screens. Each carries the admin token in `password` (spec §6). */
import { STORE_CODE } from '@nh/shared/constants';
import type {
  AdminOrder,
  AdminOrderSummary,
  AdminPromoCode,
  CreatePromoCodeInput,
  OrderStatus,
  UpdateOrderInput,
  UpdateProductInput,
  VerifyPasswordResponse,
} from '@nh/shared/contracts/admin';
import type { Category, Product } from '@nh/shared/contracts/catalog';
import type { SyncSummary } from '@nh/shared/contracts/admin-sync';
import type { ExportStarted, ExportStatusResponse } from '@nh/shared/contracts/exports';
import { ApiError, apiRequest as request, getQueryFn } from '@/lib/query-client';
import { forgetStoredToken, setAdminToken } from './admin-session';

const json = async <T>(res: Response) => (await res.json()) as T;

/** An admin call; a 401 means the token expired or was revoked, so the session is dropped (the gate returns). */
async function apiRequest(method: string, url: string, body: Record<string, unknown>): Promise<Response> {
  try {
    return await request(method, url, body);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setAdminToken(null);
      forgetStoredToken();
    }
    throw error;
  }
}

export const adminKeys = {
  promoCodes: ['admin', 'promo-codes'] as const,
  products: ['admin', 'products'] as const,
  orders: ['admin', 'orders'] as const,
  ordersPage: (filters: OrderFilters) => ['admin', 'orders', filters] as const,
  order: (id: string) => ['admin', 'order', id] as const,
};

/** The token (or the password itself, at the gate); false when it is refused (401). */
export async function verifyAdminPassword(password: string): Promise<VerifyPasswordResponse | false> {
  try {
    return await json<VerifyPasswordResponse>(await request('POST', '/api/admin/verify-password', { password }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false;
    throw error;
  }
}

// ---------------------------------------------------------------- promo codes
export const listPromoCodes = async (password: string) => json<AdminPromoCode[]>(await apiRequest('POST', '/api/promo-codes/list', { password }));

export const createPromoCode = async (password: string, input: Omit<CreatePromoCodeInput, 'password'>) =>
  json<AdminPromoCode>(await apiRequest('POST', '/api/promo-codes', { ...input, password }));

export const togglePromoCode = async (password: string, id: number) => json<AdminPromoCode>(await apiRequest('PATCH', `/api/promo-codes/${id}/toggle`, { password }));

// ---------------------------------------------------------------- products
export const listAdminProducts = async (password: string) => json<Product[]>(await apiRequest('POST', '/api/admin/products', { password }));

/** The server requires name, slug, price and categoryId (the create form checks them first). */
export const createProduct = async (password: string, input: Omit<UpdateProductInput, 'password'>) =>
  json<Product>(await apiRequest('POST', '/api/products', { ...input, password }));

export const updateProduct = async (password: string, id: number, input: Omit<UpdateProductInput, 'password'>) =>
  json<Product>(await apiRequest('PUT', `/api/products/${id}`, { ...input, password }));

export const deleteProduct = async (password: string, id: number) => json<{ deleted: true }>(await apiRequest('DELETE', `/api/products/${id}`, { password }));

export const categoriesQuery = { queryKey: ['/api/categories'], queryFn: getQueryFn<Category[]>({ on401: 'throw' }), staleTime: 60_000 };

// ---------------------------------------------------------------- orders
export interface OrderFilters {
  search: string;
  status: OrderStatus | 'all';
  offset: number;
}

export interface OrdersPage {
  orders: AdminOrderSummary[];
  total: number;
}

export async function listOrders(password: string, filters: OrderFilters): Promise<OrdersPage> {
  const res = await apiRequest('POST', '/api/admin/orders', { password, storeCode: STORE_CODE, ...filters, search: filters.search.trim() || undefined });
  const orders = await json<AdminOrderSummary[]>(res);
  return { orders, total: Number(res.headers.get('X-Total-Count') ?? orders.length) };
}

export const getOrder = async (password: string, id: string) =>
  json<AdminOrder>(await apiRequest('POST', `/api/admin/orders/${encodeURIComponent(id)}`, { password, storeCode: STORE_CODE }));

export const updateOrder = async (password: string, id: string, update: Pick<UpdateOrderInput, 'status' | 'carrier' | 'trackingNumber'>) =>
  json<AdminOrder>(await apiRequest('PATCH', `/api/admin/orders/${encodeURIComponent(id)}`, { ...update, password, storeCode: STORE_CODE }));

// ---------------------------------------------------------------- CSV export (start, poll, download)
export const startExport = async (password: string) => json<ExportStarted>(await apiRequest('POST', '/api/admin/orders/export', { password, storeCode: STORE_CODE }));

export const exportStatus = async (password: string, exportId: string) =>
  json<ExportStatusResponse>(await apiRequest('POST', `/api/admin/orders/export/${exportId}/status`, { password, storeCode: STORE_CODE }));

export const downloadExport = async (password: string, exportId: string) =>
  (await apiRequest('POST', `/api/admin/orders/export/${exportId}/download`, { password, storeCode: STORE_CODE })).blob();

// ---------------------------------------------------------------- NetSuite sync (admin-sync API)
export const syncKeys = { summary: ['admin', 'sync', 'summary'] as const };

export const syncSummary = async (password: string) => json<SyncSummary>(await apiRequest('POST', '/api/admin/sync/summary', { password, storeCode: STORE_CODE }));

export const retryOrderSync = async (password: string, orderId: string) =>
  json<{ orderId: string; netsuiteSyncStatus: 'pending' }>(await apiRequest('POST', `/api/admin/sync/orders/${encodeURIComponent(orderId)}/retry`, { password, storeCode: STORE_CODE }));

export const retryAllFailedSyncs = async (password: string) => json<{ retried: number }>(await apiRequest('POST', '/api/admin/sync/retry-failed', { password, storeCode: STORE_CODE }));
