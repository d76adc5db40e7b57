import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppContext } from '../context';
import { HttpError } from './errors';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time comparison (hashing first makes the lengths equal). */
export function adminPasswordMatches(expected: string, given: unknown): boolean {
  return typeof given === 'string' && given.length > 0 && timingSafeEqual(digest(expected), digest(given));
}

/**
 * Admin calls carry the shared admin password in the JSON body (`password`), as the spec's admin calls
 * do. Failures are rate-limited per client address: 10 wrong passwords per 15 minutes.
 */
export function requireAdmin(ctx: AppContext): RequestHandler[] {
  const limiter = rateLimit({
    windowMs: 15 * 60 * 1000,
    limit: 10,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new HttpError(429, 'Too many wrong admin passwords. Try again in 15 minutes.')),
  });
  const check: RequestHandler = (req, _res, next) => {
    const body = (req.body ?? {}) as { password?: unknown };
    if (adminPasswordMatches(ctx.config.ADMIN_PASSWORD, body.password)) return next();
    next(new HttpError(401, 'Invalid password'));
  };
  return [limiter, check];
}
