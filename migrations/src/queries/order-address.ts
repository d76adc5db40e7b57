/**
 * Fix an unshipped order (issue 23): the order's row locked for an address change, and the change itself
 * (the address, its revision counted up for the NetSuite sync).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { orders, type Address, type OrderRow } from '../db/schema';

/** The order's status and address, its row locked FOR UPDATE (a fulfilment update waits); null when the store has no such order. */
export async function lockOrderForAddress(tx: DbOrTx, storeCode: string, id: string): Promise<Pick<OrderRow, 'status' | 'shippingAddress'> | null> {
  const [row] = await tx
    .select({ status: orders.status, shippingAddress: orders.shippingAddress })
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.storeCode, storeCode)))
    .for('update');
  return row ?? null;
}

/** Writes the new shipping address and counts the correction (address_revision: the sync sends the sales order again while NetSuite's is behind). */
export async function writeOrderAddress(tx: DbOrTx, id: string, address: Address): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({ shippingAddress: address, addressRevision: sql`${orders.addressRevision} + 1`, updatedAt: sql`now()` })
    .where(eq(orders.id, id))
    .returning();
  return row!;
}
