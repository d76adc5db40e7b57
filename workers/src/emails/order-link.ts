/** A guest looked an order up by its number and email: the single-use link to see it (24 hours). Issue 13. */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { ORDER_LINK_TTL_MS } from '@nh/shared/contracts/account';
import { findShopperOrder, findShopperTokenById } from '@nh/server/queries/shopper-self-service';
import { mintSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, orderNumber, signatureText, type Content } from './mail/layout';

/** Subject id: the link token's id (one email per lookup that matched). The token is made as the email is sent, into the link's fragment. */
export const email = defineEmail({
  name: 'order-link',
  payload: z.object({ tokenId: z.string().uuid() }),
  topics: { [OUTBOX_TOPICS.orderLinkRequested]: ({ tokenId }) => ({ tokenId }) },
  async compose(db, { tokenId }) {
    const link = await findShopperTokenById(db, tokenId);
    if (!link || link.purpose !== 'order_access' || !link.orderId) return skip('order link not found');
    if (link.usedAt || link.expiresAt.getTime() <= Date.now()) return skip('order link used or expired');
    const order = await findShopperOrder(db, link.orderId);
    if (!order) return skip('order not found');
    return {
      subjectId: tokenId,
      to: link.email,
      mint: (tx) => mintSingleUseToken(tx, 'shopper_tokens', tokenId),
      message: (token) => orderLinkEmail({ id: order.id, customerName: order.customerName }, `${SHOP.siteUrl}/orders/view#token=${encodeURIComponent(token)}`),
    };
  },
});

export function orderLinkEmail(order: { id: string; customerName: string }, url: string): Content {
  const number = orderNumber(order.id);
  const subject = `Your link to ${SHOP.name} order #${number}`;
  const hours = ORDER_LINK_TTL_MS / 3_600_000;
  const note = `The link works once, for ${hours} hours; after you open it, this browser shows the order for an hour. If you did not look this order up, ignore this email.`;
  const text = [`Hi ${order.customerName},`, '', `Here is the link to see your order #${number}: its status, items, totals and tracking.`, '', url, note, '', signatureText()].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(order.customerName)},</p>
<p>Here is the link to see your order <strong>#${escapeHtml(number)}</strong>: its status, items, totals and tracking.</p>
<p><a href="${escapeHtml(url)}" style="color:#2f5d3a;font-weight:bold">View order #${escapeHtml(number)}</a></p>
<p>${escapeHtml(note)}</p>`,
  );
  return { subject, text, html };
}
