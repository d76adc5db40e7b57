/**
 * The customer confirmed a new email address (issue 23): the old address is told its account's email
 * changed, and what to do if they did not ask (the notice carries no link that opens anything).
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { findShopperTokenById, findUserNameById } from '@nh/server/queries/shopper-self-service';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, signatureText, type Content } from './mail/layout';

/** Subject id: the spent link's row id (one notice per change). */
export const email = defineEmail({
  name: 'customer-email-changed',
  payload: z.object({ tokenId: z.string().uuid() }),
  topics: { [OUTBOX_TOPICS.customerEmailChanged]: ({ tokenId }) => ({ tokenId }) },
  async compose(db, { tokenId }) {
    const link = await findShopperTokenById(db, tokenId);
    if (!link || link.purpose !== 'email_change' || !link.userId || !link.previousEmail) return skip('email change not confirmed');
    const user = await findUserNameById(db, link.userId);
    return { subjectId: tokenId, message: { to: link.previousEmail, ...customerEmailChangedEmail(user?.firstName ?? null, link.previousEmail, link.email) } };
  },
});

/** Shows the new address only partly (the old inbox may no longer be the customer's). */
export const maskEmail = (address: string): string => {
  const [name = '', domain = ''] = address.split('@');
  return `${name.slice(0, 2)}${'•'.repeat(Math.max(1, Math.min(6, name.length - 2)))}@${domain}`;
};

export function customerEmailChangedEmail(firstName: string | null, oldEmail: string, newEmail: string): Content {
  const subject = `The email address of your ${SHOP.name} account was changed`;
  const greeting = firstName ? `Hi ${firstName},` : 'Hello,';
  const intro = `The email address of your ${SHOP.name} account is no longer ${oldEmail}: it was changed to ${maskEmail(newEmail)}, confirmed from a link sent to that address.`;
  const next = `Emails about your orders and subscriptions now go to the new address. If you did not ask for this, reply to this email or contact us at ${SHOP.supportEmail} and we will help you get your account back.`;
  const text = [greeting, '', intro, '', next, '', signatureText()].join('\n');
  const html = layout(subject, `<p>${escapeHtml(greeting)}</p>\n<p>${escapeHtml(intro)}</p>\n<p>${escapeHtml(next)}</p>`);
  return { subject, text, html };
}
