/**
 * Inventory adjustments: stock changed by hand with the reason staff gave, logged (inventory_adjustments)
 * and audited in the transaction of the change, the product row locked so a checkout taking stock at the
 * same moment and the adjustment both count.
 */
import type { Db, DbOrTx } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { insertInventoryAdjustment, listInventoryAdjustments, lockProductInventory, productInventory, setProductInventory } from '@nh/server/queries/products';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { ADMIN_PRODUCT_MESSAGES, type InventoryLog } from '@nh/shared/contracts/admin-products';
import { AppError } from '../../../lib/errors';

/** Logs a change of stock already written in `tx` (the adjustment itself, or the product form's new value). */
export async function logInventoryChange(tx: DbOrTx, actor: AuditActor, change: { productId: number; before: number; after: number; reason: string }): Promise<void> {
  if (change.before === change.after) return;
  await insertInventoryAdjustment(tx, {
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
    const inventory = await lockProductInventory(tx, productId);
    if (inventory === null) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
    const after = inventory + delta;
    if (after < 0) throw new AppError('VALIDATION_FAILED', `${ADMIN_PRODUCT_MESSAGES.belowZero} (there are ${inventory}).`);
    await setProductInventory(tx, productId, after);
    await logInventoryChange(tx, actor, { productId, before: inventory, after, reason });
  });
  return inventoryLog(db, productId);
}

/** The product's stock now and its last 100 adjustments, newest first. */
export async function inventoryLog(db: Db, productId: number): Promise<InventoryLog> {
  const inventory = await productInventory(db, productId);
  if (inventory === null) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
  const rows = await listInventoryAdjustments(db, productId, 100);
  return {
    productId,
    inventory,
    adjustments: rows.map((r) => ({ id: r.id, delta: r.delta, inventoryAfter: r.inventoryAfter, reason: r.reason, staffEmail: r.staffEmail, at: r.at.toISOString() })),
  };
}
