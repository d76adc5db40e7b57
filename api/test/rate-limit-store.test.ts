/**
 * The abuse limits' Redis store (api/src/lib/rate-limit.ts) loads its scripts when a limiter is made.
 * An API started while Redis was away used to keep that failed load for good: every limit stayed open
 * until a restart. Now the load answers the script's SHA1 whatever happens, and a NOSCRIPT loads it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivateRedis } from '../../workers/test/support/redis-server';
import { startTestApi, type TestApi } from './support/harness';
import { freePort } from '@nh/server/testing/free-port';


let redis: PrivateRedis;
let api: TestApi;
beforeAll(async () => {
  redis = new PrivateRedis(await freePort());
  api = await startTestApi({ REDIS_URL: redis.url, LOGIN_ADDRESS_FAILURES_PER_15_MIN: '2' });
});
afterAll(async () => {
  await api?.close();
  await redis?.stop();
});

describe('the rate-limit store', () => {
  it('counts once Redis is back, for limiters made while it was away', async () => {
    // The limiters' script loads fail (one retry each) while nothing listens.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await redis.start();
    await expect.poll(() => api.ctx.redis.ping().catch(() => null), { timeout: 10_000 }).toBe('PONG');
    const login = (email: string) => api.request('/api/login', { body: { email, password: 'wrong password' } });
    expect((await login('nobody.1@example.com')).status).toBe(401);
    expect((await login('nobody.2@example.com')).status).toBe(401);
    expect((await login('nobody.3@example.com')).status).toBe(429);
  });
});
