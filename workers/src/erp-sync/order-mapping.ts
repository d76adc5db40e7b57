import type { CustomerInput, SalesOrderInput } from './netsuite/client';
import type { SyncOrder } from '@nh/server';

/** An order that cannot be expressed in NetSuite until someone fixes its data (never worth a retry). */
export class OrderMappingError extends Error {
  override name = 'OrderMappingError';
}

export function customerFor(order: SyncOrder): CustomerInput {
  return { email: order.customerEmail, name: order.customerName, phone: order.customerPhone };
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
    tax: order.tax,
    total: order.total,
    promoCode: order.promoCode,
  };
}
