/**
 * The back office's order table: a store's orders filtered by status, NetSuite status, date range,
 * promo code and a search, sorted by an indexed column, one page at a time. The total is counted up to
 * ADMIN_ORDERS_COUNT_CAP (a table of a million orders needs "10,000+", not a full count on every page).
 */
import { and, asc, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { centsToDecimal } from '@nh/shared';
import { tables, type Db } from '@nh/server';
import { ADMIN_ORDERS_COUNT_CAP, type AdminOrderSort, type AdminOrderSummary, type OrderStatus } from '@nh/shared/contracts/admin';
import type { SyncStatus } from '@nh/shared/contracts/admin-sync';

const { orders } = tables;
const ID_PREFIX = /^[0-9a-f-]{1,36}$/i;
const DAY_MS = 86_400_000;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface OrderListQuery {
  storeCode: string;
  search?: string;
  status?: OrderStatus;
  netsuiteStatus?: SyncStatus;
  from?: string;
  to?: string;
  promo?: string;
  sort?: AdminOrderSort;
  direction?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

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
};

export function orderListFilter(query: Omit<OrderListQuery, 'limit' | 'offset' | 'sort' | 'direction'>): SQL | undefined {
  const search = query.search?.trim();
  const like = search ? `%${escapeLike(search)}%` : undefined;
  return and(
    eq(orders.storeCode, query.storeCode),
    query.status ? eq(orders.status, query.status) : undefined,
    query.netsuiteStatus ? eq(orders.netsuiteSyncStatus, query.netsuiteStatus) : undefined,
    query.from ? gte(orders.createdAt, new Date(`${query.from}T00:00:00Z`)) : undefined,
    query.to ? lt(orders.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)) : undefined,
    query.promo ? eq(orders.promoCode, query.promo) : undefined,
    like
      ? or(
          ilike(orders.customerName, like),
          ilike(orders.customerEmail, like),
          ID_PREFIX.test(search!) ? sql`${orders.id}::text like ${`${escapeLike(search!.toLowerCase())}%`}` : undefined,
        )
      : undefined,
  );
}

/** One page of a store's orders and how many match (up to the cap; `capped` when there are more). */
export async function listOrders(db: Db, query: OrderListQuery): Promise<{ orders: AdminOrderSummary[]; total: number; capped: boolean }> {
  const where = orderListFilter(query);
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
  return {
    orders: rows.map((r) => ({ ...r, total: centsToDecimal(r.total), createdAt: r.createdAt.toISOString() })),
    total: Math.min(n, ADMIN_ORDERS_COUNT_CAP),
    capped: n > ADMIN_ORDERS_COUNT_CAP,
  };
}
