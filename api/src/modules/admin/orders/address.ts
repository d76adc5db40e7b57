/**
 * Fix an unshipped order (issue 23): staff change its shipping address. One transaction under the order's
 * row lock (the fulfilment update's, so "shipped" and the new address never pass each other): refused
 * once the order has shipped, was delivered or is cancelled (409, saying why); the same address again
 * changes nothing. The change writes the address (its revision counted up), the audit row with the person
 * and the before and after, NetSuite's sync status back to pending, and one `order.address-corrected`
 * outbox row: the corrected confirmation email and the sync that sends the sales order with it.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { orderAddressLockedReason, type ChangeOrderAddressRequest } from '@nh/shared/contracts/admin-order-address';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { Db } from '@nh/server/db/client';
import type { Address } from '@nh/server/db/schema';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { lockOrderForAddress, writeOrderAddress } from '@nh/server/queries/order-address';
import { recordOutbox } from '@nh/server/queries/outbox';
import { requestAddressSync } from '@nh/server/queries/sync';
import { AppError } from '../../../lib/errors';
import { isUuid } from '../../../lib/validation';

const sameAddress = (a: Address, b: Address) => a.address === b.address && a.city === b.city && a.state === b.state && a.zip === b.zip;

/** Changes the address; answers whether anything changed (false: it was that address already). */
export async function changeOrderAddress(db: Db, id: string, input: ChangeOrderAddressRequest, actor: AuditActor): Promise<{ changed: boolean }> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  const address: Address = { address: input.address, city: input.city, state: input.state, zip: input.zip };
  return db.transaction(async (tx) => {
    const current = await lockOrderForAddress(tx, input.storeCode, id);
    if (!current) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
    const locked = orderAddressLockedReason(current.status);
    if (locked) throw new AppError('ORDER_ADDRESS_LOCKED', locked);
    if (sameAddress(current.shippingAddress, address)) return { changed: false };
    await writeOrderAddress(tx, id, address);
    await requestAddressSync(tx, id);
    await recordOutbox(tx, OUTBOX_TOPICS.orderAddressCorrected, { orderId: id, correctionId: randomUUID() });
    await recordAudit(tx, actor, {
      action: 'order.address_changed',
      entityType: 'order',
      entityId: id,
      before: { shippingAddress: current.shippingAddress },
      after: { shippingAddress: address, ...(input.reason ? { reason: input.reason } : {}) },
    });
    return { changed: true };
  });
}
