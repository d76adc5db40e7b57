/**
 * Every email the shop sends, by kind: the kind is the email job's name and its `email_log` kind
 * (renaming one would send every email of that kind once more), and the words staff read for it.
 * The one list of emails: the workers' emails queue loads each kind's module (`workers/src/emails/<kind>.ts`)
 * from it, and `defineEmail` accepts only these names; the order timeline labels its emails from here.
 */
export const EMAIL_KINDS = {
  'order-confirmation': 'Confirmation email',
  'order-shipped': 'Shipping notice',
  'order-link': 'Order link',
  'order-refunded': 'Refund email',
  'newsletter-welcome': 'Newsletter welcome',
  'renewal-reminder': 'Renewal reminder',
  'shopper-password-reset': 'Password reset (shopper)',
  'sign-in-failures': 'Failed sign-ins warning',
  'shopper-sign-in-code': 'Sign-in code',
  'staff-invitation': 'Staff invitation',
  'staff-password-reset': 'Password reset (staff)',
  'subscription-card-expiring': 'Card expiring notice',
  'subscription-card-link': 'Card update link',
  'subscription-changed': 'Plan change confirmation',
  'subscription-item-unavailable': 'Item unavailable notice',
  'subscription-paused': 'Plan paused notice',
  'subscription-price-change': 'Price change notice',
  'subscription-staff-change': 'Plan changed by staff',
  'subscription-welcome': 'Subscribe & Save welcome',
  'customer-email-change': 'Email change confirmation link',
  'customer-email-changed': 'Email changed notice (old address)',
} as const;

export type EmailKind = keyof typeof EMAIL_KINDS;

/** The emails an order's timeline shows (the ones sent about the order itself). */
export const ORDER_EMAIL_KINDS = ['order-confirmation', 'order-shipped', 'order-refunded'] as const satisfies readonly EmailKind[];

/** Staff's words for an email kind (a kind no longer sent keeps its own name). */
export const emailKindLabel = (kind: string): string => (kind in EMAIL_KINDS ? EMAIL_KINDS[kind as EmailKind] : kind);
