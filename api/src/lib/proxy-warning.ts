import type { Request, RequestHandler } from 'express';
import type { Logger } from '@nh/server/observability/logger';

/**
 * Behind a proxy without TRUST_PROXY every shopper arrives from the proxy's address, so the abuse
 * limits (which count per client address) would lock everyone out together. In production the first
 * request that carries X-Forwarded-For while TRUST_PROXY is off logs a warning, once per process.
 */
export function untrustedProxyWarning(log: Logger, enabled: boolean): RequestHandler {
  let warned = !enabled;
  return (req, _res, next) => {
    if (!warned && req.headers['x-forwarded-for'] !== undefined) {
      warned = true;
      log.warn(
        { remoteAddress: req.socket.remoteAddress },
        'requests arrive through a proxy (X-Forwarded-For) but TRUST_PROXY is off: every shopper shares the proxy address for rate limits and sign-in lockouts; set TRUST_PROXY=true behind a trusted proxy',
      );
    }
    next();
  };
}

/** Whether the browser's connection was https: TLS to this process, or a proxy's `X-Forwarded-Proto: https` (its first value). */
export function cameOverHttps(req: Request): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = req.headers['x-forwarded-proto'];
  return (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/**
 * In production cookies are Secure, and the shopper's session cookie is not set at all on a request
 * that did not come over https (express-session), so sign-in would not stick: the first API request of a
 * process that came over plain HTTP (no `X-Forwarded-Proto: https` from the proxy) logs a warning.
 */
export function plainHttpWarning(log: Logger, enabled: boolean): RequestHandler {
  let warned = !enabled;
  return (req, _res, next) => {
    if (!warned && !cameOverHttps(req)) {
      warned = true;
      log.warn(
        { remoteAddress: req.socket.remoteAddress },
        'a request arrived over plain HTTP (no X-Forwarded-Proto: https): in production cookies are Secure, so no session cookie is set on it and sign-in will not stick; serve the shop over https and have the proxy send X-Forwarded-Proto',
      );
    }
    next();
  };
}
