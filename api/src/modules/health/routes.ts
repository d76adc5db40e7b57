import { Router } from 'express';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms))]);

export function healthRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [postgres, redis] = await Promise.allSettled([
      withTimeout(ctx.db.execute(sql`select 1`), 2000),
      withTimeout(ctx.redis.ping(), 2000),
    ]);
    const checks = { postgres: postgres.status === 'fulfilled' ? 'ok' : 'down', redis: redis.status === 'fulfilled' ? 'ok' : 'down' };
    const ready = checks.postgres === 'ok' && checks.redis === 'ok';
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks });
  });
  return router;
}
