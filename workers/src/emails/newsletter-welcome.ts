/** The newsletter welcome: the subscriber's personal single-use 15% code. Marketing: it carries the one-click unsubscribe. */
import { z } from 'zod';
import { NEWSLETTER_DISCOUNT_PERCENT, SHOP } from '@nh/shared';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { findNewsletterSubscriber } from '@nh/server/queries/email-context';
import { defineEmail, skip } from './define-email';
import { escapeHtml, marketingEmail, signatureText, type Content } from './mail/layout';
import { ensureWelcomeCode } from './welcome-code';

/** Subject id: the subscriber id. */
export const email = defineEmail({
  name: 'newsletter-welcome',
  payload: z.object({ subscriberId: z.number().int() }),
  topics: { [OUTBOX_TOPICS.newsletterSubscribed]: ({ subscriberId }) => ({ subscriberId }) },
  marketing: true,
  async compose(db, { subscriberId }) {
    const subscriber = await findNewsletterSubscriber(db, subscriberId);
    if (!subscriber) return skip('subscriber not found');
    const code = await ensureWelcomeCode(db, subscriberId);
    const content = newsletterWelcomeEmail({ code, percent: NEWSLETTER_DISCOUNT_PERCENT, unsubscribeToken: subscriber.unsubscribeToken });
    return { subjectId: String(subscriberId), message: { to: subscriber.email, ...content } };
  },
});

export function newsletterWelcomeEmail({ code, percent, unsubscribeToken }: { code: string; percent: number; unsubscribeToken: string }): Content {
  const subject = `Welcome to ${SHOP.name}: ${percent}% off your first order`;
  const text = [
    `Welcome to the ${SHOP.name} family!`,
    '',
    `Thanks for subscribing. Here is your ${percent}% off code for your first order:`,
    '',
    `    ${code}`,
    '',
    'Enter it at checkout. It can be used once.',
    '',
    signatureText(),
  ];
  const html = `<p>Welcome to the ${escapeHtml(SHOP.name)} family!</p>
<p>Thanks for subscribing. Here is your ${percent}% off code for your first order:</p>
<p style="font-size:24px;font-weight:bold;letter-spacing:2px;background:#eef5ee;padding:12px 16px;display:inline-block;border-radius:6px">${escapeHtml(code)}</p>
<p>Enter it at checkout. It can be used once.</p>`;
  return marketingEmail(subject, text, html, unsubscribeToken);
}
