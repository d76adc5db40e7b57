/** Staff asked to reset a forgotten password: the single-use link (1 hour). */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { STAFF_RESET_TTL_MS } from '@nh/shared/contracts/staff';
import { findStaffTokenById } from '@nh/server/queries/staff';
import { mintSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, signatureText, type Content } from './mail/layout';

/** Subject id: the reset token's id (one email per request). The token is made as the email is sent, into the link's fragment. */
export const email = defineEmail({
  name: 'staff-password-reset',
  payload: z.object({ tokenId: z.string().uuid() }),
  topics: { [OUTBOX_TOPICS.staffPasswordResetRequested]: ({ tokenId }) => ({ tokenId }) },
  async compose(db, { tokenId }) {
    const reset = await findStaffTokenById(db, tokenId);
    if (!reset || reset.purpose !== 'password_reset') return skip('reset not found');
    if (reset.usedAt || reset.expiresAt.getTime() <= Date.now()) return skip('reset used or expired');
    return {
      subjectId: tokenId,
      to: reset.email,
      mint: (tx) => mintSingleUseToken(tx, 'staff_tokens', tokenId),
      message: (token) => staffPasswordResetEmail(`${SHOP.siteUrl}/admin/reset-password#token=${token}`),
    };
  },
});

export function staffPasswordResetEmail(link: string): Content {
  const subject = `Reset your ${SHOP.name} back office password`;
  const minutes = STAFF_RESET_TTL_MS / 60_000;
  const text = [
    `Someone (we hope you) asked to reset the password of your ${SHOP.name} back office account.`,
    '',
    `Choose a new password here: ${link}`,
    `The link works once, for ${minutes} minutes; every signed-in session ends when the password changes. If you did not ask, ignore this email: your password stays as it is.`,
    '',
    signatureText(),
  ].join('\n');
  const html = layout(
    subject,
    `<p>Someone (we hope you) asked to reset the password of your ${escapeHtml(SHOP.name)} back office account.</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a></p>
<p>The link works once, for ${minutes} minutes; every signed-in session ends when the password changes. If you did not ask, ignore this email: your password stays as it is.</p>`,
  );
  return { subject, text, html };
}
