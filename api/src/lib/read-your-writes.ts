/**
 * Which database a read goes to (DATABASE_READ_URL, docs/decisions/scale-out.md "Reads from a replica").
 * Reads that may lag a moment (the catalogue, the server render's pages, admin lists, reports) go to the
 * replica, except for a person who has just changed something: for READ_YOUR_WRITES_MS after a
 * successful request that changes state, their reads go to the primary, so they see their change at once
 * (a staff member's new price, a shopper's new address) while everyone else may see it a moment later.
 *
 * The mark is a short-lived cookie, `nh.rw`: the time until which to read the primary and an HMAC of it
 * under a key derived from SESSION_SECRET. A cookie rather than a field of the session: the catalogue is
 * served ahead of the session middleware (no session read on the hottest path), staff and shoppers have
 * sessions of different kinds, and deciding where to read must not itself need a read. Signed, so a
 * client cannot send all its reads to the primary past the caches. It holds nothing personal.
 */
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import type { ApiConfig } from './config';
import { cookieOf, secureCookies } from './cookies';
import { AppError } from './errors';
import { valueSigner } from './signed-value';

export const READ_YOUR_WRITES_COOKIE = 'nh.rw';

const CHANGES_STATE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A route that reads only, whatever its method (the admin lists are POSTs with a search body): its request marks nothing. */
const READS_ONLY = Symbol('reads only');

export interface Reads {
  /**
   * Runs `query` on the database this request's reads that may lag go to: the primary for a person who
   * just changed something, else the replica. A read the replica fails (down, restarting, a recovery
   * conflict) is run once more on the primary: a read may be repeated, and a replica outage must not
   * take the storefront down with it.
   */
  read: <T>(req: Request, res: Response, query: (db: Db) => Promise<T>) => Promise<T>;
  /** Whether the request carries a live mark (read the primary, and past in-process caches). */
  justWrote: (req: IncomingMessage) => boolean;
  /**
   * Sets the mark on every successful (status below 400) request that changes state; null when there is
   * nothing to mark (no replica, or READ_YOUR_WRITES_MS 0), so the app mounts nothing.
   */
  mark: RequestHandler | null;
}

/** A replica's failure is logged at most this often (a replica that is down fails every read). */
const FAILURE_LOG_EVERY_MS = 60_000;

export function createReads(
  { primary, replica, log }: { primary: Db; replica: Db; log: Logger },
  config: Pick<ApiConfig, 'SESSION_SECRET' | 'READ_YOUR_WRITES_MS' | 'alwaysSecureCookies'>,
): Reads {
  // A short tag: the mark rides on every request of the next seconds, and it only steers reads.
  const signer = valueSigner(config.SESSION_SECRET, 'nh read your writes v1', 22);
  const justWrote = (req: IncomingMessage): boolean => {
    // Without a replica every read is the primary's already: no mark is set, and none is worth checking.
    if (replica === primary) return false;
    const until = signer.open(cookieOf(req, READ_YOUR_WRITES_COOKIE));
    return until !== null && /^\d{1,15}$/.test(until) && Number(until) > Date.now();
  };
  const windowMs = config.READ_YOUR_WRITES_MS;
  let failureLoggedAt = -Infinity;
  return {
    justWrote,
    read: async (req, res, query) => {
      (res.locals as Record<symbol, boolean>)[READS_ONLY] = true;
      if (replica === primary || justWrote(req)) return query(primary);
      try {
        return await query(replica);
      } catch (error) {
        // The request's own fault (a 4xx the read decided) is the same on the primary.
        if (error instanceof AppError) throw error;
        if (Date.now() - failureLoggedAt > FAILURE_LOG_EVERY_MS) {
          failureLoggedAt = Date.now();
          log.warn({ err: error }, 'a read from the replica (DATABASE_READ_URL) failed: reading the primary instead (said at most once a minute)');
        }
        return query(primary);
      }
    },
    mark: windowMs === 0 || replica === primary ? null : (req, res, next) => {
      if (!CHANGES_STATE.has(req.method)) return next();
      // Set as the head goes out: only then is the status known.
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: unknown[]) {
        const status = typeof args[0] === 'number' ? args[0] : this.statusCode;
        if (status < 400 && !(res.locals as Record<symbol, boolean>)[READS_ONLY] && !this.headersSent) {
          const until = String(Date.now() + windowMs);
          const cookie = `${READ_YOUR_WRITES_COOKIE}=${signer.sign(until)}; Max-Age=${Math.ceil(windowMs / 1000)}; Path=/; HttpOnly; SameSite=Lax${secureCookies(config, req) ? '; Secure' : ''}`;
          const set = this.getHeader('set-cookie');
          this.setHeader('set-cookie', [...(Array.isArray(set) ? set : set === undefined ? [] : [String(set)]), cookie]);
        }
        return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      } as typeof res.writeHead;
      next();
    },
  };
}
