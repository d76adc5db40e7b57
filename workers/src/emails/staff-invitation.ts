/** An owner invited someone to the back office: the invitation with its single-use link (72 hours). */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { STAFF_INVITATION_TTL_MS, STAFF_ROLE_DESCRIPTIONS, STAFF_ROLE_LABELS, type StaffRole } from '@nh/shared/contracts/staff';
import { findStaffTokenById } from '@nh/server/queries/staff';
import { mintSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, signatureText, type Content } from './mail/layout';

/**
 * Subject id: the invitation's id (one email per invitation, however often the job runs). The link's
 * token is made as the email is sent (define-email.ts) and travels in the address's fragment, which
 * browsers never send to a server (so no request log holds it).
 */
export const email = defineEmail({
  name: 'staff-invitation',
  payload: z.object({ tokenId: z.string().uuid() }),
  topics: { [OUTBOX_TOPICS.staffInvited]: ({ tokenId }) => ({ tokenId }) },
  async compose(db, { tokenId }) {
    const invitation = await findStaffTokenById(db, tokenId);
    if (!invitation || invitation.purpose !== 'invitation') return skip('invitation not found');
    if (invitation.usedAt || invitation.expiresAt.getTime() <= Date.now()) return skip('invitation used or expired');
    return {
      subjectId: tokenId,
      to: invitation.email,
      mint: (tx) => mintSingleUseToken(tx, 'staff_tokens', tokenId),
      message: (token) => staffInvitationEmail({ role: invitation.role ?? 'support', inviterName: invitation.inviterName, link: `${SHOP.siteUrl}/admin/invite#token=${token}` }),
    };
  },
});

export function staffInvitationEmail(i: { role: StaffRole; inviterName: string | null; link: string }): Content {
  const subject = `You are invited to the ${SHOP.name} back office`;
  const who = i.inviterName ? `${i.inviterName} has invited you` : 'You have been invited';
  const hours = STAFF_INVITATION_TTL_MS / 3_600_000;
  const text = [
    `${who} to the ${SHOP.name} back office as ${STAFF_ROLE_LABELS[i.role]} (${STAFF_ROLE_DESCRIPTIONS[i.role]}).`,
    '',
    `Choose your name and password here: ${i.link}`,
    `The link works once, for ${hours} hours. If you did not expect this invitation, ignore this email.`,
    '',
    signatureText(),
  ].join('\n');
  const html = layout(
    subject,
    `<p>${escapeHtml(who)} to the ${escapeHtml(SHOP.name)} back office as <strong>${escapeHtml(STAFF_ROLE_LABELS[i.role])}</strong> (${escapeHtml(STAFF_ROLE_DESCRIPTIONS[i.role])}).</p>
<p><a href="${escapeHtml(i.link)}">Accept the invitation</a> to choose your name and password.</p>
<p>The link works once, for ${hours} hours. If you did not expect this invitation, ignore this email.</p>`,
  );
  return { subject, text, html };
}
