/** Admin orders of one store: detail and fulfilment update (the table's list is list.ts). */
import { centsToDecimal, parseCents, stockByProduct } from '@nh/shared';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { Db, DbOrTx } from '@nh/server/db/client';
import type { LineItem, OrderRow } from '@nh/server/db/schema';
import { auditDiff, recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { findStoreOrder, lockOrderForFulfilment, planSkippedPeriods, updateOrderFulfilment } from '@nh/server/queries/order-detail';
import { recordOutbox } from '@nh/server/queries/outbox';
import { lineRestocksOf, lockOrderCharge, orderRestockedByRefund } from '@nh/server/queries/refunds';
import { restock, takeStock, type StockLine, type StockShortfall } from '@nh/server/queries/stock';
import { ADMIN_MESSAGES, adminOrderSchema, type AdminOrder, type OrderStatus, type PaymentState } from '@nh/shared/contracts/admin';
import { orderPaymentState } from '@nh/server/queries/payment-state';
import type { SkippedPeriod } from '@nh/shared/contracts/subscriptions';
import { AppError } from '../../../lib/errors';
import { orderPayments, shippingBlockedReason, type OrderPayments } from './payments';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The admin view's fields (the contract's), which `toAdminOrder` keeps of an order row and what it computes. */
const ADMIN_ORDER_FIELDS = Object.keys(adminOrderSchema.shape) as (keyof AdminOrder)[];

/**
 * The order as staff see it: the row's columns the contract names go out as stored (a new nullable text
 * column shown to staff needs nothing here), money, dates and line snapshots converted; the row's other
 * columns (NetSuite's ids) are left out. The shopper's account id is shown (issue 23: it is the
 * customer's id in the back office, e.g. for giving store credit).
 */
function toAdminOrder(
  row: OrderRow,
  subscriptionSkippedPeriods: SkippedPeriod[],
  { payments, refundable, shippingBlockedReason }: OrderPayments,
  state: { paymentState: PaymentState; refunded: string },
): AdminOrder {
  const view: AdminOrder = {
    ...row,
    // Line snapshots are JSON written at checkout; read defensively (older rows may lack fields).
    items: (Array.isArray(row.items) ? row.items : []).map((item) => ({
      productId: typeof item.productId === 'number' ? item.productId : null,
      productName: typeof item.productName === 'string' ? item.productName : null,
      quantity: Number.isInteger(item.quantity) ? item.quantity : 0,
      price: centsToDecimal(parseCents(item.price) ?? 0),
      sku: item.sku ?? null,
      variantSku: item.variantSku ?? null,
      tax: typeof item.tax === 'string' ? centsToDecimal(parseCents(item.tax) ?? 0) : null,
    })),
    subtotal: centsToDecimal(row.subtotal),
    discount: centsToDecimal(row.discount),
    subscribeDiscount: centsToDecimal(row.subscribeDiscount),
    promoDiscount: centsToDecimal(row.promoDiscount),
    shipping: centsToDecimal(row.shipping),
    tax: centsToDecimal(row.tax),
    shippingTax: centsToDecimal(row.shippingTax),
    total: centsToDecimal(row.total),
    creditApplied: centsToDecimal(row.creditApplied),
    deliveredDate: row.deliveredDate?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    subscriptionSkippedPeriods,
    payments,
    refundable,
    shippingBlockedReason,
    ...state,
  };
  return Object.fromEntries(ADMIN_ORDER_FIELDS.map((field) => [field, view[field]])) as AdminOrder;
}

/** Shipped or delivered: the order went out. */
const isFulfilled = (status: OrderStatus) => status === 'shipped' || status === 'delivered';

export async function getOrder(db: Db, storeCode: string, id: string): Promise<AdminOrder> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  const row = await findStoreOrder(db, storeCode, id);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  return toAdminOrder(row, await skippedPeriodsOf(db, row), await orderPayments(db, row.id), await orderPaymentState(db, row.id));
}

/** The skipped periods of the plan an order delivers (a late renewal's catch-up), oldest first. */
async function skippedPeriodsOf(db: Db, row: OrderRow): Promise<SkippedPeriod[]> {
  return row.subscriptionId ? planSkippedPeriods(db, row.subscriptionId) : [];
}

export interface OrderUpdate {
  trackingNumber?: string | null;
  carrier?: string | null;
  status?: OrderStatus;
  /** Cancelling: put the items back in stock (default) or not (lost or damaged; reopening takes stock again either way). */
  restock?: boolean;
}

