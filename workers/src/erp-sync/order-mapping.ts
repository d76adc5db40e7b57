import type { CreditMemoInput, CustomerInput, SalesOrderInput, StoreCreditDepositInput, TaxLineInput } from './netsuite/client';
import { paymentReturned } from '@nh/server/queries/refunds';
import type { SyncOrder, SyncRefund } from '@nh/server/queries/sync';
import { centsToDecimal, toCents, type Cents } from '@nh/shared/money';
import { paidLinesOf, refundTaxPart } from '@nh/shared/refund-amounts';

/** An order that cannot be expressed in NetSuite until someone fixes its data (never worth a retry). */
export class OrderMappingError extends Error {
  override name = 'OrderMappingError';
}

/**
 * The NetSuite item a refund's credit memo line credits: an Other Charge item with this external id,
 * not taxable (the refund's tax part is credited on its own line, SALES_TAX_ITEM), which the account must
 * have, as it has the products' items under their item numbers or skus.
 */
export const REFUND_ITEM = 'NH-REFUND';

/**
 * The NetSuite item that carries our sales tax (issue 25, docs/decisions/tax-and-shipping.md "NetSuite tax
 * lines"): an Other Charge item with this external id, not taxable, whose income account is the sales tax
 * payable liability. The tax is worked out by the shop (its calculator: the flat rule, the rate table or
 * TaxJar), so NetSuite's own tax engine is given nothing to tax: every line is sent not taxable, and the
 * tax travels as one line of this item per order (one ship-to address: one jurisdiction), for the whole
 * tax of the lines and the shipping. A credit memo credits a refund's tax part on the same item.
 */
export const SALES_TAX_ITEM = 'NH-SALES-TAX';

/** The order's tax line in words: where the tax is due (the ship-to state and ZIP) and which rule worked it out. */
function taxLineOf(order: SyncOrder, amount: Cents, what: string): TaxLineInput | null {
  if (amount <= 0) return null;
  const where = order.shippingAddress ? ` ${order.shippingAddress.state} ${order.shippingAddress.zip}` : '';
  const source = order.taxSource ? ` (${order.taxSource})` : '';
  return { itemRef: SALES_TAX_ITEM, description: `${what}${where}${source}`, amount: centsToDecimal(amount) };
}

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
    taxLine: taxLineOf(order, toCents(order.tax), 'Sales tax'),
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

/**
 * The part of a refund that is tax (@nh/shared refundTaxPart): by line, each line's own tax in proportion
 * (and the shipping's with the shipping); by amount, the order's tax in proportion to the amount.
 */
export function refundTaxOf(order: SyncOrder, refund: SyncRefund): Cents {
  const shipping = toCents(refund.shipping ?? '0');
  const paid = { lines: paidLinesOf(order.items), discount: toCents(order.discount), tax: toCents(order.tax), shippingTax: toCents(order.shippingTax ?? '0'), total: toCents(order.total), shipping: toCents(order.shipping) };
  return refundTaxPart(paid, { amount: toCents(refund.amount), lines: refund.lines ?? null, shipping });
}

/**
 * A refund's credit memo, on the refund's day, naming the order: what was given back before tax on the
 * refund item, and its tax part on the sales tax item (so the sales tax payable goes down by what was
 * given back of it).
 */
export function creditMemoFor(order: SyncOrder, refund: SyncRefund, customerInternalId: string): CreditMemoInput {
  const amount = toCents(refund.amount);
  const tax = refundTaxOf(order, refund);
  return {
    refundId: refund.id,
    orderId: order.id,
    customerInternalId,
    email: order.customerEmail,
    tranDate: refund.tranDate,
    amount: refund.amount,
    itemRef: REFUND_ITEM,
    reason: refund.reason,
    taxLine: taxLineOf(order, Math.min(tax, amount), 'Sales tax refunded'),
  };
}
