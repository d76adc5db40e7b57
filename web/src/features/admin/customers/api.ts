/**
 * Customers in the back office (issue 23): GET /api/admin/customers (search, tag, sort, page), GET /{id}
 * (the customer's page), POST /{id}/notes, PUT /{id}/tags, POST /{id}/sign-in-code, /{id}/merge-guest-orders; notes on orders (GET and POST
 * /api/admin/orders/{id}/notes). Privacy requests: GET /{id}/export, POST /{id}/anonymise.
 */
import type { CustomerDetail, CustomerList, CustomerNote, CustomerSort, OrderNotes } from '@nh/shared/contracts/admin-customers';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, readJson } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';

/** The list's filters as the URL and the API spell them (empty means "any"). */
export interface CustomerFilters {
  q: string;
  tag: string;
  sort: CustomerSort;
  page: number;
}

export const EMPTY_CUSTOMER_FILTERS: CustomerFilters = { q: '', tag: '', sort: 'lastOrder', page: 1 };

export function customerParamsOf(filters: CustomerFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q) params.set('q', filters.q);
  if (filters.tag) params.set('tag', filters.tag);
  if (filters.sort !== 'lastOrder') params.set('sort', filters.sort);
  if (filters.page > 1) params.set('page', String(filters.page));
  return params;
}

export function customerFiltersOf(params: URLSearchParams): CustomerFilters {
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return {
    q: params.get('q') ?? '',
    tag: params.get('tag') ?? '',
    sort: params.get('sort') === 'spend' ? 'spend' : 'lastOrder',
    page: Number.isFinite(page) && page > 1 ? Math.min(page, 10_000) : 1,
  };
}

const CUSTOMERS = [...ADMIN_KEY, 'customers'] as const;
const ORDER_NOTES = [...ADMIN_KEY, 'order-notes'] as const;

export const customerQueries = {
  all: CUSTOMERS,
  list: (filters: CustomerFilters) =>
    queryOptions({
      queryKey: [...CUSTOMERS, 'list', filters],
      queryFn: async () => readJson<CustomerList>(await apiRequest('GET', `/api/admin/customers?${customerParamsOf(filters).toString()}`)),
      staleTime: 0,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...CUSTOMERS, 'detail', id],
      queryFn: async () => readJson<CustomerDetail>(await apiRequest('GET', `/api/admin/customers/${encodeURIComponent(id)}`)),
      staleTime: 0,
    }),
  orderNotes: (orderId: string) =>
    queryOptions({
      queryKey: [...ORDER_NOTES, orderId],
      queryFn: async () => readJson<OrderNotes>(await apiRequest('GET', `/api/admin/orders/${encodeURIComponent(orderId)}/notes`)),
      staleTime: 0,
    }),
  orderNotesAll: ORDER_NOTES,
};

export const addCustomerNote = async (id: string, body: string) =>
  readJson<CustomerNote>(await apiRequest('POST', `/api/admin/customers/${encodeURIComponent(id)}/notes`, { body }));

export const addOrderNote = async (orderId: string, body: string) =>
  readJson<CustomerNote>(await apiRequest('POST', `/api/admin/orders/${encodeURIComponent(orderId)}/notes`, { body }));

export const setCustomerTags = async (id: string, tags: string[]) =>
  readJson<{ tags: string[] }>(await apiRequest('PUT', `/api/admin/customers/${encodeURIComponent(id)}/tags`, { tags }));
