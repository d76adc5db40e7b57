import { centsToDecimal } from '@nh/shared';
import type { tables } from '@nh/shared/server';
import type { CustomerInput, SalesOrderInput } from '@nh/shared/server/netsuite/client';

type Order = typeof tables.orders.$inferSelect;

/** An order that cannot be expressed in NetSuite until someone fixes its data (never worth a retry). */
export class OrderMappingError extends Error {
  override name = 'OrderMappingError';
}

export function customerFor(order: Order): CustomerInput {
  return { email: order.customerEmail, name: order.customerName, phone: order.customerPhone };
}

/** Lines reference NetSuite items by the variant's sku, else the product's item number, else its sku. */
export function salesOrderFor(order: Order, customerInternalId: string): SalesOrderInput {
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
    tranDate: order.createdAt.toISOString().slice(0, 10),
    lines,
    shippingCost: centsToDecimal(order.shipping),
    discount: centsToDecimal(order.discount),
    tax: centsToDecimal(order.tax),
    total: centsToDecimal(order.total),
    promoCode: order.promoCode,
  };
}
