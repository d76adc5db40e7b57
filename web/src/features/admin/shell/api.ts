/**
 * Server calls of the back office. The staff session cookie (httpOnly, set by POST /api/admin/session)
 * authenticates every call: no credential is kept by the SPA or sent in a body. A 401 means signed
 * out (the admin layout drops to sign-in); a 403 `STAFF_FORBIDDEN` means the role lacks the permission.
 */
import { STORE_CODE } from '@nh/shared/constants';
import type { AdminPromoCode, CreatePromoCodeInput, UpdateProductInput } from '@nh/shared/contracts/admin';
import type { AuditEntityType, AuditAction, AuditPage } from '@nh/shared/contracts/audit';
import type { Category, Product } from '@nh/shared/contracts/catalog';
import type { SyncSummary } from '@nh/shared/contracts/admin-sync';
import type {
  AcceptInvitationInput,
  InvitationDetails,
  InviteStaffInput,
  StaffInvitation,
  StaffList,
  StaffMe,
  StaffMember,
  StaffSignIn,
  UpdateStaffInput,
} from '@nh/shared/contracts/staff';
import { ApiError, apiRequest as request, getQueryFn, readJson, throwIfResNotOk } from '@/lib/query-client';


/** A state-changing call always sends a JSON body (an empty object when it has no fields). */
const apiRequest = (method: string, url: string, body: Record<string, unknown> = {}) => request(method, url, body);

