/**
 * The order table's view (filters, sort, page) as the URL spells it, so a filtered page can be linked
 * to and "Back to Orders" returns to it; and the request the server answers it with.
 */
import { ADMIN_ORDER_SORTS, ADMIN_ORDERS_COUNT_CAP, ORDER_STATUSES, PAYMENT_STATES, type AdminOrderSort, type AdminOrdersRequest, type OrderStatus, type PaymentState } from '@nh/shared/contracts/admin';
import { SYNC_STATUSES, type SyncStatus } from '@nh/shared/contracts/admin-sync';

export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 50;

export interface OrderQuery {
  search: string;
  status: OrderStatus | '';
  netsuiteStatus: SyncStatus | '';
  /** Placed on or after this day (yyyy-mm-dd), both ends included. */
  from: string;
  to: string;
  promo: string;
  /** Issue 23: paid, partially refunded, refunded, voided or not paid. */
  paymentState: PaymentState | '';
  sort: AdminOrderSort;
  direction: 'asc' | 'desc';
  pageSize: number;
  /** 0-based. */
  page: number;
}

export const DEFAULT_ORDER_QUERY: OrderQuery = {
  search: '',
  status: '',
  netsuiteStatus: '',
  from: '',
  to: '',
  promo: '',
  paymentState: '',
  sort: 'createdAt',
  direction: 'desc',
  pageSize: DEFAULT_PAGE_SIZE,
  page: 0,
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = <T extends string>(values: readonly T[], value: string | null): T | '' => ((values as readonly string[]).includes(value ?? '') ? (value as T) : '');
const whole = (value: string | null) => (value && /^\d{1,7}$/.test(value) ? Number(value) : null);

/** The view of the URL; unknown or malformed values read as their default. */
export function queryFromParams(params: URLSearchParams): OrderQuery {
  const day = (key: string) => (DAY.test(params.get(key) ?? '') ? params.get(key)! : '');
  const size = whole(params.get('size'));
  return {
    search: params.get('q') ?? '',
    status: oneOf(ORDER_STATUSES, params.get('status')),
    netsuiteStatus: oneOf(SYNC_STATUSES, params.get('netsuite')),
    from: day('from'),
    to: day('to'),
    promo: params.get('promo') ?? '',
    paymentState: oneOf(PAYMENT_STATES, params.get('payment')),
    sort: oneOf(ADMIN_ORDER_SORTS, params.get('sort')) || DEFAULT_ORDER_QUERY.sort,
    direction: params.get('dir') === 'asc' ? 'asc' : 'desc',
    pageSize: size !== null && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    page: whole(params.get('page')) ?? 0,
  };
}

/** The URL of a view: only what differs from the default (the first page is page 0, shown as no `page`). */
export function paramsFromQuery(query: OrderQuery): URLSearchParams {
  const params = new URLSearchParams();
  const set = (key: string, value: string, unless: string) => {
    if (value.trim() !== unless) params.set(key, value.trim());
  };
  set('q', query.search, '');
  set('status', query.status, '');
  set('netsuite', query.netsuiteStatus, '');
  set('from', query.from, '');
  set('to', query.to, '');
  set('promo', query.promo, '');
  set('payment', query.paymentState, '');
  set('sort', query.sort, DEFAULT_ORDER_QUERY.sort);
  set('dir', query.direction, DEFAULT_ORDER_QUERY.direction);
  set('size', String(query.pageSize), String(DEFAULT_PAGE_SIZE));
  set('page', String(query.page), '0');
  return params;
}

/** The same view with some filters changed: back to the first page. */
export const withFilters = (query: OrderQuery, change: Partial<Omit<OrderQuery, 'page'>>): OrderQuery => ({ ...query, ...change, page: 0 });

/** A filter the server would refuse, in the contract's words (then nothing is asked). */
export function queryProblem(query: OrderQuery): string | null {
  if (query.from && query.to && query.from > query.to) return 'The "from" date must be on or before the "to" date.';
  return null;
}

/** What POST /api/admin/orders is asked for this view. */
export function requestOf(query: OrderQuery): AdminOrdersRequest {
  return {
    search: query.search.trim() || undefined,
    status: query.status || undefined,
    netsuiteStatus: query.netsuiteStatus || undefined,
    from: query.from || undefined,
    to: query.to || undefined,
    promo: query.promo.trim() || undefined,
    paymentState: query.paymentState || undefined,
    sort: query.sort,
    direction: query.direction,
    limit: query.pageSize,
    offset: query.page * query.pageSize,
  };
}

const count = new Intl.NumberFormat('en-US');

/** "1 order", "234 orders", or "1,000+ orders" when the server stopped counting at its cap. */
export function totalText(total: number, capped: boolean): string {
  if (capped) return `${count.format(Math.max(total, ADMIN_ORDERS_COUNT_CAP))}+ orders`;
  return `${count.format(total)} ${total === 1 ? 'order' : 'orders'}`;
}

/** Whether a page follows: within the counted total, or past a capped count while the page came back full. */
export const hasNextPage = (query: OrderQuery, shown: number, total: number, capped: boolean): boolean =>
  query.page * query.pageSize + shown < total || (capped && shown === query.pageSize);
