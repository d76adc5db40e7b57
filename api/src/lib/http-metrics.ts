/**
 * `nh_http_request_duration_seconds` for every request the API answers, labelled by the Express route
 * pattern that answered it (`/api/products/:slug`, never the URL, so the number of series stays fixed),
 * the method and the status.
 *
 * The pattern is its router's mount path and the route's own path, taken when the router picks the
 * route (a setter of `req.route` on the app's request prototype, installed once, as the request
 * logger's `req.log`): by the time the answer is sent the mount path may be gone (a route that threw is
 * answered by the app's error handler, outside its router). A request no route took is labelled by the
 * mount it was answered under, `<mount>/*` (a static folder such as `/api/public/*`, a guard's
 * refusal), or `(unmatched)` (unknown paths, the SPA's files, errors of the app-level middleware).
 */
import type { Express, Request, RequestHandler } from 'express';
import { httpRequestDuration } from '@nh/server/metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const route = Symbol('route');
const routeBase = Symbol('routeBase');
type RoutedRequest = Request & { [route]?: { path?: unknown }; [routeBase]?: string };

const patternOf = (path: unknown): string => (typeof path === 'string' ? path : Array.isArray(path) ? path.map(String).join('|') : String(path));

/** The label of an answered request (see above). */
export function routeLabel(req: Request): string {
  const r = req as RoutedRequest;
  const taken = r[route];
  if (taken) {
    const base = r[routeBase] ?? '';
    const pattern = patternOf(taken.path);
    return base && pattern === '/' ? base : `${base}${pattern}`;
  }
  return req.baseUrl ? `${req.baseUrl}/*` : '(unmatched)';
}

export function httpMetrics(app: Express): RequestHandler {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    get(this: RoutedRequest) {
      return this[route];
    },
    set(this: RoutedRequest, value: { path?: unknown } | undefined) {
      this[route] = value;
      this[routeBase] = this.baseUrl;
    },
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      httpRequestDuration.observe({ route: routeLabel(req), method: METHODS.has(req.method) ? req.method : 'OTHER', status: String(res.statusCode) }, seconds);
    });
    next();
  };
}
