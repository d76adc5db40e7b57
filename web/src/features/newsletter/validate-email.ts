import { EMAIL_PATTERN, NEWSLETTER_MESSAGES } from '@nh/shared/contracts/newsletter';

export { NEWSLETTER_MESSAGES };

export interface ValidationToast {
  title: string;
  description: string;
}

/** Home newsletter form check (storefront §5): null when the address may be sent. */
export function newsletterEmailProblem(email: string): ValidationToast | null {
  const value = email.trim();
  if (!value) return { title: 'Email required', description: NEWSLETTER_MESSAGES.emailRequired };
  if (!EMAIL_PATTERN.test(value)) return { title: 'Invalid email', description: NEWSLETTER_MESSAGES.emailInvalid };
  return null;
}
