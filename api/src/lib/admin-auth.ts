import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ADMIN_MESSAGES, ADMIN_TOKEN_TTL_MS } from '@nh/shared/contracts/admin';
import type { AppContext } from '../context';
import { AppError } from './errors';
import { createLimiter } from './rate-limit';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time comparison (hashing first makes the lengths equal). */
export function adminPasswordMatches(expected: string, given: unknown): boolean {
  return typeof given === 'string' && given.length > 0 && timingSafeEqual(digest(expected), digest(given));
}

// ---------------------------------------------------------------- admin tokens
/*
 * The SPA never stores the admin password: verify-password answers an opaque token
 * `nha1.<expiry ms>.<HMAC-SHA256(expiry)>`, which admin calls may send in place of the password.
 * The key is derived from ADMIN_PASSWORD and SESSION_SECRET, so changing either revokes every token.
 */
const TOKEN_PREFIX = 'nha1';

const tokenKey = (ctx: AppContext) =>
  createHmac('sha256', ctx.config.SESSION_SECRET).update(`admin-token:${ctx.config.ADMIN_PASSWORD}`, 'utf8').digest();

const sign = (ctx: AppContext, expiresAt: number) => createHmac('sha256', tokenKey(ctx)).update(`${TOKEN_PREFIX}.${expiresAt}`).digest('base64url');

export interface AdminToken {
  token: string;
  expiresAt: Date;
}

/** A token valid for ADMIN_TOKEN_TTL_MS (12 hours) from `now`. */
export function issueAdminToken(ctx: AppContext, now = Date.now()): AdminToken {
  const expiresAt = now + ADMIN_TOKEN_TTL_MS;
  return { token: `${TOKEN_PREFIX}.${expiresAt}.${sign(ctx, expiresAt)}`, expiresAt: new Date(expiresAt) };
}

/** The expiry of a genuine, unexpired token; null for anything else. */
export function verifyAdminToken(ctx: AppContext, given: unknown, now = Date.now()): Date | null {
  if (typeof given !== 'string' || given.length > 200) return null;
  const [prefix, expiry, mac, ...rest] = given.split('.');
  if (prefix !== TOKEN_PREFIX || !expiry || !mac || rest.length > 0 || !/^\d{1,15}$/.test(expiry)) return null;
  const expiresAt = Number(expiry);
  const expected = Buffer.from(sign(ctx, expiresAt));
  const actual = Buffer.from(mac);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  return expiresAt > now ? new Date(expiresAt) : null;
}

export type AdminCredential = { kind: 'password' } | { kind: 'token'; expiresAt: Date };

/** What the `password` field of an admin call proves: the real password, a valid token, or nothing. */
export function checkAdminCredential(ctx: AppContext, given: unknown): AdminCredential | null {
  if (adminPasswordMatches(ctx.config.ADMIN_PASSWORD, given)) return { kind: 'password' };
  const expiresAt = verifyAdminToken(ctx, given);
  return expiresAt ? { kind: 'token', expiresAt } : null;
}

// ---------------------------------------------------------------- the guard
export interface AdminGuard {
  /**
   * Counts refused credentials per client address: 10 per 15 minutes across every admin endpoint (one
   * budget, so guesses spread over several endpoints do not multiply the allowance).
   */
  failureLimiter: RequestHandler;
  /**
   * Admin calls carry the shared admin password, or an admin token from verify-password, in the JSON
   * body (`password`), as the spec's admin calls do: the failure limiter, then the credential check.
   */
  requireAdmin: RequestHandler[];
}

/** The admin area's guard, made once by the admin area (api/src/modules/admin). */
export function createAdminGuard(ctx: AppContext): AdminGuard {
  const failureLimiter = createLimiter(ctx, {
    name: 'admin-auth',
    windowMs: 15 * 60 * 1000,
    limit: 10,
    count: 'failures',
    // Only a refused credential counts: a 400 or 404 after a good password is not a guess.
    requestWasSuccessful: (_req, res) => res.locals.adminAuthenticated === true,
    message: ADMIN_MESSAGES.tooManyAttempts,
  }).middleware;
  const check: RequestHandler = (req, res, next) => {
    const body = (req.body ?? {}) as { password?: unknown };
    const credential = checkAdminCredential(ctx, body.password);
    if (credential) {
      res.locals.adminAuthenticated = true;
      res.locals.adminCredential = credential;
      return next();
    }
    next(new AppError('ADMIN_AUTH_FAILED', ADMIN_MESSAGES.invalidPassword));
  };
  return { failureLimiter, requireAdmin: [failureLimiter, check] };
}
