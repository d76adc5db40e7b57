/** The order confirmation: lines, totals (each discount on its own line) and the promo code of an order just placed. */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { centsToDecimal, formatCents, toCents, type Cents } from '@nh/shared/money';
import { SHOP } from '@nh/shared/constants';
import { discountLines } from '@nh/shared/pricing';
import { findOrderForConfirmation, type ConfirmationOrder as OrderForConfirmation } from '@nh/server/queries/orders';
import type { LineItem } from '@nh/server/db/schema';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, orderNumber, signatureText, type Content } from './mail/layout';

/** Subject id: the order id (a resend: `<order id>:resend:<resend id>`). */
export const email = defineEmail({
  name: 'order-confirmation',
  /** `resendId`: staff sent it again (a new email, once per resend). */
  payload: z.object({ orderId: z.string().uuid(), resendId: z.string().uuid().optional() }),
  topics: {
    [OUTBOX_TOPICS.orderPlaced]: ({ orderId }) => ({ orderId }),
    [OUTBOX_TOPICS.orderConfirmationResendRequested]: (p) => p,
  },
  async compose(db, { orderId, resendId }) {
    const order = await findOrderForConfirmation(db, orderId);
    if (!order) return skip('order not found');
    return { subjectId: resendId ? `${orderId}:resend:${resendId}` : orderId, message: { to: order.customerEmail, ...orderConfirmationEmail(order) } };
  },
});

/** What the email shows (read by @nh/server's `findOrderForConfirmation`). */
export type ConfirmationOrder = Omit<OrderForConfirmation, 'customerEmail'>;

const lineTotal = (line: LineItem) => toCents(line.price) * line.quantity;

export function orderConfirmationEmail(order: ConfirmationOrder): Content {
  const shortId = orderNumber(order.id);
  const subject = `${SHOP.name} order confirmation #${shortId}`;
  const totals: Array<[string, Cents]> = [
    ['Subtotal', order.subtotal],
    ...discountLines(order, order.promoCode).map(({ label, amount }): [string, Cents] => [label, -amount]),
    ['Shipping', order.shipping],
    ['Tax', order.tax],
    ['Total', order.total],
  ];
  const text = [
    `Hi ${order.customerName},`,
    '',
    `Thank you for your order #${shortId}. Here is what you ordered:`,
    '',
    ...order.items.map((line) => `  ${line.quantity} x ${line.productName} @ $${line.price} = ${formatCents(lineTotal(line))}`),
    '',
    ...totals.map(([label, cents]) => `  ${label}: ${formatCents(cents)}`),
    '',
    'We will email you again when it ships.',
    '',
    signatureText(),
  ].join('\n');
  const rows = order.items
    .map(
      (line) =>
        `<tr><td style="padding:4px 0">${escapeHtml(line.productName)}</td><td align="center">${line.quantity}</td><td align="right">$${escapeHtml(line.price)}</td><td align="right">$${centsToDecimal(lineTotal(line))}</td></tr>`,
    )
    .join('');
  const totalRows = totals
    .map(([label, cents]) => `<tr><td colspan="3" align="right" style="padding:2px 8px">${escapeHtml(label)}</td><td align="right">${formatCents(cents)}</td></tr>`)
    .join('');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(order.customerName)},</p>
<p>Thank you for your order <strong>#${escapeHtml(shortId)}</strong>. Here is what you ordered:</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
<tr><th align="left">Item</th><th>Qty</th><th align="right">Price</th><th align="right">Line total</th></tr>
${rows}
${totalRows}
</table>
<p>We will email you again when it ships.</p>`,
  );
  return { subject, text, html };
}
