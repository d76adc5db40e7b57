import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import type { ApiConfig } from './config';

/** The value of cookie `name` in the request's Cookie header (no cookie parser is mounted), or null. */
export function cookieOf(req: Pick<IncomingMessage, 'headers'>, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * Whether a cookie the API sets carries `Secure`: always in production at an https SHOP_SITE_URL,
 * whatever TRUST_PROXY says (the shop is served over https there, by a TLS-terminating proxy: the API
 * itself speaks only HTTP); elsewhere when the request came over https (`req.secure`).
 * docs/decisions/production-safety.md, "Secure cookies".
 */
export const secureCookies = (config: Pick<ApiConfig, 'alwaysSecureCookies'>, req: Request): boolean => config.alwaysSecureCookies || req.secure;
