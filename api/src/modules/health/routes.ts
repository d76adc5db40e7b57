import { Router } from 'express';
import { sql } from 'drizzle-orm';
import { withinTimeout, type HealthAnswer } from '@nh/server/metrics';
import type { AppContext } from '../../context';

/** The process's state as readiness sees it: set `draining` when shutting down (main.ts), before the server closes. */
export interface Lifecycle {
  draining: boolean;
}

const READY_TIMEOUT_MS = 2000;

const answered = async (check: () => Promise<unknown>): Promise<'ok' | 'down'> =>
  (await withinTimeout(
    () => check().then(() => true),
    READY_TIMEOUT_MS,
    false,
  ))
    ? 'ok'
    : 'down';

/** Ready: not draining, and PostgreSQL and Redis answer within 2 s. The public /readyz and the METRICS_PORT listener's. */
export function readiness(ctx: Pick<AppContext, 'db' | 'redis'>, lifecycle: Lifecycle): () => Promise<HealthAnswer> {
  return async () => {
    const [postgres, redis] = await Promise.all([answered(() => ctx.db.execute(sql`select 1`)), answered(() => ctx.redis.ping())]);
    const checks = { postgres, redis };
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
