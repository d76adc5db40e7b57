/** The shipping notice, when staff set an order to shipped. */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { trackingUrl } from '@nh/shared/shipping';
import { findOrderForShippingNotice, type ShippedOrder as OrderForShippingNotice } from '@nh/server/queries/orders';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import type { Db } from '@nh/server/db/client';
import { findRenewalPlanOfOrder } from '@nh/server/queries/subscriptions/email-actions';
import { defineEmail, skip } from './define-email';
import { actionLinksHtml, actionLinksText, withActionLinks, type ActionLink } from './email-action-links';
import { billingDay, loadSubscription } from './subscription-plan';
import { escapeHtml, layout, orderNumber, signatureText, type Content } from './mail/layout';

/**
 * Subject id: the order id. One notice per order, with the carrier and tracking number the order
 * has when it is sent; a later save of the shipped order (tracking added or changed) sends nothing.
 */
export const email = defineEmail({
  name: 'order-shipped',
  /** `resendId`: staff sent it again (a new email, once per resend). */
  payload: z.object({ orderId: z.string().uuid(), resendId: z.string().uuid().optional() }),
  topics: {
    [OUTBOX_TOPICS.orderShipped]: ({ orderId }) => ({ orderId }),
    [OUTBOX_TOPICS.orderShippedResendRequested]: (p) => p,
  },
  async compose(db, { orderId, resendId }) {
    const order = await findOrderForShippingNotice(db, orderId);
    if (!order) return skip('order not found');
    // Set back (a mistaken click undone before the job ran): nothing has shipped.
    if (order.status !== 'shipped' && order.status !== 'delivered') return skip(`order is ${order.status}`);
    const subjectId = resendId ? `${orderId}:resend:${resendId}` : orderId;
    // A plan's renewal: one-click links for the plan's NEXT delivery (skip it, or delay it two weeks).
    const next = await nextDeliveryOf(db, orderId);
    if (!next) return { subjectId, message: { to: order.customerEmail, ...orderShippedEmail(order) } };
    return withActionLinks({
      subjectId,
      to: order.customerEmail,
      subscriptionId: next.subscriptionId,
      periodDate: next.period,
      choices: [{ action: 'skip' }, { action: 'delay' }],
      message: (actions) => orderShippedEmail(order, { date: next.date, actions }),
    });
  },
});

/** The next delivery of the active plan this order renews, if it is a renewal. */
async function nextDeliveryOf(db: Db, orderId: string): Promise<{ subscriptionId: string; period: string; date: Date } | null> {
  const subscriptionId = await findRenewalPlanOfOrder(db.$client, orderId);
  const found = subscriptionId ? await loadSubscription(db, subscriptionId) : undefined;
  if (!found || found.sub.status !== 'active') return null;
  return { subscriptionId: found.sub.id, period: billingPeriodOf(found.sub.nextBillingDate), date: found.sub.nextBillingDate };
}

/** What the email shows (read by @nh/server's `findOrderForShippingNotice`). */
export type ShippedOrder = Omit<OrderForShippingNotice, 'customerEmail' | 'status'>;

/** Sent once when staff mark an order shipped: what is in the parcel, how to track it, where it goes. */
export function orderShippedEmail(order: ShippedOrder, nextDelivery?: { date: Date; actions: ActionLink[] }): Content {
  const actions = nextDelivery?.actions ?? [];
  const nextWords = nextDelivery && actions.length > 0 ? `Your next Subscribe & Save delivery is on ${billingDay(nextDelivery.date)}.` : null;
  const shortId = orderNumber(order.id);
  const subject = `Your ${SHOP.name} order #${shortId} has shipped`;
  const link = trackingUrl(order.carrier, order.trackingNumber);
  const a = order.shippingAddress;
  const addressLines = [order.customerName, a.address, `${a.city}, ${a.state} ${a.zip}`];
  const tracking: Array<[string, string]> = [
    ...(order.carrier ? [['Carrier', order.carrier] as [string, string]] : []),
    ...(order.trackingNumber ? [['Tracking number', order.trackingNumber] as [string, string]] : []),
  ];
  const text = [
    `Hi ${order.customerName},`,
    '',
    `Good news: your order #${shortId} is on its way. In the parcel:`,
    '',
    ...order.items.map((line) => `  ${line.quantity} x ${line.productName}`),
    '',
    ...tracking.map(([label, value]) => `  ${label}: ${value}`),
    ...(link ? [`  Track your parcel: ${link}`] : []),
    ...(tracking.length ? [''] : []),
    'Shipping to:',
    ...addressLines.map((l) => `  ${l}`),
    ...(nextWords ? ['', nextWords, ...actionLinksText(actions).slice(1)] : []),
    '',
    signatureText(),
  ].join('\n');
  const trackingHtml = tracking.length
    ? `<p>${tracking.map(([label, value]) => `<strong>${escapeHtml(label)}:</strong> ${escapeHtml(value)}`).join('<br>\n')}${
        link ? `<br>\n<a href="${escapeHtml(link)}" style="color:#2f5d3a;font-weight:bold">Track your parcel</a>` : ''
      }</p>`
    : '';
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(order.customerName)},</p>
<p>Good news: your order <strong>#${escapeHtml(shortId)}</strong> is on its way. In the parcel:</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
<tr><th align="left">Item</th><th>Qty</th></tr>
${order.items.map((line) => `<tr><td style="padding:4px 0">${escapeHtml(line.productName)}</td><td align="center">${line.quantity}</td></tr>`).join('')}
</table>
${trackingHtml}
<p><strong>Shipping to:</strong><br>${addressLines.map(escapeHtml).join('<br>')}</p>${nextWords ? `\n<p>${escapeHtml(nextWords)}</p>${actionLinksHtml(actions)}` : ''}`,
  );
  return { subject, text, html };
}