/** The `code` of a JSON error body (e.g. STAFF_SIGN_IN_REQUIRED), if there is one. */
export function errorCodeOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  try {
    const parsed = JSON.parse(error.body) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

/** A 401 from an admin call: the session is gone (expired, signed out elsewhere, account disabled). A refused sign-in is not one. */
export const isSignInRequired = (error: unknown): boolean => error instanceof ApiError && error.status === 401 && errorCodeOf(error) !== 'STAFF_SIGN_IN_FAILED';

/** Everything under 'admin' is dropped when someone else signs in; the staff session itself has its own key. */
export const adminKeys = {
  all: ['admin'] as const,
  promoCodes: ['admin', 'promo-codes'] as const,
  products: ['admin', 'products'] as const,
  orders: ['admin', 'orders'] as const,
  order: (id: string) => ['admin', 'order', id] as const,
  staff: ['admin', 'staff'] as const,
  audit: (filters: AuditFilters) => ['admin', 'audit', filters] as const,
};

// ---------------------------------------------------------------- staff session
export const staffKeys = {
  me: ['staff', 'me'] as const,
  invitation: (token: string) => ['staff', 'invitation', token] as const,
};

/** GET /api/admin/me: the signed-in staff member, or null when signed out. */
export async function fetchStaffMe(): Promise<StaffMe | null> {
  const res = await fetch('/api/admin/me', { credentials: 'include' });
  if (res.status === 401) return null;
  await throwIfResNotOk(res);
  return readJson<StaffMe>(res);
}

export const signIn = async (input: StaffSignIn) => readJson<StaffMe>(await apiRequest('POST', '/api/admin/session', input));

export const signOut = async (): Promise<void> => {
  await apiRequest('DELETE', '/api/admin/session');
};

export const checkInvitation = async (token: string) => readJson<InvitationDetails>(await apiRequest('POST', '/api/admin/invitations/check', { token }));

export const acceptInvitation = async (input: AcceptInvitationInput) => readJson<StaffMe>(await apiRequest('POST', '/api/admin/invitations/accept', input));

export const requestPasswordReset = async (email: string) => readJson<{ message: string }>(await apiRequest('POST', '/api/admin/password-reset', { email }));

export const confirmPasswordReset = async (token: string, password: string) =>
  readJson<{ message: string }>(await apiRequest('POST', '/api/admin/password-reset/confirm', { token, password }));

// ---------------------------------------------------------------- staff accounts (owner)
export const listStaff = async () => readJson<StaffList>(await request('GET', '/api/admin/staff'));

export const inviteStaff = async (input: InviteStaffInput) => readJson<StaffInvitation>(await apiRequest('POST', '/api/admin/staff/invitations', input));

/** DELETE /api/admin/staff/invitations/{id}: the invitation's link stops working at once (audited). */
export const revokeInvitation = async (id: string): Promise<void> => {
  await apiRequest('DELETE', `/api/admin/staff/invitations/${encodeURIComponent(id)}`);
};
export const updateStaff = async (id: string, change: UpdateStaffInput) => readJson<StaffMember>(await apiRequest('PATCH', `/api/admin/staff/${encodeURIComponent(id)}`, change));

// ---------------------------------------------------------------- audit trail
/** The audit screen's filters as the URL and the API spell them (empty means "any"). */
export interface AuditFilters {
  actor: string;
  entityType: AuditEntityType | '';
  entityId: string;
  action: AuditAction | '';
  from: string;
  to: string;
  offset: number;
}

export const AUDIT_PAGE_SIZE = 50;

/** The query string of the filters (empty ones left out); `paged` adds limit and offset. */
export function auditSearch(filters: AuditFilters, paged: boolean): string {
  const params = new URLSearchParams();
  for (const key of ['actor', 'entityType', 'entityId', 'action', 'from', 'to'] as const) {
    const value = filters[key].trim();
    if (value) params.set(key, value);
  }
  if (paged) {
    params.set('limit', String(AUDIT_PAGE_SIZE));
    params.set('offset', String(filters.offset));
  }
  return params.toString();
}

export const listAudit = async (filters: AuditFilters) => readJson<AuditPage>(await request('GET', `/api/admin/audit?${auditSearch(filters, true)}`));

/** The CSV download, a plain link (the server streams the file with the session cookie). */
export const auditCsvUrl = (filters: AuditFilters) => {
  const search = auditSearch(filters, false);
  return `/api/admin/audit.csv${search ? `?${search}` : ''}`;
};

// ---------------------------------------------------------------- promo codes
export const listPromoCodes = async () => readJson<AdminPromoCode[]>(await apiRequest('POST', '/api/promo-codes/list'));

export const createPromoCode = async (input: CreatePromoCodeInput) => readJson<AdminPromoCode>(await apiRequest('POST', '/api/promo-codes', input));

export const togglePromoCode = async (id: number) => readJson<AdminPromoCode>(await apiRequest('PATCH', `/api/promo-codes/${id}/toggle`));

// ---------------------------------------------------------------- products
// The product list (search, paging), picture upload and inventory: catalog/api.ts.

/** The server requires name, slug, price and categoryId (the create form checks them first). */
export const createProduct = async (input: UpdateProductInput) => readJson<Product>(await apiRequest('POST', '/api/products', input));

export const updateProduct = async (id: number, input: UpdateProductInput) => readJson<Product>(await apiRequest('PUT', `/api/products/${id}`, input));

export const deleteProduct = async (id: number) => readJson<{ deleted: true }>(await apiRequest('DELETE', `/api/products/${id}`));

export const categoriesQuery = { queryKey: ['/api/categories'], queryFn: getQueryFn<Category[]>({ on401: 'throw' }), staleTime: 60_000 };

// ---------------------------------------------------------------- orders and exports: orders/api.ts

// ---------------------------------------------------------------- NetSuite sync (admin-sync API)
export const syncKeys = { summary: ['admin', 'sync', 'summary'] as const };

export const syncSummary = async () => readJson<SyncSummary>(await apiRequest('POST', '/api/admin/sync/summary', { storeCode: STORE_CODE }));

export const retryOrderSync = async (orderId: string) =>
  readJson<{ orderId: string; netsuiteSyncStatus: 'pending' }>(await apiRequest('POST', `/api/admin/sync/orders/${encodeURIComponent(orderId)}/retry`, { storeCode: STORE_CODE }));

export const retryAllFailedSyncs = async () => readJson<{ retried: number }>(await apiRequest('POST', '/api/admin/sync/retry-failed', { storeCode: STORE_CODE }));
