/**
 * Limits on asking for a password-reset email, one rule for staff and shoppers: per (email, client
 * address), so a stranger spends only their own budget and never the holder's, and email-wide, so many
 * addresses cannot flood one inbox. The holder can always ask for a link: a browser that signed in to
 * the account before passes the email-wide cap (lib/known-browser.ts), and so does the first request
 * for the email from an address in the window (the holder on a new phone, after clearing cookies): a
 * stranger keeping the cap full cannot stop it, and floods the inbox only with one email per address
 * they own.
 */
import type { Request, RequestHandler } from 'express';
import type { AppContext } from './context';
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
  // The (email, address) limiter runs first and leaves its count on the request.
  const countHere = `${o.name.replace(/\W/g, '_')}EmailAtAddress`;
  const firstFromHere = (req: Request) => (req as unknown as Record<string, { used?: number } | undefined>)[countHere]?.used === 1;
  const emailWide = (req: Request) => (firstFromHere(req) || o.known.isKnown(req, o.realm, emailOf(req)) ? '' : emailKey(req));
  return [
    createLimiter(ctx, {
      name: `${o.name}-email-address`,
      windowMs: o.windowMs,
      limit: o.perEmailAtAddress,
      message: o.message,
      key: emailAtAddress,
      requestPropertyName: countHere,
    }).middleware,
    createLimiter(ctx, { name: `${o.name}-email`, windowMs: o.windowMs, limit: o.perEmail, message: o.message, key: emailWide }).middleware,
  ];
}
