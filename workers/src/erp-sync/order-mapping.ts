import type { CreditMemoInput, CustomerInput, SalesOrderInput, StoreCreditDepositInput } from './netsuite/client';
import { paymentReturned } from '@nh/server/queries/refunds';
import type { SyncOrder, SyncRefund } from '@nh/server/queries/sync';
import { toCents } from '@nh/shared/money';

/** An order that cannot be expressed in NetSuite until someone fixes its data (never worth a retry). */
export class OrderMappingError extends Error {
  override name = 'OrderMappingError';
}

/**
 * The NetSuite item a refund's credit memo line credits: an Other Charge item with this external id,
 * not taxable (the amount given back includes the tax), which the account must have, as it has the
 * products' items under their item numbers or skus.
 */
export const REFUND_ITEM = 'NH-REFUND';

export function customerFor(order: SyncOrder): CustomerInput {
  return { email: order.customerEmail, name: order.customerName, phone: order.customerPhone };
}

/**
 * Why the order's sales order is closed in NetSuite: its payment was voided (always all of it), or
 * refunded in full before the order shipped (the shop then refuses to ship it: nothing must be
 * fulfilled from NetSuite either). The same rule as the back office's (@nh/server paymentReturned) on
 * the approved refunds and voids. Null while the sales order stands.
 */
export function salesOrderClosure(order: SyncOrder): 'voided' | 'refunded' | null {
  const returned = paymentReturned({
    captured: toCents(order.captured),
    refunded: order.refunds.reduce((sum, r) => sum + toCents(r.amount), 0),
    pending: 0,
    voided: order.refunds.some((r) => r.kind === 'void'),
  });
  if (returned === 'voided') return 'voided';
  if (returned === 'refunded' && order.status !== 'shipped' && order.status !== 'delivered') return 'refunded';
  return null;
}

/** Lines reference NetSuite items by the variant's sku, else the product's item number, else its sku. */
export function salesOrderFor(order: SyncOrder, customerInternalId: string): SalesOrderInput {
  const lines = order.items.map((line) => {
    const itemRef = line.variantSku || line.itemNumber || line.sku;
    if (!itemRef) throw new OrderMappingError(`Product "${line.productName}" (id ${line.productId}) has no item number or SKU to match a NetSuite item`);
    return { itemRef, description: line.productName, quantity: line.quantity, rate: line.price };
  });
  if (lines.length === 0) throw new OrderMappingError('The order has no lines');
  return {
    orderId: order.id,
    customerInternalId,
    email: order.customerEmail,
    tranDate: order.tranDate,
    lines,
    shippingCost: order.shipping,
    discount: order.discount,
    storeCredit: order.creditApplied,
    tax: order.tax,
    total: order.total,
    promoCode: order.promoCode,
    shippingAddress: order.shippingAddress
      ? { addressee: order.customerName, address: order.shippingAddress.address, city: order.shippingAddress.city, state: order.shippingAddress.state, zip: order.shippingAddress.zip }
      : null,
    closed: salesOrderClosure(order),
    replacementOf: order.replacementOf ?? null,
  };
}

/** The store-credit deposit of an order credit paid part of (null when none, or the sales order is closed: nothing to bill). */
export function storeCreditDepositFor(order: SyncOrder, customerInternalId: string, salesOrderInternalId: string): StoreCreditDepositInput | null {
  if (toCents(order.creditApplied) <= 0 || salesOrderClosure(order) !== null) return null;
  return { orderId: order.id, customerInternalId, salesOrderInternalId, tranDate: order.tranDate, amount: order.creditApplied };
}

/** A refund's credit memo: the amount given back on the refund item, on the refund's day, naming the order. */
export function creditMemoFor(order: SyncOrder, refund: SyncRefund, customerInternalId: string): CreditMemoInput {
  return {
    refundId: refund.id,
    orderId: order.id,
    customerInternalId,
    email: order.customerEmail,
    tranDate: refund.tranDate,
    amount: refund.amount,
    itemRef: REFUND_ITEM,
    reason: refund.reason,
  };
}
