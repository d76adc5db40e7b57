/** The worker's liveness file for the container health check, against a real worker runtime. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@nh/server/observability/logger';
import { createDb } from '@nh/server/db/client';
import { createRedis } from '@nh/server/runtime/redis';
import { heartbeatFresh, runtimeHealthy, startHeartbeat } from '../src/heartbeat';
import { workerHealth } from '../src/health';
import type { WorkerRuntime } from '../src/runtime';
import { createTestDatabase, startTestWorkers, tempDir, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let runtime: WorkerRuntime;
const log = createLogger('heartbeat-test', 'silent');

beforeAll(async () => {
  tdb = await createTestDatabase('beat');
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'beat', { WORKER_QUEUES: 'maintenance', RELAY_ENABLED: 'false' }));
});
afterAll(async () => {
  await runtime?.close(1000);
  await tdb?.drop();
});

describe('worker liveness without PostgreSQL', () => {
  it('stays alive (no restart storm) while PostgreSQL is gone; readiness says not ready', async () => {
    const deadDb = createDb({ url: 'postgres://postgres@127.0.0.1:1/nurture_home', max: 1 });
    const redis = createRedis(runtime.config.REDIS_URL);
    try {
      expect(await runtimeHealthy(runtime)).toBe(true);
      const health = workerHealth({ db: deadDb, redis, workers: runtime.workers, renewals: null, closing: () => false });
      expect(await health.live()).toEqual({ ok: true, body: { status: 'ok' } });
      const ready = await health.ready();
      expect(ready.ok).toBe(false);
      expect(ready.body).toMatchObject({ status: 'not ready', checks: { postgres: 'down', redis: 'ok' } });
    } finally {
      redis.disconnect();
      await deadDb.$client.end();
    }
  });
});

describe('worker heartbeat', () => {
  it('is written while the consumers run; the check reads its age', async () => {
    const file = path.join(tempDir('beat'), 'heartbeat');
    expect(await heartbeatFresh(file, 1000)).toBe(false);
    const stop = startHeartbeat({ file, intervalMs: 50, healthy: () => runtimeHealthy(runtime), log });
    try {
      await waitFor(() => heartbeatFresh(file, 1000), 5000, 'heartbeat written');
    } finally {
      stop();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const written = Number(fs.readFileSync(file, 'utf8'));
    expect(await heartbeatFresh(file, 1000, written + 999)).toBe(true);
    expect(await heartbeatFresh(file, 1000, written + 1001)).toBe(false);
  });

  it('stops being written when the process is unhealthy (consumers closed), so the check fails', async () => {
    const file = path.join(tempDir('beat'), 'heartbeat');
    expect(await runtimeHealthy(runtime)).toBe(true);
    await runtime.close(1000);
    expect(await runtimeHealthy(runtime)).toBe(false);
    const stop = startHeartbeat({ file, intervalMs: 50, healthy: () => runtimeHealthy(runtime), log });
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop();
    expect(fs.existsSync(file)).toBe(false);
  });
});
