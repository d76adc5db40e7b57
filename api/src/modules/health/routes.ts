import { Router } from 'express';
import { dependencyChecks, type HealthAnswer } from '@nh/server/observability/metrics';
import type { AppContext } from '../../lib/context';

/** The process's state as readiness sees it: set `draining` when shutting down (main.ts), before the server closes. */
export interface Lifecycle {
  draining: boolean;
}

const READY_TIMEOUT_MS = 2000;

/** Ready: not draining, and PostgreSQL and Redis answer within 2 s. The public /readyz and the METRICS_PORT listener's. */
export function readiness(ctx: Pick<AppContext, 'db' | 'redis'>, lifecycle: Lifecycle): () => Promise<HealthAnswer> {
  return async () => {
    const checks = await dependencyChecks(ctx.db, ctx.redis, READY_TIMEOUT_MS);
    const { postgres, redis } = checks;
    const ready = !lifecycle.draining && postgres === 'ok' && redis === 'ok';
    return { ok: ready, body: { status: lifecycle.draining ? 'draining' : ready ? 'ready' : 'not ready', checks } };
  };
}

export function healthRoutes(ctx: AppContext, { lifecycle }: { lifecycle: Lifecycle }): Router {
  const router = Router();
  const ready = readiness(ctx, lifecycle);
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const { ok, body } = await ready();
    res.status(ok ? 200 : 503).json(body);
  });
  return router;
}
