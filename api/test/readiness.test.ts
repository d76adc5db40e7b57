/**
 * The API's readiness with Redis gone (issue 24): what the API does with Redis fails open (rate limits,
 * the card-testing guard), so readiness stays 200 and says `degraded`; PostgreSQL gone or draining is 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@nh/server/db/client';
import { createRedis, type Redis } from '@nh/server/runtime/redis';
import { readiness } from '../src/modules/health/routes';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
let deadRedis: Redis;
beforeAll(async () => {
  api = await startTestApi();
  // A real client to a port nobody listens on: what the API sees while Redis restarts.
  deadRedis = createRedis('redis://127.0.0.1:1', 'client', { retryStrategy: () => null, lazyConnect: true });
  deadRedis.on('error', () => {});
});
afterAll(async () => {
  deadRedis?.disconnect();
  await api?.close();
});

describe('API readiness', () => {
  it('PostgreSQL and Redis answer: ready', async () => {
    expect(await readiness(api.ctx, { draining: false })()).toEqual({ ok: true, body: { status: 'ready', checks: { postgres: 'ok', redis: 'ok' } } });
  });

  it('Redis does not answer: still ready (degraded), since the limits fail open', async () => {
    const answer = await readiness({ db: api.ctx.db, redis: deadRedis }, { draining: false })();
    expect(answer).toEqual({ ok: true, body: { status: 'degraded', checks: { postgres: 'ok', redis: 'down' } } });
  });

  it('PostgreSQL does not answer: not ready', async () => {
    const deadDb = createDb({ url: 'postgres://postgres@127.0.0.1:1/nurture_home', max: 1 });
    try {
      const answer = await readiness({ db: deadDb, redis: api.ctx.redis }, { draining: false })();
      expect(answer).toEqual({ ok: false, body: { status: 'not ready', checks: { postgres: 'down', redis: 'ok' } } });
    } finally {
      await deadDb.$client.end();
    }
  });

  it('draining: not ready, whatever the dependencies say', async () => {
    const answer = await readiness({ db: api.ctx.db, redis: deadRedis }, { draining: true })();
    expect(answer.ok).toBe(false);
    expect(answer.body.status).toBe('draining');
  });
});
