/**
 * GET /metrics on the public port, for a Prometheus that can only reach that port: answered only with
 * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise). Without METRICS_TOKEN it is not there at all:
 * the answer of any unknown API route (404 ROUTE_NOT_FOUND), never the SPA's page. The METRICS_PORT
 * listener (main.ts) serves the same registry without a token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { Registry } from '@nh/server/observability/metrics';
import { AppError, notFoundApi } from '../../lib/errors';

export const METRICS_TOKEN_MESSAGE = 'The metrics need the bearer token set in METRICS_TOKEN.';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function metricsRoutes({ token, registry }: { token: string | undefined; registry: Registry }): Router {
  const router = Router();
  if (!token) {
    router.get('/metrics', notFoundApi);
    return router;
  }
  const expected = digest(`Bearer ${token}`);
  router.get('/metrics', async (req, res, next) => {
    const given = req.headers.authorization;
    if (!given || !timingSafeEqual(digest(given), expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      next(new AppError('METRICS_TOKEN_REQUIRED', METRICS_TOKEN_MESSAGE));
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
