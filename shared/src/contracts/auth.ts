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
} as const;

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
