import type { Express } from 'express';

export interface AppRoute {
  /** Upper-case HTTP method. */
  method: string;
  /** Full path as registered, e.g. `/api/products/:id`. */
  path: string;
}

/** The parts of an Express 5 (router 2) layer this walk reads. */
interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/**
 * Every route of the app, read from its router stack (mounted routers included), so a test iterating
 * them covers a route added later. Routes registered with a RegExp or a path array are skipped.
 */
export function listRoutes(app: Express): AppRoute[] {
  const routes: AppRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        if (typeof layer.route.path !== 'string') continue;
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: join(prefix, layer.route.path) });
        }
      } else if (layer.handle?.stack && typeof layer.rawPath === 'string') {
        walk(layer.handle.stack, join(prefix, layer.rawPath));
      }
    }
  };
  walk((app.router as unknown as { stack: Layer[] }).stack, '');
  return routes;
}

const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`);

/** The `:name` parameters of a route path. */
export const pathParams = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/** The path with each `:name` replaced by `value(name)` (URL-encoded). */
export const fillPath = (path: string, value: (name: string) => string): string =>
  path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(value(name)));
