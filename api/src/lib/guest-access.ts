/**
 * A guest's hour with an order: the browser that paid for it (the confirmation page, a reload of it)
 * and the browser that opened the emailed order link (which spends the link) read the order, report a
 * problem with it and add photos, until GUEST_ORDER_ACCESS_MS after the grant.
 *
 * The grants live in a cookie of their own, `nh.go`, not in a session row: the order ids with the time
 * each grant ends, and an HMAC of them under a key derived from SESSION_SECRET, so a browser cannot
 * grant itself another order or a longer hour. Before issue 26 they were a field of the shopper's
 * session, and every guest checkout wrote a session row for it (a database write and a commit per
 * order on the shop's write path). The cookie holds order ids, which name an order but open nothing
 * without the signature; it goes only to /api, is HttpOnly, SameSite=Lax and Secure as the session
 * cookie is, and signing out ends it. docs/decisions/checkout.md, "The guest's hour without a session row".
 */
import type { Request, Response } from 'express';
import { GUEST_ORDER_ACCESS_MS } from '@nh/shared/contracts/account';
import type { ApiConfig } from './config';
import { cookieOf, secureCookies } from './cookies';
import { valueSigner } from './signed-value';
import { isUuid } from './validation';

const GUEST_ORDERS_COOKIE = 'nh.go';
const COOKIE_PATH = '/api';
/** The newest grants kept: a cookie stays small whatever a browser does (each grant is ~50 bytes). */
const GUEST_ORDERS_KEPT = 10;

export interface GuestAccess {
  /** Lets this browser read `orderId` for the next hour (kept with its other live grants). */
  grant: (req: Request, res: Response, orderId: string, now?: number) => void;
  /** Whether this browser holds a live grant for `orderId`. */
  has: (req: Request, orderId: string, now?: number) => boolean;
}

/** Ends every grant of this browser (signing out): the cookie is cleared. */
export const endGuestAccess = (res: Response): void => {
  res.clearCookie(GUEST_ORDERS_COOKIE, { path: COOKIE_PATH });
};

export function createGuestAccess(config: Pick<ApiConfig, 'SESSION_SECRET' | 'alwaysSecureCookies'>): GuestAccess {
  const signer = valueSigner(config.SESSION_SECRET, 'nh guest orders v1');

  /** The live grants the request's cookie carries (order id → when it ends), or none if it is not ours. */
  const grantsOf = (req: Request, now: number): Map<string, number> => {
    const grants = new Map<string, number>();
    const payload = signer.open(cookieOf(req, GUEST_ORDERS_COOKIE));
    if (payload === null) return grants;
    for (const entry of payload.split('|')) {
      const [orderId, until] = entry.split(':');
      const ends = Number(until);
      if (orderId && isUuid(orderId) && /^\d{1,15}$/.test(until ?? '') && ends > now) grants.set(orderId, ends);
    }
    return grants;
  };

  return {
    grant(req, res, orderId, now = Date.now()) {
      const grants = grantsOf(req, now);
      grants.delete(orderId);
      grants.set(orderId, now + GUEST_ORDER_ACCESS_MS);
      const payload = [...grants]
        .slice(-GUEST_ORDERS_KEPT)
        .map(([id, until]) => `${id}:${until}`)
        .join('|');
      res.append(
        'Set-Cookie',
        `${GUEST_ORDERS_COOKIE}=${signer.sign(payload)}; Max-Age=${GUEST_ORDER_ACCESS_MS / 1000}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${secureCookies(config, req) ? '; Secure' : ''}`,
      );
    },
    has: (req, orderId, now = Date.now()) => grantsOf(req, now).has(orderId),
  };
}
