/**
 * Browsers that signed in to an account before (the "known device" of Auth0's brute-force protection
 * and OWASP's authentication cheat sheet). At each successful sign-in the browser gets, or keeps, one
 * long-lived cookie: a random browser id and, for each account it signed in to (the latest few), a tag,
 * the HMAC of (realm, the account's email, the browser id) under a key derived from SESSION_SECRET. The
 * server keeps nothing: only this server can make a tag, and a tag names one account for one browser id,
 * so the cookie of another browser or another account proves nothing.
 *
 * What a known browser earns: it passes the account-wide parts of the sign-in and reset-request limits
 * (the slow-down after many failures, the email-wide cap of reset requests). The hard limits, per
 * (account, address) and per address, hold for every browser.
 *
 * The cookie is HttpOnly, SameSite=Lax, Secure in production and over https (`secureCookies`), path /api (only the
 * API reads it), for a year from the last sign-in.
 */
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { ApiConfig } from './config';
import { cookieOf, secureCookies } from './cookies';
import { purposeTag, sameTag } from './signed-value';

export const KNOWN_BROWSER_COOKIE = 'nh.known';
/** A year from the latest sign-in (browsers cap a cookie's life at 400 days). */
const MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;
/** Accounts a browser is remembered for (a family's computer, a shopper who is also staff); the oldest goes first. */
const MAX_ACCOUNTS = 8;
const PART = /^[A-Za-z0-9_-]{22}$/;

/** Whose sign-in: shoppers and staff are separate account spaces (one email may be both). */
export type SignInRealm = 'shopper' | 'staff';

export interface KnownBrowsers {
  /** Whether this request's browser signed in to the account (`email` as stored: trimmed, lower case) before. */
  isKnown: (req: Request, realm: SignInRealm, email: string) => boolean;
  /** Remembers the browser for the account: sets the cookie (a new browser id if it had none). */
  remember: (req: Request, res: Response, realm: SignInRealm, email: string) => void;
}

/** The browser id and its tags, or null when the cookie is absent or not ours. */
function parse(value: string | null): { id: string; tags: string[] } | null {
  const parts = value?.split('.') ?? [];
  if (parts.length < 1 || parts.length > MAX_ACCOUNTS + 1 || !parts.every((p) => PART.test(p))) return null;
  return { id: parts[0]!, tags: parts.slice(1) };
}

export function knownBrowsers(config: Pick<ApiConfig, 'SESSION_SECRET' | 'alwaysSecureCookies'>): KnownBrowsers {
  const tagText = purposeTag(config.SESSION_SECRET, 'nh known browser v1', 22);
  const tagOf = (realm: SignInRealm, email: string, id: string) => tagText(`${realm}\n${email}\n${id}`);
  return {
    isKnown(req, realm, email) {
      const cookie = parse(cookieOf(req, KNOWN_BROWSER_COOKIE));
      if (!cookie) return false;
      const tag = tagOf(realm, email, cookie.id);
      return cookie.tags.some((t) => sameTag(t, tag));
    },
    remember(req, res, realm, email) {
      const cookie = parse(cookieOf(req, KNOWN_BROWSER_COOKIE)) ?? { id: randomBytes(16).toString('base64url'), tags: [] };
      const tag = tagOf(realm, email, cookie.id);
      const tags = [tag, ...cookie.tags.filter((t) => !sameTag(t, tag))].slice(0, MAX_ACCOUNTS);
      res.cookie(KNOWN_BROWSER_COOKIE, [cookie.id, ...tags].join('.'), {
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies(config, req),
        path: '/api',
        maxAge: MAX_AGE_MS,
      });
    },
  };
}
