/** A shopper asked to reset a forgotten password: the single-use link (1 hour). Issue 13. */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { SHOPPER_RESET_TTL_MS } from '@nh/shared/contracts/account';
import { findShopperTokenById, findUserNameById } from '@nh/server/queries/shopper-self-service';
import { mintSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, signatureText, type Content } from './mail/layout';

/** Subject id: the reset token's id (one email per request). The token is made as the email is sent, into the link's fragment. */
export const email = defineEmail({
  name: 'shopper-password-reset',
  payload: z.object({ tokenId: z.string().uuid() }),
  topics: { [OUTBOX_TOPICS.shopperPasswordResetRequested]: ({ tokenId }) => ({ tokenId }) },
  async compose(db, { tokenId }) {
    const reset = await findShopperTokenById(db, tokenId);
    if (!reset || reset.purpose !== 'password_reset' || !reset.userId) return skip('reset not found');
    if (reset.usedAt || reset.expiresAt.getTime() <= Date.now()) return skip('reset used or expired');
    const user = await findUserNameById(db, reset.userId);
    return {
      subjectId: tokenId,
      to: reset.email,
      mint: (tx) => mintSingleUseToken(tx, 'shopper_tokens', tokenId),
      message: (token) => shopperPasswordResetEmail(user?.firstName ?? null, `${SHOP.siteUrl}/account/reset-password#token=${encodeURIComponent(token)}`),
    };
  },
});

export function shopperPasswordResetEmail(firstName: string | null, link: string): Content {
  const subject = `Reset your ${SHOP.name} password`;
  const minutes = SHOPPER_RESET_TTL_MS / 60_000;
  const greeting = firstName ? `Hi ${firstName},` : 'Hello,';
  const body = `The link works once, for ${minutes} minutes; when your password changes, every device signed in to your account is signed out. If you did not ask, ignore this email: your password stays as it is.`;
  const text = [greeting, '', `Someone (we hope you) asked to reset the password of your ${SHOP.name} account.`, '', `Choose a new password here: ${link}`, body, '', signatureText()].join('\n');
  const html = layout(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p>Someone (we hope you) asked to reset the password of your ${escapeHtml(SHOP.name)} account.</p>
<p><a href="${escapeHtml(link)}" style="color:#2f5d3a;font-weight:bold">Choose a new password</a></p>
<p>${escapeHtml(body)}</p>`,
  );
  return { subject, text, html };
}
