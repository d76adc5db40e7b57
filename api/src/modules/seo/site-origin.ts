import type { Request } from 'express';
import type { ApiConfig } from '../../lib/config';

/**
 * The shop's address for absolute URLs (canonical links, og:url, JSON-LD, the sitemap, robots.txt):
 * SHOP_SITE_URL's origin, which production requires. Never the request's `Host` header: a request
 * naming another host would get pages (kept by any cache in front of the shop for everyone) whose
 * canonical and structured data point there. Outside production, without SHOP_SITE_URL, the address
 * the connection reached on this server (development, tests).
 */
export const siteOrigin = (config: Pick<ApiConfig, 'SHOP_SITE_URL'>, req: Request): string =>
  config.SHOP_SITE_URL ? new URL(config.SHOP_SITE_URL).origin : localOrigin(req);

/** `http://<address>:<port>` of this server as the request's connection reached it (from the socket, never a header). */
export function localOrigin(req: Request): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  // An IPv4 client of a dual-stack listener arrives on an IPv4-mapped address (::ffff:127.0.0.1).
  const host = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${req.socket.localPort}`;
}

/**
 * An absolute URL of a page of the shop: the origin, then the path with its slashes normalised. Never
 * `new URL(path, origin)`: a path such as `//evil.example/x` (or `/\evil.example/x`) is a URL of its own
 * there, on another host.
 */
export function pageUrl(origin: string, path: string): string {
  return `${origin}/${path
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/^\//, '')}`;
}
