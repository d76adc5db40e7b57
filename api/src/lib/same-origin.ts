/**
 * Cross-site request forgery guard: a request that changes state (POST, PUT, PATCH, DELETE) must come
 * from the shop's own pages. Browsers name the page that sent a request in `Origin` (or, where they
 * leave it out, say in `Sec-Fetch-Site` how the two relate), and a page cannot forge either header:
 *
 * - `Origin` is allowed when it is the request's own origin (its host, port included, equals the
 *   request's Host, so a page on another port of the same site is refused) or one of the configured
 *   site origins (SHOP_SITE_URL, ALLOWED_ORIGINS). `Origin: null` (sandboxed frames, privacy
 *   redirects, a form under a no-referrer policy) passes only with `Sec-Fetch-Site: same-origin`.
 * - Without `Origin`, `Sec-Fetch-Site` must be `same-origin` or `none` (typed by the user).
 * - A client that sends neither (curl, server-to-server calls, the benchmarks) is not a browser, so it
 *   cannot carry a shopper's cookie on a forged request: it passes.
 *
 * Routes that are authorised by a secret in their URL and are meant to be called from elsewhere (the
 * RFC 8058 one-click unsubscribe posted by mail clients) are exempt.
 */
import type { Request, RequestHandler } from 'express';
import { loggablePath } from '@nh/server/observability/loggable-url';
import { AppError } from './errors';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const FOREIGN_ORIGIN_MESSAGE = 'This request came from another website, so it was refused. Please use the shop’s own pages.';

export interface SameOriginOptions {
  /** Origins (scheme://host[:port]) allowed besides the request's own, e.g. from SHOP_SITE_URL. */
  allowedOrigins: readonly string[];
  /** Paths (relative to the mount point) that may be posted from anywhere. */
  exempt?: readonly RegExp[];
}

/** `scheme://host[:port]` of a URL, or null when it is not one. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? null : parsed.origin;
  } catch {
    return null;
  }
}

function fromOwnSite(req: Request, allowed: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  // A browser sends `Origin: null` for a form posted under a no-referrer policy even from the same
  // page, and from sandboxed frames: then only Sec-Fetch-Site can tell, and without it it is refused.
  if (origin === 'null') return site === 'same-origin';
  if (origin !== undefined) {
    const normalised = originOf(origin);
    if (!normalised) return false;
    if (allowed.has(normalised)) return true;
    // Express 5's req.host keeps the port (and follows X-Forwarded-Host only with TRUST_PROXY).
    return new URL(normalised).host === req.host;
  }
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  return true;
}

export function sameOriginGuard(options: SameOriginOptions): RequestHandler {
  const allowed = new Set(options.allowedOrigins.map(originOf).filter((o): o is string => o !== null));
  const exempt = options.exempt ?? [];
  return (req, _res, next) => {
    if (!UNSAFE.has(req.method) || exempt.some((pattern) => pattern.test(req.path)) || fromOwnSite(req, allowed)) return next();
    req.log?.warn({ origin: req.headers.origin, secFetchSite: req.headers['sec-fetch-site'], path: loggablePath(req.path) }, 'refused a cross-site request');
    next(new AppError('FOREIGN_ORIGIN', FOREIGN_ORIGIN_MESSAGE));
  };
}
