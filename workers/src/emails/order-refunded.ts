/**
 * The refund email (issue 23): staff refunded (part of) an order and left "Notify the customer" ticked.
 * It says how much was given back, where to (the card, or store credit), which items (a refund by line)
 * and the shipping, and what is left of what the order was paid. Sent once per refund.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { formatCents, type Cents } from '@nh/shared/money';
import { findShopperOrder } from '@nh/server/queries/shopper-self-service';
import { shopperRefundsOf, type ShopperRefund } from '@nh/server/queries/order-refunds';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, orderNumber, signatureText, type Content } from './mail/layout';

/** Subject id: `<order id>:refund:<refund's payment row id>`, or `<order id>:refund:credit:<ledger row id>` (the order's timeline finds it by the order id). */
export const email = defineEmail({
  name: 'order-refunded',
  payload: z.object({ orderId: z.string().uuid(), paymentId: z.string().uuid().optional(), creditEntryId: z.string().optional() }),
  topics: {
    [OUTBOX_TOPICS.orderRefundNotice]: (p) => p,
  },
  async compose(db, { orderId, paymentId, creditEntryId }) {
    const order = await findShopperOrder(db, orderId);
    if (!order) return skip('order not found');
    const refundId = paymentId ?? (creditEntryId ? `credit:${creditEntryId}` : null);
    if (!refundId) return skip('no refund named');
    const refunds = await shopperRefundsOf(db, orderId);
    const refund = refunds.find((r) => r.id === refundId);
    if (!refund) return skip('refund not given');
    const refunded = refunds.reduce((s, r) => s + r.amount, 0);
    const content = orderRefundedEmail({
      id: order.id,
      customerName: order.customerName,
      items: order.items.map((i) => ({ productName: i.productName })),
      total: order.total,
      refund,
      refunded,
    });
    return { subjectId: `${orderId}:refund:${refundId}`, message: { to: order.customerEmail, ...content } };
  },
});

export interface RefundedOrder {
  id: string;
  customerName: string;
  items: Array<{ productName: string }>;
  /** What the order was paid, cents. */
  total: Cents;
  refund: ShopperRefund;
  /** Given back in all so far (this refund included), cents. */
  refunded: Cents;
}

/** Where the money went, in the shopper's words. */
function whereTo(refund: ShopperRefund): string {
  if (refund.method === 'credit') return 'as store credit on your account: it is used automatically on your next order';
  const card = refund.lastFour ? `the card ending ${refund.lastFour}` : 'your card';
  return refund.method === 'void' ? `to ${card}: the payment was cancelled before it was taken, so it will drop off your statement` : `to ${card}: banks usually show it within 5 to 10 business days`;
}

export function orderRefundedEmail(o: RefundedOrder): Content {
  const shortId = orderNumber(o.id);
  const subject = `Your ${SHOP.name} refund for order #${shortId}`;
  const left = Math.max(0, o.total - o.refunded);
  const items = (o.refund.lines ?? []).map((l) => `${l.quantity} x ${o.items[l.line]?.productName ?? 'Item'}`);
  if (o.refund.shipping > 0) items.push(`Shipping (${formatCents(o.refund.shipping)})`);
  const summary = `We have refunded ${formatCents(o.refund.amount)} ${whereTo(o.refund)}.`;
  const totals =
    left > 0
      ? `In all, ${formatCents(o.refunded)} of your ${formatCents(o.total)} order has been refunded; ${formatCents(left)} remains paid.`
      : `Your ${formatCents(o.total)} order has now been refunded in full.`;
  const text = [
    `Hi ${o.customerName},`,
    '',
    summary,
    ...(items.length ? ['', 'Refunded:', ...items.map((i) => `  ${i}`)] : []),
    '',
    totals,
    '',
    signatureText(),
  ].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(o.customerName)},</p>
<p>${escapeHtml(summary)}</p>${items.length ? `\n<p><strong>Refunded:</strong><br>${items.map(escapeHtml).join('<br>')}</p>` : ''}
<p>${escapeHtml(totals)}</p>`,
  );
  return { subject, text, html };
}
