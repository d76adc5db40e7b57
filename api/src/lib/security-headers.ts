import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet, { contentSecurityPolicy, type HelmetOptions } from 'helmet';

type HeaderMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Helmet's headers depend only on its options, never on the request, so they are computed once at
 * start-up and then set from a list: the same headers at a fraction of the per-request cost.
 */
function precomputed(middleware: HeaderMiddleware): RequestHandler {
  const headers: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
    getHeader: () => undefined,
  } as unknown as ServerResponse;
  middleware({} as IncomingMessage, recorder, () => {});
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

/** The shop's security headers (helmet with `options`). */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  return precomputed(helmet(options));
}

/**
 * A Content-Security-Policy for pages that load everything from the shop itself and nothing inline
 * (the queue dashboard): scripts, styles, fonts, images and calls from 'self' only, no frames, no
 * plugins. Set after the shop-wide headers, it replaces their policy on those paths (the shop-wide one
 * allows the payment provider's script and helmet's default `https:` for styles and fonts).
 */
export function selfOnlyContentSecurityPolicy({ upgradeInsecureRequests }: { upgradeInsecureRequests: boolean }): RequestHandler {
  return precomputed(
    contentSecurityPolicy({
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'connect-src': ["'self'"],
        'font-src': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'frame-src': ["'none'"],
        'img-src': ["'self'", 'data:'],
        'object-src': ["'none'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'"],
        ...(upgradeInsecureRequests ? { 'upgrade-insecure-requests': [] } : {}),
      },
    }),
  );
}
