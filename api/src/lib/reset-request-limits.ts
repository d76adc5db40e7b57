/**
 * Limits on asking for a password-reset email, one rule for staff and shoppers: per (email, client
 * address), so a stranger spends only their own budget and never the holder's, and email-wide, so many
 * addresses cannot flood one inbox; a browser that signed in to that account before passes the
 * email-wide cap (lib/known-browser.ts), so the holder can always ask for a link.
 */
import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../context';
import type { KnownBrowsers, SignInRealm } from './known-browser';
import { clientAddressKey, createLimiter } from './rate-limit';

/** The email address a request's body names (trimmed, lower case), or '' when it names none. */
export const emailOf = (req: Request): string => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : '';
};

/** The address a request names as a limiter key ('' counts nothing). */
export const emailKey = (req: Request): string => (emailOf(req) ? `email:${emailOf(req)}` : '');

export interface ResetRequestLimits {
  /** Limiter names: `<name>-email-address` and `<name>-email`. */
  name: string;
  realm: SignInRealm;
  known: KnownBrowsers;
  message: string;
  windowMs: number;
  perEmailAtAddress: number;
  perEmail: number;
}

export function resetRequestLimits(ctx: AppContext, o: ResetRequestLimits): RequestHandler[] {
  const emailAtAddress = (req: Request) => (emailOf(req) ? `${emailKey(req)}|${clientAddressKey(req)}` : '');
  const emailUnlessKnown = (req: Request) => (o.known.isKnown(req, o.realm, emailOf(req)) ? '' : emailKey(req));
  return [
    createLimiter(ctx, {
      name: `${o.name}-email-address`,
      windowMs: o.windowMs,
      limit: o.perEmailAtAddress,
      message: o.message,
      key: emailAtAddress,
    }).middleware,
    createLimiter(ctx, { name: `${o.name}-email`, windowMs: o.windowMs, limit: o.perEmail, message: o.message, key: emailUnlessKnown })
      .middleware,
  ];
}
