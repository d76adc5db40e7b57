/**
 * Changing a customer's email, verified by the customer (issue 23; docs/decisions/admin.md, "Changing a
 * customer's email"). Staff start it (POST /api/admin/customers/{id}/email-change {email}); the new
 * address gets a single-use link to /account/confirm-email/<token>; the page shows the change
 * (GET /api/account/email-change/<token>) and the customer confirms it
 * (POST /api/account/email-change/<token>). Only then does the account's email change; the old address
 * is told.
 */
import { z } from 'zod';
import { textField } from './fields';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './newsletter';

/** How long the emailed link works: a day (the customer may read the email later than the call). */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;
/** At most this many links per customer an hour (staff clicking again, or a mistyped address). */
export const EMAIL_CHANGE_STARTS_PER_HOUR = 5;

export const EMAIL_CHANGE_MESSAGES = {
  email: 'Please enter the new email address, like name@example.com.',
  sameEmail: 'That is already the customer’s email address.',
  taken: 'Another account already uses that email address. The customer can sign in to that account instead, or choose another address.',
  started: 'A confirmation link is on its way to the new address. The email changes when the customer opens the link and confirms (it works once, for 24 hours).',
  tooMany: `At most ${EMAIL_CHANGE_STARTS_PER_HOUR} email changes can be started for a customer in an hour. Please try again later.`,
  tooManyAttempts: 'Too many attempts with links from emails. Please try again in an hour.',
  linkInvalid: 'This link is not valid. Please open the link from your email again, or ask us to send a new one.',
  linkUsed: 'This link was used already: the email address was changed. Sign in with the new address.',
  linkExpired: 'This link has expired (it works for 24 hours). Please ask us to send a new one.',
  linkReplaced: 'A newer link was sent for this account: please use the link in the latest email.',
  confirmed: 'Your email address is changed. Sign in with the new address from now on.',
  // The shopper changing their own address from their account (POST /api/account/email).
  ownSameEmail: 'That is already your email address.',
  ownTaken: 'Another account already uses that email address. Sign in to that account instead, or choose another address.',
  ownStarted: 'We sent a confirmation link to your new address. Your email changes when you open it and confirm (it works once, for 24 hours). Until then, sign in with your current address.',
  passwordRequired: 'Please enter your current password.',
  passwordWrong: 'That password is not right. Please enter your current password.',
  signInAgain: 'For your security, please sign in again with a code from your email, then change your address within 10 minutes.',
  ownTooMany: `You can ask for at most ${EMAIL_CHANGE_STARTS_PER_HOUR} email changes an hour. Please try again later.`,
} as const;

/** How recent a passwordless shopper's sign-in must be to change their email without a password. */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

/** POST /api/account/email: the shopper's new address, and their current password (accounts that have one). */
export const ownEmailChangeSchema = z.object({
  email: textField({ max: EMAIL_MAX_LENGTH, required: EMAIL_CHANGE_MESSAGES.email, tooLong: EMAIL_CHANGE_MESSAGES.email })
    .regex(EMAIL_PATTERN, EMAIL_CHANGE_MESSAGES.email)
    .toLowerCase(),
  password: z.string().max(1000).optional(),
});
export type OwnEmailChange = z.input<typeof ownEmailChangeSchema>;

/** POST /api/admin/customers/{id}/email-change */
export const emailChangeStartSchema = z.object({
  email: textField({ max: EMAIL_MAX_LENGTH, required: EMAIL_CHANGE_MESSAGES.email, tooLong: EMAIL_CHANGE_MESSAGES.email })
    .regex(EMAIL_PATTERN, EMAIL_CHANGE_MESSAGES.email)
    .toLowerCase(),
});
export type EmailChangeStart = z.input<typeof emailChangeStartSchema>;

/** The start's answer (202): the words for staff and when the link stops working. */
export interface EmailChangeStarted {
  message: string;
  email: string;
  expiresAt: string;
}

/** GET /api/account/email-change/{token}: what the customer is about to confirm. */
export interface EmailChangeView {
  /** The new address (the one the link was sent to). */
  email: string;
  expiresAt: string;
}

/** POST /api/account/email-change/{token}: done. */
export interface EmailChangeConfirmed {
  message: string;
  email: string;
}
