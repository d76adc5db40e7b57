/** The back office's order table, one page at a time (its filters, search and capped count: @nh/server queries/order-table.ts). */
import { centsToDecimal } from '@nh/shared';
import type { Db } from '@nh/server/db/client';
import { listOrderTable, type OrderListQuery } from '@nh/server/queries/order-table';
import type { AdminOrderSummary } from '@nh/shared/contracts/admin';

/** One page of a store's orders and how many match (up to the cap; `capped` when there are more). */
export async function listOrders(db: Db, query: OrderListQuery): Promise<{ orders: AdminOrderSummary[]; total: number; capped: boolean }> {
  const { rows, total, capped } = await listOrderTable(db, query);
  return { orders: rows.map((r) => ({ ...r, total: centsToDecimal(r.total), createdAt: r.createdAt.toISOString() })), total, capped };
}
