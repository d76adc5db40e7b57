/**
 * A worker runtime on a real 3-node Redis Cluster (issue 24; docs/decisions/scale-out.md, "Redis
 * Cluster"): BullMQ under a hash-tagged QUEUE_PREFIX, the job schedulers, the renewals' start-up sweep
 * and its marker, an outbox row relayed to a job that runs, readiness and the queue metrics; every key
 * in the prefix's one slot. Without the hash tag the worker refuses to start.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { recordOutbox } from '@nh/server/queries/outbox';
import { hashTagOf } from '@nh/server/runtime/env';
import { createRedis, isCluster, type Cluster } from '@nh/server/runtime/redis';
import { startRedisCluster, type TestRedisCluster } from '@nh/server/testing/redis-cluster';
import { loadWorkerConfig } from '../src/lib/config';
import { lastSweepAt } from '../src/renewals/sweep';
import type { WorkerRuntime } from '../src/runtime';
import { createTestDatabase, startTestWorkers, testWorkerConfig, testWorkerEnv, waitFor, type TestDatabase } from './support/setup';

let cluster: TestRedisCluster;
let tdb: TestDatabase;
let runtime: WorkerRuntime;
let redis: Cluster;

beforeAll(async () => {
  [cluster, tdb] = await Promise.all([startRedisCluster(), createTestDatabase('cluster')]);
  const config = testWorkerConfig(tdb.url, 'cluster', {
    ...cluster.env,
    QUEUE_PREFIX: `{${inject('queuePrefix')}-cluster}`,
    WORKER_QUEUES: 'emails,renewals',
    METRICS_PORT: '0',
  });
  runtime = await startTestWorkers(config);
  const client = createRedis(config);
  if (!isCluster(client)) throw new Error('createRedis did not make a cluster client');
  redis = client;
  await redis.ping();
}, 60_000);
afterAll(async () => {
  await runtime?.close(2000);
  redis?.disconnect();
  await cluster?.stop();
  await tdb?.drop();
});

describe('workers on a Redis Cluster', () => {
  it("registers the schedules and runs the renewals' start-up sweep, which leaves its marker", async () => {
    expect(await runtime.queues.renewals.getJobSchedulers()).toEqual([expect.objectContaining({ key: 'renewals-daily' })]);
    expect(await lastSweepAt({ queue: runtime.queues.renewals, redis })).toBeInstanceOf(Date);
  });

  it('relays an outbox row to its job, which a worker runs', async () => {
    const subscriberId = await tdb.db.transaction(async (tx) => {
      const [sub] = await tx.insert(tables.newsletterSubscribers).values({ email: 'cluster.reader@example.com' }).returning();
      await recordOutbox(tx, 'newsletter.subscribed', { subscriberId: sub!.id, email: 'cluster.reader@example.com' });
      return sub!.id;
    });
    const sent = await waitFor(
      async () =>
        (
          await tdb.db
            .select()
            .from(tables.emailLog)
            .where(and(eq(tables.emailLog.kind, 'newsletter-welcome'), eq(tables.emailLog.subjectId, String(subscriberId))))
        ).find((row) => row.status === 'sent'),
      15_000,
      'the welcome email sent',
    );
    expect(sent.toAddress).toBe('cluster.reader@example.com');
    expect(await runtime.queues.emails.getJobCounts('completed')).toMatchObject({ completed: 1 });
  });

  it('is ready (Redis and the sweep included) and reports its queues', async () => {
    const base = `http://127.0.0.1:${runtime.metrics!.port}`;
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { postgres: 'ok', redis: 'ok', consumers: 'ok' } });
    expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/queue="emails"/);
  });

  it("keeps every key of the queues in the slot of QUEUE_PREFIX's hash tag", async () => {
    const keys: string[] = [];
    for (const node of redis.nodes('master')) keys.push(...(await node.keys('*')));
    expect(keys.length).toBeGreaterThan(5);
    const slot = await redis.cluster('KEYSLOT', hashTagOf(runtime.config.QUEUE_PREFIX)!);
    expect(new Set(await Promise.all(keys.map((key) => redis.cluster('KEYSLOT', key))))).toEqual(new Set([slot]));
  });

  it('refuses to start with REDIS_CLUSTER_NODES and a prefix without a hash tag', () => {
    expect(() => loadWorkerConfig(testWorkerEnv(tdb.url, 'cluster', { ...cluster.env, QUEUE_PREFIX: 'nh' }))).toThrow(/QUEUE_PREFIX: must carry a hash tag when REDIS_CLUSTER_NODES is set \(e\.g\. \{nh\}\)/);
  });
});
