/**
 * The order confirmation: lines, totals (each discount on its own line) and the promo code of an order just
 * placed. Sent again, with a "corrected address" note naming the new address, when staff correct the
 * shipping address of the unshipped order (issue 23).
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { centsToDecimal, formatCents, toCents, type Cents } from '@nh/shared/money';
import { SHOP } from '@nh/shared/constants';
import { discountLines } from '@nh/shared/pricing';
import { shippingMethodWords } from '@nh/shared/contracts/order-delivery';
import type { ShippingMethod } from '@nh/shared/shipping-rules';
import { findOrderForConfirmation, type ConfirmationOrder as OrderForConfirmation } from '@nh/server/queries/orders';
import type { Address, LineItem } from '@nh/server/db/schema';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, orderNumber, signatureText, type Content } from './mail/layout';

/** Subject id: the order id (a resend: `<order id>:resend:<resend id>`; a corrected address: `<order id>:address:<correction id>`). */
export const email = defineEmail({
  name: 'order-confirmation',
  /** `resendId`: staff sent it again (a new email, once per resend); `correctionId`: staff corrected the address (once per correction). */
  payload: z.object({ orderId: z.string().uuid(), resendId: z.string().uuid().optional(), correctionId: z.string().uuid().optional() }),
  topics: {
    [OUTBOX_TOPICS.orderPlaced]: ({ orderId }) => ({ orderId }),
    [OUTBOX_TOPICS.orderConfirmationResendRequested]: (p) => p,
    [OUTBOX_TOPICS.orderAddressCorrected]: (p) => p,
  },
  async compose(db, { orderId, resendId, correctionId }) {
    const order = await findOrderForConfirmation(db, orderId);
    if (!order) return skip('order not found');
    const subjectId = correctionId ? `${orderId}:address:${correctionId}` : resendId ? `${orderId}:resend:${resendId}` : orderId;
    // The address as it is when the email is made (a second correction soon after: both emails name the latest).
    const content = orderConfirmationEmail(order, { ...(correctionId ? { correctedAddress: order.shippingAddress } : {}), replacementOf: order.replacementOfOrderId });
    return { subjectId, message: { to: order.customerEmail, ...content } };
  },
});

/** What the email shows (read by @nh/server's `findOrderForConfirmation`). */
/** An order as the email shows it; the shipping method (issue 25) in words when express, with its zone's promise when the address is known. */
export type ConfirmationOrder = Omit<OrderForConfirmation, 'customerEmail' | 'shippingAddress' | 'shippingMethod'> & { shippingMethod?: ShippingMethod; shippingAddress?: Address };

export interface ConfirmationOptions {
  /** Staff corrected the shipping address: the email says so and names the new one. */
  correctedAddress?: Address;
  /** A damage claim's free replacement (issue 23): the order it replaces; the email says so. */
  replacementOf?: string | null;
}

const oneLine = (a: Address) => `${a.address}, ${a.city}, ${a.state} ${a.zip}`;

const lineTotal = (line: LineItem) => toCents(line.price) * line.quantity;

export function orderConfirmationEmail(order: ConfirmationOrder, { correctedAddress, replacementOf }: ConfirmationOptions = {}): Content {
  const shortId = orderNumber(order.id);
  const replacementNote = replacementOf ? `This is a free replacement for your order #${orderNumber(replacementOf)}, sent at no charge. We are sorry it did not arrive as it should.` : null;
  const subject = correctedAddress
    ? `${SHOP.name} order #${shortId}: corrected shipping address`
    : replacementOf
      ? `${SHOP.name} order confirmation #${shortId}: your free replacement`
      : `${SHOP.name} order confirmation #${shortId}`;
  const note = correctedAddress ? `We corrected the shipping address of your order #${shortId}. It will ship to: ${oneLine(correctedAddress)}.` : replacementNote;
  const noteTitle = correctedAddress ? 'Corrected address.' : 'Free replacement.';
  const express = order.shippingMethod === 'express' ? shippingMethodWords('express', order.shippingAddress?.state) : null;
  const totals: Array<[string, Cents]> = [
    ['Subtotal', order.subtotal],
    ...discountLines(order, order.promoCode).map(({ label, amount }): [string, Cents] => [label, -amount]),
    [express ?? 'Shipping', order.shipping],
    ['Tax', order.tax],
    ['Total', order.total],
  ];
  const text = [
    `Hi ${order.customerName},`,
    '',
    ...(note ? [note, ''] : []),
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
${note ? `<p style="padding:8px 12px;background:#eef5ef;border-radius:6px"><strong>${noteTitle}</strong> ${escapeHtml(note)}</p>\n` : ''}<p>Thank you for your order <strong>#${escapeHtml(shortId)}</strong>. Here is what you ordered:</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
<tr><th align="left">Item</th><th>Qty</th><th align="right">Price</th><th align="right">Line total</th></tr>
${rows}
${totalRows}
</table>
<p>We will email you again when it ships.</p>`,
  );
  return { subject, text, html };
}
