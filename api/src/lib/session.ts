import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context';

declare module 'express-session' {
  interface SessionData {
    userId?: string;
  }
}

/** Sessions live in Postgres (table `sessions`), so API processes stay stateless and scale out. */
export function sessionMiddleware(ctx: AppContext): RequestHandler {
  const PgStore = connectPgSimple(session);
  return session({
    name: 'nh.sid',
    secret: ctx.config.SESSION_SECRET,
    store: new PgStore({ pool: ctx.db.$client, tableName: 'sessions', createTableIfMissing: false, pruneSessionInterval: 15 * 60 }),
    resave: false,
    saveUninitialized: false,
    rolling: false,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.isProduction && ctx.config.TRUST_PROXY,
      maxAge: 30 * 24 * 60 * 60 * 1000,
    },
  });
}
