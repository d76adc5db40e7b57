/** What a shopper (or a guest with an order link) sees of an order: cents, the short number, the tracking page. */
import type { ShopperRefund as RefundRow } from '@nh/server/queries/order-refunds';
import type { ShopperOrderRow } from '@nh/server/queries/shopper-self-service';
import type { ShopperOrder, ShopperOrderSummary } from '@nh/shared/contracts/account';
import { LIMITS } from '@nh/shared/constants';
import { toCents } from '@nh/shared/money';
import { trackingUrl } from '@nh/shared/shipping';

export const orderNumberOf = (id: string): string => id.slice(0, LIMITS.orderIdDisplayLength);

export function toOrderSummary(o: ShopperOrderRow): ShopperOrderSummary {
  return {
    id: o.id,
    number: orderNumberOf(o.id),
    status: o.status,
    placedAt: o.createdAt.toISOString(),
    itemCount: o.items.reduce((n, line) => n + line.quantity, 0),
    total: o.total,
    refunded: Number(o.refunded),
  };
}

/** The order as the shopper sees it, with its refunds (issue 23: what was given back and what is left of what was paid). */
export function toShopperOrder(o: ShopperOrderRow, refunds: readonly RefundRow[] = []): ShopperOrder {
  const refunded = refunds.reduce((s, r) => s + r.amount, 0);
  return {
    refunds: refunds.map((r) => ({
      id: r.id,
      method: r.method,
      amount: r.amount,
      lastFour: r.lastFour,
      items: (r.lines ?? []).map((l) => ({ productName: o.items[l.line]?.productName ?? 'Item', quantity: l.quantity })),
      shipping: r.shipping,
      createdAt: r.createdAt.toISOString(),
    })),
    refundLeft: Math.max(0, o.total - refunded),
    ...toOrderSummary(o),
    customerName: o.customerName,
    shippingAddress: { address: o.shippingAddress.address, city: o.shippingAddress.city, state: o.shippingAddress.state, zip: o.shippingAddress.zip },
    items: o.items.map((line) => {
      const unitPrice = toCents(line.price);
      return { productId: line.productId, productName: line.productName, quantity: line.quantity, unitPrice, lineTotal: unitPrice * line.quantity };
    }),
    subtotal: o.subtotal,
    discount: o.discount,
    subscribeDiscount: o.subscribeDiscount,
    promoDiscount: o.promoDiscount,
    shipping: o.shipping,
    tax: o.tax,
    storeCredit: o.creditApplied,
    shippingMethod: o.shippingMethod,
    promoCode: o.promoCode,
    carrier: o.carrier,
    trackingNumber: o.trackingNumber,
    trackingUrl: trackingUrl(o.carrier, o.trackingNumber),
    deliveredAt: o.deliveredDate?.toISOString() ?? null,
  };
}