/**
 * Fulfilment update. deliveredDate is stamped when the status becomes delivered (kept if it already
 * was) and cleared when it moves away from delivered; updatedAt always moves.
 *
 * Stock follows cancellation: cancelling an order puts its items back in stock, and reopening a
 * cancelled order takes them again (refused, naming the product, when there is not enough); neither
 * moves stock once a refund of the order restocked it (refunds.ts). The order row is locked first, so
 * two staff members changing one order at once (or a refund's restock) cannot restock it twice.
 *
 * The change into shipped records an `order.shipped` outbox row in the same transaction (the customer's
 * shipping notice); saving an order that is already shipped records none.
 *
 * An order whose whole payment was voided or refunded (or is being refunded) is not marked shipped or
 * delivered (ORDER_PAYMENT_RETURNED, 409, saying why and what to do): judged under the order's and then
 * the charge's row locks, the refunds' own order, so a refund and this change never pass each other.
 */
export async function updateOrder(
  { db, invalidateCatalog }: { db: Db; invalidateCatalog: () => void },
  storeCode: string,
  id: string,
  update: OrderUpdate,
  actor: AuditActor,
): Promise<AdminOrder> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  let stockChanged = false;
  const row = await db.transaction(async (tx) => {
    const current = await lockOrderForFulfilment(tx, storeCode, id);
    if (!current) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
    if (update.status !== undefined && isFulfilled(update.status) && !isFulfilled(current.status)) {
      const locked = await lockOrderCharge(tx, id, storeCode);
      const reason = locked && shippingBlockedReason({ captured: locked.charge?.amount ?? 0, refunded: locked.refunded, pending: locked.pending, unanswered: locked.unanswered, voided: locked.voided });
      if (reason) throw new AppError('ORDER_PAYMENT_RETURNED', reason);
    }
    // A refund that put the items back in stock already moved them for good: cancelling and reopening leave stock alone.
    const cancelling = update.status === 'cancelled' && current.status !== 'cancelled';
    const keepOut = cancelling && update.restock === false;
    if (update.status !== undefined && (current.status === 'cancelled') !== (update.status === 'cancelled') && !keepOut && !(await orderRestockedByRefund(tx, id))) {
      // Items a refund by line put back already (issue 23) stay where they are: only the rest moves.
      await moveStock(tx, itemsLessRestocked(current.items, await lineRestocksOf(tx, id)), update.status === 'cancelled' ? 'restock' : 'take');
      stockChanged = true;
    }
    const updated = await updateOrderFulfilment(tx, storeCode, id, update);
    if (update.status === 'shipped' && current.status !== 'shipped') await recordOutbox(tx, OUTBOX_TOPICS.orderShipped, { orderId: id });
    const change = auditDiff(
      { status: current.status, carrier: current.carrier, trackingNumber: current.trackingNumber },
      { status: updated.status, carrier: updated.carrier, trackingNumber: updated.trackingNumber },
    );
    if (change) await recordAudit(tx, actor, { action: 'order.updated', entityType: 'order', entityId: id, ...change, after: cancelling ? { ...change.after, restocked: !keepOut } : change.after });
    return updated;
  });
  if (stockChanged) invalidateCatalog();
  return toAdminOrder(row, await skippedPeriodsOf(db, row), await orderPayments(db, row.id), await orderPaymentState(db, row.id));
}

/** The order's lines less the items refunds by line put back in stock (per line index). */
const itemsLessRestocked = (items: LineItem[], restocked: Map<number, number>): LineItem[] =>
  items.map((item, i) => ({ ...item, quantity: Math.max(0, item.quantity - (restocked.get(i) ?? 0)) })).filter((item) => item.quantity > 0);

/**
 * Puts an order's items back in stock, or takes them again, by @nh/server's one stock rule (rows locked
 * in id order like a checkout's). Products deleted since the order was placed are skipped: there is no
 * stock to move. Taking is refused, naming the product, when one is short or no longer on sale.
 */
async function moveStock(tx: DbOrTx, items: LineItem[], direction: 'restock' | 'take'): Promise<void> {
  const { productIds, quantities } = stockByProduct(items);
  let lines: StockLine[] = productIds.map((productId, i) => ({ productId, quantity: quantities[i]! }));
  if (!lines.length) return;
  if (direction === 'restock') return restock(tx, lines);
  for (;;) {
    const short = await takeStock(tx, lines);
    if (!short.length) return;
    const gone = new Set(short.filter((s) => s.name === null).map((s) => s.productId));
    if (!gone.size) throw notEnoughStock(short[0]!);
    lines = lines.filter((l) => !gone.has(l.productId));
    if (!lines.length) return;
  }
}

const notEnoughStock = (short: StockShortfall) =>
  short.active
    ? new AppError('NOT_ENOUGH_STOCK', `Not enough stock of "${short.name}" to reopen this order (${short.available} left, ${short.wanted} needed).`, { productId: short.productId })
    : new AppError('NOT_ENOUGH_STOCK', `"${short.name}" is not on sale, so this order cannot be reopened.`, { productId: short.productId });
