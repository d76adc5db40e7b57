/** Built-in sign-in (GET/POST /api/login, POST /api/register, GET /api/logout, GET /api/auth/user). */
import { z } from 'zod';
import { textField } from './fields';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './newsletter';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

export const AUTH_MESSAGES = {
  email: 'Please enter a valid email address.',
  passwordRequired: 'Please enter your password.',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  firstName: 'Please enter your first name.',
  lastName: 'Please enter your last name.',
  wrongCredentials: 'Incorrect email or password.',
  emailTaken: 'An account with this email already exists. Please sign in instead.',
  notSignedIn: 'Not signed in',
  tooManyAttempts: 'Too many failed sign-in attempts. Please try again in 15 minutes.',
  codeSent: 'If an account uses this email, a 6-digit sign-in code is on its way. It works for 10 minutes.',
  codeFormat: 'Please enter the 6-digit code from the email.',
  codeWrong: 'That code is wrong, used or expired. Check the newest email, or ask for a new code.',
  tooManyCodeRequests: 'Too many sign-in codes were asked for. Please try again in an hour.',
  tooManyCodeTries: 'Too many wrong codes from this address. Please try again in 15 minutes.',
} as const;

/** A sign-in code works this long (issue 22). */
export const SIGN_IN_CODE_TTL_MS = 10 * 60 * 1000;

const email = textField({ max: EMAIL_MAX_LENGTH, required: AUTH_MESSAGES.email, tooLong: AUTH_MESSAGES.email })
  .regex(EMAIL_PATTERN, AUTH_MESSAGES.email)
  .toLowerCase();
/** Where to go after signing in; the server only honours a same-site path. */
const returnTo = textField({ max: 2000 }).optional();

export const loginRequestSchema = z.object({
  email,
  password: z.string({ error: AUTH_MESSAGES.passwordRequired }).min(1, AUTH_MESSAGES.passwordRequired).max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.wrongCredentials),
  returnTo,
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** POST /api/login/email-code: 202 with `AUTH_MESSAGES.codeSent`, whatever the email. */
export const emailCodeRequestSchema = z.object({
  email,
  /** Checkout's Subscribe & Save for a guest: an email without an account gets a code too, and verifying it makes the account (no password). */
  signUp: z.boolean().optional(),
});
export type EmailCodeRequest = z.input<typeof emailCodeRequestSchema>;

/** POST /api/login/email-code/verify: the shopper session, as POST /api/login starts it. */
export const emailCodeVerifySchema = z.object({
  email,
  code: z
    .string({ error: AUTH_MESSAGES.codeFormat })
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, AUTH_MESSAGES.codeFormat)),
  returnTo,
  /** The names a new account (a checkout's sign-up code) gets; ignored for an existing account. */
  firstName: textField({ max: 100 }).optional(),
  lastName: textField({ max: 100 }).optional(),
});
export type EmailCodeVerify = z.input<typeof emailCodeVerifySchema>;

const name = (message: string) => textField({ max: 100, required: message, tooLong: message }).min(1, message);

export const registerRequestSchema = z.object({
  firstName: name(AUTH_MESSAGES.firstName),
  lastName: name(AUTH_MESSAGES.lastName),
  email,
  password: z
    .string({ error: AUTH_MESSAGES.passwordTooShort })
    .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
    .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong),
  returnTo,
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

/** GET /api/auth/user: 200 with the user, or 200 with `null` for a guest (signed out). */
export const authUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

/** Answer of a successful POST /api/login or /api/register. */
export const signInResponseSchema = z.object({ user: authUserSchema, redirectTo: z.string() });
export type SignInResponse = z.infer<typeof signInResponseSchema>;
