/**
 * Someone keeps getting an account's password wrong (issue 19): the account's holder is told, once per
 * 15-minute window (the API's sign-in guard decides when). Staff and shoppers each get their own
 * wording and their own reset link; nothing here says from where the attempts came.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { findStaffById } from '@nh/server/queries/staff';
import { findUserContactById } from '@nh/server/queries/shopper-self-service';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, signatureText, type Content } from './mail/layout';

/** Subject id: the alert's id (one email per window). */
export const email = defineEmail({
  name: 'sign-in-failures',
  payload: z.object({
    account: z.enum(['staff', 'shopper']),
    accountId: z.string().uuid(),
    alertId: z.string().uuid(),
    failures: z.number().int().positive(),
  }),
  topics: { [OUTBOX_TOPICS.signInFailures]: (p) => p },
  async compose(db, { account, accountId, alertId, failures }) {
    if (account === 'staff') {
      const member = await findStaffById(db, accountId);
      if (!member || member.disabledAt) return skip('staff account gone or disabled');
      return { subjectId: alertId, message: { to: member.email, ...signInFailuresEmail({ account, name: member.name, failures }) } };
    }
    const user = await findUserContactById(db, accountId);
    if (!user?.hasPassword) return skip('account gone or without a password');
    return { subjectId: alertId, message: { to: user.email, ...signInFailuresEmail({ account, name: user.firstName, failures }) } };
  },
});

export function signInFailuresEmail(a: { account: 'staff' | 'shopper'; name: string | null; failures: number }): Content {
  const staff = a.account === 'staff';
  const which = staff ? `${SHOP.name} back office account` : `${SHOP.name} account`;
  const link = staff ? `${SHOP.siteUrl}/admin/forgot-password` : `${SHOP.siteUrl}/account/forgot-password`;
  const subject = `Someone is trying to sign in to your ${which}`;
  const greeting = a.name ? `Hi ${a.name},` : 'Hello,';
  const what = `Someone tried to sign in to your ${which} with a wrong password ${a.failures} times in the last 15 minutes. Those tries were refused.`;
  const ifYou =
    'If it was you: no harm done. On a computer or phone you have signed in with before, you sign in as usual; anywhere else, signing in may take a few seconds longer for a while.';
  const ifNot =
    'If it was not you: your account is safe as long as nobody knows your password. We slow further tries down and shut out any connection that keeps guessing. If you use this password anywhere else, or it is easy to guess, choose a new one now.';
  const once = 'We send this email at most once every 15 minutes.';
  const text = [greeting, '', what, '', ifYou, '', ifNot, `Choose a new password: ${link}`, '', once, '', signatureText()].join('\n');
  const html = layout(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(what)}</p>
<p>${escapeHtml(ifYou)}</p>
<p>${escapeHtml(ifNot)}</p>
<p><a href="${escapeHtml(link)}" style="color:#2f5d3a;font-weight:bold">Choose a new password</a></p>
<p style="font-size:13px;color:#5b6b5b">${escapeHtml(once)}</p>`,
  );
  return { subject, text, html };
}
