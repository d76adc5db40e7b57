/** POST /api/newsletter: request, response and the messages of storefront §5/§8; and the unsubscribe link's calls. */
import { z } from 'zod';
import { textField } from './fields';

/** "text, at-sign, text, dot, text with no spaces" (storefront §5): the shop's one email shape rule. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX_LENGTH = 254;

export const NEWSLETTER_MESSAGES = {
  emailRequired: 'Please enter your email address.',
  emailInvalid: 'Please enter a valid email address.',
  subscribed: "You've been subscribed to our newsletter.",
  unsubscribeLinkUnknown: 'We could not find this unsubscribe link. Please use the whole link from the email.',
} as const;

export const newsletterRequestSchema = z.object({
  email: textField({ max: EMAIL_MAX_LENGTH, required: NEWSLETTER_MESSAGES.emailRequired, tooLong: NEWSLETTER_MESSAGES.emailInvalid })
    .min(1, NEWSLETTER_MESSAGES.emailRequired)
    .regex(EMAIL_PATTERN, NEWSLETTER_MESSAGES.emailInvalid)
    .toLowerCase(),
});
export type NewsletterRequest = z.input<typeof newsletterRequestSchema>;

/** Same shape whether the address is new (201) or already on the list (200). */
export const newsletterResponseSchema = z.object({ message: z.string(), alreadySubscribed: z.boolean() });
export type NewsletterResponse = z.infer<typeof newsletterResponseSchema>;

/**
 * GET /api/newsletter/unsubscribe/{token} (where the address stands) and POST (unsubscribe, RFC 8058
 * one-click; idempotent). `email` is masked ("r***@example.com"): the link may have been forwarded.
 */
export const unsubscribeStateSchema = z.object({ email: z.string(), subscribed: z.boolean() });
export type UnsubscribeState = z.infer<typeof unsubscribeStateSchema>;
