/**
 * `nh_http_request_duration_seconds` for every request the API answers, labelled by the Express route
 * pattern that answered it (`/api/products/:slug`, never the URL), the method and the status.
 *
 * The labels are a fixed set read from the app's own routes (`routeLabels`, walked once when the first
 * answer is counted): each route's full pattern (its routers' mount paths and its own path) and, for
 * requests no route took, `<mount>/*` of each mount path (a static folder such as `/api/public/*`, a
 * guard's refusal under `/api/admin/*`), and `(unmatched)` for the rest (unknown paths, the SPA's
 * files, errors of the app-level middleware). Nothing a request sends becomes a label: Express matches
 * paths without regard to case, so the request's own text (`/aPi/AdMiN/...`) only picks an entry of the
 * set, and text that picks none (a mount path with a parameter, a router built at request time such as
 * the queue dashboard's) counts under the nearest mount around it.
 *
 * Which route answered is the router's `req.route` (the route object it dispatched to), whose label the
 * walk recorded: nothing is stored per request, and the label holds even when the mount path is gone
 * by the time the answer is sent (a route that threw is answered by the app's error handler, outside
 * its router). A route object the walk met under two mount paths is told apart by the request's mount
 * path when it is answered.
 */
import type { Express, Request } from 'express';
import { httpRequestDuration } from '@nh/server/observability/metrics';
import type { AnswerHook } from './when-answered';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
export const UNMATCHED = '(unmatched)';

const patternOf = (path: unknown): string =>
  typeof path === 'string' ? path : Array.isArray(path) ? path.map(String).join('|') : String(path);
/** A route's label under its mount: the mount itself for the mount's `/` route. */
const underMount = (base: string, pattern: string) => (base && pattern === '/' ? base : `${base}${pattern}`);

/** The parts of an Express 5 (router 2) layer the walk reads (as `api/test/support/routes.ts`). */
interface Layer {
  rawPath?: unknown;
  route?: { path?: unknown };
  handle?: { stack?: Layer[] };
}

/** The fixed set of labels of an app: its routes' full patterns and its mount paths, by lower-case spelling. */
export interface RouteLabels {
  routes: ReadonlyMap<string, string>;
  /** Each route object's label; null for one reached under two mount paths (a router mounted twice). */
  byRoute: WeakMap<object, string | null>;
  /** Mount paths (`key` lower-case), longest first. */
  mounts: ReadonlyArray<{ key: string; path: string }>;
}

/** Every label the app's requests can be counted under, read from its router stack (mounted routers included). */
export function routeLabels(app: Express): RouteLabels {
  const routes = new Map<string, string>();
  const byRoute = new WeakMap<object, string | null>();
  const mounts = new Map<string, string>();
  const walk = (stack: readonly Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const label = underMount(prefix, patternOf(layer.route.path));
        routes.set(label.toLowerCase(), label);
        const seen = byRoute.get(layer.route);
        byRoute.set(layer.route, seen === undefined || seen === label ? label : null);
        continue;
      }
      const paths = Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath ?? '/'];
      for (const path of paths) {
        // A mount path with a regular expression has no label of its own: its requests count under the enclosing mount.
        if (typeof path !== 'string') continue;
        const at = path === '/' ? prefix : `${prefix}${path.replace(/\/+$/, '')}`;
        if (at) mounts.set(at.toLowerCase(), at);
        if (layer.handle?.stack) walk(layer.handle.stack, at);
      }
    }
  };
  walk((app.router as unknown as { stack: Layer[] }).stack, '');
  return { routes, byRoute, mounts: [...mounts].map(([key, path]) => ({ key, path })).sort((a, b) => b.key.length - a.key.length) };
}

/** The label of an answered request: always one of `labels` (see above). */
export function routeLabel(req: Request, labels: RouteLabels): string {
  const taken = req.route as { path?: unknown } | undefined;
  if (taken) {
    const known = labels.byRoute.get(taken) ?? labels.routes.get(underMount(req.baseUrl, patternOf(taken.path)).toLowerCase());
    if (known) return known;
  }
  const spelt = req.baseUrl.toLowerCase();
  const mount = labels.mounts.find(({ key }) => spelt === key || spelt.startsWith(`${key}/`));
  return mount ? `${mount.path}/*` : UNMATCHED;
}

/** Counts each answered request in `nh_http_request_duration_seconds` (`whenAnswered` runs it). */
export function httpMetrics(app: Express): AnswerHook {
  // Read once the app is assembled: its first answer comes after every route is in place.
  let labels: RouteLabels | null = null;
  return (req, res, ms) => {
    labels ??= routeLabels(app);
    httpRequestDuration.observe(
      { route: routeLabel(req, labels), method: METHODS.has(req.method) ? req.method : 'OTHER', status: String(res.statusCode) },
      ms / 1e3,
    );
  };
}
