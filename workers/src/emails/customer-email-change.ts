/**
 * Staff started changing a customer's email (issue 23): the new address gets the single-use link to
 * confirm it (24 hours). The token is made as the email is sent, into the link's path
 * (/account/confirm-email/<token>, redacted from request logs); the job and the outbox carry the link's row id only.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { EMAIL_CHANGE_TTL_MS } from '@nh/shared/contracts/email-change';
import { findShopperTokenById, findUserNameById } from '@nh/server/queries/shopper-self-service';
import { mintSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, signatureText, type Content } from './mail/layout';

/** Subject id: the link's row id (one email per change started). */
export const email = defineEmail({
  name: 'customer-email-change',
  payload: z.object({ tokenId: z.string().uuid() }),
  topics: { [OUTBOX_TOPICS.customerEmailChangeRequested]: ({ tokenId }) => ({ tokenId }) },
  async compose(db, { tokenId }) {
    const link = await findShopperTokenById(db, tokenId);
    if (!link || link.purpose !== 'email_change' || !link.userId) return skip('email change not found');
    if (link.usedAt || link.expiresAt.getTime() <= Date.now()) return skip('email change used, replaced or expired');
    const user = await findUserNameById(db, link.userId);
    return {
      subjectId: tokenId,
      to: link.email,
      mint: (tx) => mintSingleUseToken(tx, 'shopper_tokens', tokenId),
      message: (token) => customerEmailChangeEmail(user?.firstName ?? null, link.email, `${SHOP.siteUrl}/account/confirm-email/${encodeURIComponent(token)}`),
    };
  },
});

export function customerEmailChangeEmail(firstName: string | null, newEmail: string, link: string): Content {
  const subject = `Confirm your new email address for ${SHOP.name}`;
  const hours = EMAIL_CHANGE_TTL_MS / 3_600_000;
  const greeting = firstName ? `Hi ${firstName},` : 'Hello,';
  const intro = `We were asked to change the email address of your ${SHOP.name} account to ${newEmail}.`;
  const body = `The link works once, for ${hours} hours. Until you confirm, your account keeps its current address. If you did not ask for this, ignore this email: nothing changes.`;
  const text = [greeting, '', intro, '', `Confirm the new address here: ${link}`, body, '', signatureText()].join('\n');
  const html = layout(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="color:#2f5d3a;font-weight:bold">Confirm my new email address</a></p>
<p>${escapeHtml(body)}</p>`,
  );
  return { subject, text, html };
}
