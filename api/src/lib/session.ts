import { createHash } from 'node:crypto';
import connectPgSimple from 'connect-pg-simple';
import session, { type SessionData } from 'express-session';
import type { RequestHandler } from 'express';
import type { AppContext } from './context';

declare module 'express-session' {
  interface SessionData {
    userId?: string;
    /** When the shopper signed in (epoch ms): a passwordless account's email change needs a recent one. */
    signedInAt?: number;
  }
}

/**
 * The key a session is stored under: the SHA-256 (hex) of its id, never the id itself, as for staff
 * sessions and every emailed token. The cookie carries the id (signed with SESSION_SECRET); a copy of
 * the `sessions` table opens no session, even with the secret. Migration `hashed_session_ids` keyed the
 * sessions of before the same way.
 */
export const storedSessionKey = (sid: string): string => createHash('sha256').update(sid, 'utf8').digest('hex');

const PgStore = connectPgSimple(session);

/** connect-pg-simple, each call keyed by the session id's hash. */
class HashedIdStore extends PgStore {
  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    super.get(storedSessionKey(sid), callback);
  }
  override set(sid: string, data: SessionData, callback?: (err?: unknown) => void): void {
    super.set(storedSessionKey(sid), data, callback);
  }
  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    super.destroy(storedSessionKey(sid), callback);
  }
  override touch(sid: string, data: SessionData, callback?: () => void): void {
    super.touch(storedSessionKey(sid), data, callback);
  }
}

/** Sessions live in Postgres (table `sessions`, keyed by the id's hash), so API processes stay stateless and scale out. */
export function sessionMiddleware(ctx: AppContext): RequestHandler {
  return session({
    name: 'nh.sid',
    secret: ctx.config.SESSION_SECRET,
    store: new HashedIdStore({ pool: ctx.db.$client, tableName: 'sessions', createTableIfMissing: false, pruneSessionInterval: 15 * 60 }),
    resave: false,
    saveUninitialized: false,
    rolling: false,
    // In production (an https shop) the cookie is always Secure (lib/cookies.ts, `secureCookies`). express-session sets a
    // Secure cookie only on a request it believes came over https; behind a TLS-terminating proxy that is
    // the proxy's X-Forwarded-Proto, read here whatever TRUST_PROXY says (it decides nothing else: a
    // client that forges it over plain HTTP only gets a cookie its browser drops). A plain-HTTP request
    // gets no session cookie, and lib/proxy-warning.ts says so once.
    proxy: ctx.config.alwaysSecureCookies ? true : undefined,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.alwaysSecureCookies ? true : 'auto',
      maxAge: 30 * 24 * 60 * 60 * 1000,
    },
  });
}
