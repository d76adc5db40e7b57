/**
 * The back office's order table: a store's orders filtered by status, NetSuite status, date range,
 * promo code and a search (a trigram index: any part of the name or email; or an order id prefix), sorted by an indexed column, one page at a time. The total is counted up to
 * ADMIN_ORDERS_COUNT_CAP (a table of a million orders needs "1,000+", not a full count on every page).
 */
import { and, asc, count, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { ADMIN_ORDERS_COUNT_CAP, type AdminOrderSort, type OrderStatus, type PaymentState } from '@nh/shared/contracts/admin';
import type { SyncStatus } from '@nh/shared/contracts/admin-sync';
import type { Db } from '../db/client';
import { orders, type OrderRow } from '../db/schema';
import { paymentStateFilterSql, paymentStateSql, refundedDollarsSql } from './payment-state';
import { escapeLike } from './search';

const ID_PREFIX = /^[0-9a-f-]{1,36}$/i;
const DAY_MS = 86_400_000;

export interface OrderListQuery {
  storeCode: string;
  search?: string;
  status?: OrderStatus;
  netsuiteStatus?: SyncStatus;
  from?: string;
  to?: string;
  promo?: string;
  /** Issue 23: orders in this payment state (payment-state.ts). */
  paymentState?: PaymentState;
  sort?: AdminOrderSort;
  direction?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** A row of the table (money in cents; `refunded` a 2-decimal string). */
export type OrderSummaryRow = Pick<
  OrderRow,
  'id' | 'customerName' | 'customerEmail' | 'total' | 'status' | 'createdAt' | 'trackingNumber' | 'carrier' | 'netsuiteSyncStatus' | 'promoCode'
> & { paymentState: PaymentState; refunded: string };

/** The selected table, qualified: drizzle leaves its own columns bare inside raw SQL. */
const ORDERS = '"orders"';

const summaryColumns = {
  id: orders.id,
  customerName: orders.customerName,
  customerEmail: orders.customerEmail,
  total: orders.total,
  status: orders.status,
  createdAt: orders.createdAt,
  trackingNumber: orders.trackingNumber,
  carrier: orders.carrier,
  netsuiteSyncStatus: orders.netsuiteSyncStatus,
  promoCode: orders.promoCode,
  paymentState: sql<PaymentState>`${sql.raw(paymentStateSql(ORDERS))}`,
  refunded: sql<string>`(${sql.raw(refundedDollarsSql(ORDERS))})::numeric(12, 2)::text`,
};

function orderListFilter(query: Omit<OrderListQuery, 'limit' | 'offset' | 'sort' | 'direction'>): SQL | undefined {
  const search = query.search?.trim();
  return and(
    eq(orders.storeCode, query.storeCode),
    query.status ? eq(orders.status, query.status) : undefined,
    query.netsuiteStatus ? eq(orders.netsuiteSyncStatus, query.netsuiteStatus) : undefined,
    query.from ? gte(orders.createdAt, new Date(`${query.from}T00:00:00Z`)) : undefined,
    query.to ? lt(orders.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)) : undefined,
    query.promo ? eq(orders.promoCode, query.promo) : undefined,
    query.paymentState ? sql.raw(paymentStateFilterSql(ORDERS, query.paymentState)) : undefined,
    search ? (looksLikeOrderId(search) ? idPrefix(search) : or(nameOrEmail(search), idPrefix(search))) : undefined,
  );
}

/** Part of the customer's name or email, any case (the expression of the trigram index orders_search_trgm). */
const nameOrEmail = (search: string): SQL => sql`(${orders.customerName} || ' ' || ${orders.customerEmail}) ilike ${`%${escapeLike(search)}%`}`;

/** Hex digits and dashes with at least one digit, four or more: what staff copy from an order number, searched as one only. */
const looksLikeOrderId = (search: string): boolean => search.length >= 4 && ID_PREFIX.test(search) && /\d/.test(search);

/**
 * An order id prefix (the first characters staff read on screen) as a range of the primary key, so it
 * is answered from the index: `1a2b` is every id from 1a2b0000-… to 1a2bffff-….
 */
function idPrefix(search: string): SQL | undefined {
  if (!ID_PREFIX.test(search)) return undefined;
  const hex = search.toLowerCase().replace(/-/g, '');
  if (hex.length === 0 || hex.length > 32) return undefined;
  const asUuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return and(gte(orders.id, asUuid(hex.padEnd(32, '0'))), lte(orders.id, asUuid(hex.padEnd(32, 'f'))));
}

/** One page of a store's orders and how many match (up to the cap; `capped` when there are more). */
export async function listOrderTable(db: Db, query: OrderListQuery): Promise<{ rows: OrderSummaryRow[]; total: number; capped: boolean }> {
  let where = orderListFilter(query);
  // An order id prefix matches a handful of rows, but the planner cannot tell from a uuid range and walks
  // the date index instead: the matching ids first (the primary key), then the page among just those.
  const search = query.search?.trim();
  if (search && looksLikeOrderId(search)) {
    const matched = await db
      .select({ id: orders.id })
      .from(orders)
      .where(where)
      .limit(ADMIN_ORDERS_COUNT_CAP + 1);
    where = matched.length ? and(eq(orders.storeCode, query.storeCode), inArray(orders.id, matched.map((m) => m.id))) : sql`false`;
  }
  const order = query.direction === 'asc' ? asc : desc;
  const column = query.sort === 'total' ? orders.total : orders.createdAt;
  const matching = db
    .select({ one: sql`1` })
    .from(orders)
    .where(where)
    .limit(ADMIN_ORDERS_COUNT_CAP + 1)
    .as('matching');
  const [rows, [counted]] = await Promise.all([
    db.select(summaryColumns).from(orders).where(where).orderBy(order(column), order(orders.id)).limit(query.limit).offset(query.offset),
    db.select({ n: count() }).from(matching),
  ]);
  const n = counted?.n ?? 0;
  return { rows, total: Math.min(n, ADMIN_ORDERS_COUNT_CAP), capped: n > ADMIN_ORDERS_COUNT_CAP };
}
