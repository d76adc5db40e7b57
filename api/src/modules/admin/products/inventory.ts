/**
 * Inventory adjustments: stock changed by hand with the reason staff gave, logged (inventory_adjustments)
 * and audited in the transaction of the change, the product row locked so a checkout taking stock at the
 * same moment and the adjustment both count.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { recordAudit, tables, type AuditActor, type Db, type DbOrTx } from '@nh/server';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { ADMIN_PRODUCT_MESSAGES, type InventoryLog } from '@nh/shared/contracts/admin-products';
import { AppError } from '../../../lib/errors';

const { products, inventoryAdjustments } = tables;

/** Logs a change of stock already written in `tx` (the adjustment itself, or the product form's new value). */
export async function logInventoryChange(tx: DbOrTx, actor: AuditActor, change: { productId: number; before: number; after: number; reason: string }): Promise<void> {
  if (change.before === change.after) return;
  await tx.insert(inventoryAdjustments).values({
    productId: change.productId,
    delta: change.after - change.before,
    inventoryAfter: change.after,
    reason: change.reason,
    staffId: actor.staffId,
    staffEmail: actor.email,
  });
  await recordAudit(tx, actor, {
    action: 'product.inventory_adjusted',
    entityType: 'product',
    entityId: String(change.productId),
    before: { inventory: change.before },
    after: { inventory: change.after, reason: change.reason },
  });
}

export async function adjustInventory(db: Db, productId: number, delta: number, reason: string, actor: AuditActor): Promise<InventoryLog> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select({ inventory: products.inventory }).from(products).where(eq(products.id, productId)).for('update');
    if (!current) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
    const after = current.inventory + delta;
    if (after < 0) throw new AppError('VALIDATION_FAILED', `${ADMIN_PRODUCT_MESSAGES.belowZero} (there are ${current.inventory}).`);
    await tx.update(products).set({ inventory: after, updatedAt: sql`now()` }).where(eq(products.id, productId));
    await logInventoryChange(tx, actor, { productId, before: current.inventory, after, reason });
  });
  return inventoryLog(db, productId);
}

/** The product's stock now and its last 100 adjustments, newest first. */
export async function inventoryLog(db: Db, productId: number): Promise<InventoryLog> {
  const [product] = await db.select({ inventory: products.inventory }).from(products).where(eq(products.id, productId));
  if (!product) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
  const rows = await db.select().from(inventoryAdjustments).where(eq(inventoryAdjustments.productId, productId)).orderBy(desc(inventoryAdjustments.id)).limit(100);
  return {
    productId,
    inventory: product.inventory,
    adjustments: rows.map((r) => ({ id: r.id, delta: r.delta, inventoryAfter: r.inventoryAfter, reason: r.reason, staffEmail: r.staffEmail, at: r.at.toISOString() })),
  };
}
