import type { RequestHandler } from 'express';
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
