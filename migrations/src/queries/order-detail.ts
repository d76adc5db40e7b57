/**
 * One order of a store as the back office reads and changes it: its row (the detail, the timeline, a
 * refund's first check), the skipped periods of the plan it delivers, and the fulfilment update (status,
 * carrier, tracking number) under the order's row lock.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { OrderStatus } from '@nh/shared/contracts/admin';
import type { SkippedPeriod } from '@nh/shared/contracts/subscriptions';
import type { Db, DbOrTx } from '../db/client';
import { orders, subscriptionSkippedPeriods as skipped, type OrderRow } from '../db/schema';

const byId = (storeCode: string, id: string) => and(eq(orders.id, id), eq(orders.storeCode, storeCode));

/** The order, when the store has it. */
export async function findStoreOrder(db: DbOrTx, storeCode: string, id: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(byId(storeCode, id));
  return row ?? null;
}

/** The skipped periods of a plan (a late renewal's catch-up), oldest first. */
export async function planSkippedPeriods(db: Db, subscriptionId: string): Promise<SkippedPeriod[]> {
  const rows = await db.select({ period: skipped.billingPeriod, reason: skipped.reason }).from(skipped).where(eq(skipped.subscriptionId, subscriptionId)).orderBy(skipped.billingPeriod);
  return rows as SkippedPeriod[];
}

/** What a fulfilment update compares and moves stock by, the order's row locked; null when the store has no such order. */
export async function lockOrderForFulfilment(tx: DbOrTx, storeCode: string, id: string): Promise<Pick<OrderRow, 'status' | 'items' | 'carrier' | 'trackingNumber'> | null> {
  const [row] = await tx
    .select({ status: orders.status, items: orders.items, carrier: orders.carrier, trackingNumber: orders.trackingNumber })
    .from(orders)
    .where(byId(storeCode, id))
    .for('update');
  return row ?? null;
}

export interface FulfilmentChange {
  trackingNumber?: string | null;
  carrier?: string | null;
  status?: OrderStatus;
}

/**
 * Writes the fields given; updated_at always moves. delivered_date is stamped when the status becomes
 * delivered (kept if it already was) and cleared when it moves to any other status.
 */
export async function updateOrderFulfilment(tx: DbOrTx, storeCode: string, id: string, change: FulfilmentChange): Promise<OrderRow> {
  const set: PgUpdateSetSource<typeof orders> = { updatedAt: sql`now()` };
  if (change.trackingNumber !== undefined) set.trackingNumber = change.trackingNumber;
  if (change.carrier !== undefined) set.carrier = change.carrier;
  if (change.status !== undefined) {
    set.status = change.status;
    set.deliveredDate =
      change.status === 'delivered' ? sql`case when ${orders.status} = 'delivered' and ${orders.deliveredDate} is not null then ${orders.deliveredDate} else now() end` : null;
  }
  const [row] = await tx.update(orders).set(set).where(byId(storeCode, id)).returning();
  return row!;
}
