import { Router } from 'express';
import { dependencyChecks, type HealthAnswer } from '@nh/server/observability/metrics';
import type { AppContext } from '../../lib/context';

/** The process's state as readiness sees it: set `draining` when shutting down (main.ts), before the server closes. */
export interface Lifecycle {
  draining: boolean;
}

const READY_TIMEOUT_MS = 2000;

/**
 * Ready: not draining, and PostgreSQL answers within 2 s. The public /readyz and the METRICS_PORT
 * listener's. Redis is checked and reported (`checks.redis`, status `degraded`) but does not decide:
 * what the API does with Redis fails open (the rate limits and the card-testing guard let requests
 * through; the outbox, not Redis, carries the jobs), so a Redis blink taking every API out of the load
 * balancer would turn a degraded shop into a closed one (docs/decisions/production-safety.md).
 */
export function readiness(ctx: Pick<AppContext, 'db' | 'redis'>, lifecycle: Lifecycle): () => Promise<HealthAnswer> {
  return async () => {
    const checks = await dependencyChecks(ctx.db, ctx.redis, READY_TIMEOUT_MS);
    const ready = !lifecycle.draining && checks.postgres === 'ok';
    const status = lifecycle.draining ? 'draining' : !ready ? 'not ready' : checks.redis === 'ok' ? 'ready' : 'degraded';
    return { ok: ready, body: { status, checks } };
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
