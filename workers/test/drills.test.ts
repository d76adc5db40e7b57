/**
 * Reliability drills: a worker process killed in the middle of a sync, Redis stopped while orders are
 * placed, and NetSuite failing until staff retry through the admin API.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { netsuiteExternalIds } from '../src/erp-sync/netsuite/client';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs } from '../../api/test/support/staff';
import { startNetSuiteStub, type NetSuiteStub } from './support/netsuite-stub';
import { startPrivateRedis } from './support/redis-server';
import { loadWorkerConfig } from '../src/lib/config';
import type { WorkerRuntime } from '../src/runtime';
import { createTestDatabase, placeOrder, processExited, purgeQueuePrefix, sleep, spawnWorkerProcess, startTestWorkers, testWorkerConfig, testWorkerEnv, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let stub: NetSuiteStub;

const orderRow = async (id: string) => (await tdb.db.select().from(tables.orders).where(eq(tables.orders.id, id)))[0]!;
const statusOf = async (id: string) => (await orderRow(id)).netsuiteSyncStatus;

beforeAll(async () => {
  tdb = await createTestDatabase('drill');
  stub = await startNetSuiteStub();
});
afterAll(async () => {
  await stub?.close();
  await tdb?.drop();
});

describe('reliability drills', () => {
  it('a worker killed (SIGKILL) in the middle of a sync: the order still ends synced, with one sales order', async () => {
    const env = testWorkerEnv(tdb.url, 'kill', { ...stub.env(), WORKER_QUEUES: 'erp-sync', LOG_LEVEL: 'silent' });
    stub.salesOrderDelayMs = 2500;
    const startedBefore = stub.salesOrderWritesStarted;
    let first: ChildProcess | null = spawnWorkerProcess(env);
    let second: ChildProcess | null = null;
    try {
      const orderId = await placeOrder(tdb.db, { customerEmail: 'killed@example.com' });
      await waitFor(() => stub.salesOrderWritesStarted > startedBefore, 20_000, 'the sales-order upsert to be in flight');
      first.kill('SIGKILL');
      await processExited(first);
      first = null;
      expect(await statusOf(orderId)).toBe('pending');
      stub.salesOrderDelayMs = 0;
      second = spawnWorkerProcess(env);
      await waitFor(async () => (await statusOf(orderId)) === 'synced', 30_000, 'synced after restart');
      expect(stub.salesOrderCount(netsuiteExternalIds.salesOrder(orderId))).toBe(1);
      expect((await orderRow(orderId)).netsuiteOrderId).toBe(stub.find('salesOrder', netsuiteExternalIds.salesOrder(orderId))!.id);
      // A graceful stop: SIGTERM drains and exits with 0.
      second.kill('SIGTERM');
      await processExited(second);
      expect(second.exitCode).toBe(0);
      second = null;
    } finally {
      stub.salesOrderDelayMs = 0;
      first?.kill('SIGKILL');
      second?.kill('SIGKILL');
      await purgeQueuePrefix(env.REDIS_URL!, env.QUEUE_PREFIX!);
    }
  }, 90_000);

  it('a worker killed (SIGKILL) while it holds every global sync slot: another worker resumes syncing within 10 s, each order one sales order', async () => {
    // The erp-sync lock settings are the defaults: this is what production does.
    const env = testWorkerEnv(tdb.url, 'crash', { ...stub.env(), WORKER_QUEUES: 'erp-sync', LOG_LEVEL: 'silent' });
    const config = loadWorkerConfig(env);
    // The killed worker's requests stay "in flight" at the stub until their sockets close; no 429s here.
    const { concurrencyLimit } = stub;
    stub.concurrencyLimit = 100;
    stub.salesOrderDelayMs = 8000;
    const startedBefore = stub.salesOrderWritesStarted;
    let killed: ChildProcess | null = spawnWorkerProcess(env);
    let survivor: WorkerRuntime | null = null;
    try {
      const held: string[] = [];
      for (let i = 0; i < config.ERP_SYNC_CONCURRENCY; i++) held.push(await placeOrder(tdb.db, { customerEmail: `held${i}@example.com` }));
      await waitFor(() => stub.salesOrderWritesStarted >= startedBefore + config.ERP_SYNC_CONCURRENCY, 20_000, 'the killed worker to hold every slot');
      // A second worker is running (in this process) while the first holds every global slot.
      survivor = await startTestWorkers(config);
      const waiting = [await placeOrder(tdb.db), await placeOrder(tdb.db)];
      await sleep(300);
      for (const id of [...held, ...waiting]) expect(await statusOf(id)).toBe('pending');

      killed.kill('SIGKILL');
      const killedAt = Date.now();
      await processExited(killed);
      killed = null;
      stub.salesOrderDelayMs = 0;
      const all = [...held, ...waiting];
      const synced = async () => (await Promise.all(all.map(statusOf))).filter((s) => s === 'synced').length;
      await waitFor(async () => (await synced()) > 0, 30_000, 'the first sync after the crash');
      const resumedAfterMs = Date.now() - killedAt;
      await waitFor(async () => (await synced()) === all.length, 30_000, 'every order synced');
      const allSyncedAfterMs = Date.now() - killedAt;
      console.info(`drill: sync resumed ${resumedAfterMs} ms after the SIGKILL; all ${all.length} orders synced after ${allSyncedAfterMs} ms`);
      expect(resumedAfterMs).toBeLessThan(10_000);

      // The killed worker's sales-order upserts still reach NetSuite after it died; the retries upsert
      // the same external ids: one sales order per order, and the order row names it.
      await sleep(8000 - (Date.now() - killedAt));
      for (const id of all) {
        expect(stub.salesOrderCount(netsuiteExternalIds.salesOrder(id))).toBe(1);
        expect((await orderRow(id)).netsuiteOrderId).toBe(stub.find('salesOrder', netsuiteExternalIds.salesOrder(id))!.id);
      }
    } finally {
      stub.salesOrderDelayMs = 0;
      stub.concurrencyLimit = concurrencyLimit;
      killed?.kill('SIGKILL');
      await survivor?.close(1000);
      await purgeQueuePrefix(env.REDIS_URL!, env.QUEUE_PREFIX!);
    }
  }, 90_000);

  it('a healthy sync that takes several times its lock keeps it (renewed): no other worker runs it again', async () => {
    const env = testWorkerEnv(tdb.url, 'longsync', { ...stub.env(), WORKER_QUEUES: 'erp-sync', ERP_SYNC_LOCK_MS: '1000', ERP_SYNC_STALLED_CHECK_MS: '200' });
    const runtimes = [await startTestWorkers(loadWorkerConfig(env)), await startTestWorkers(loadWorkerConfig(env))];
    stub.salesOrderDelayMs = 4000;
    try {
      const orderId = await placeOrder(tdb.db);
      await waitFor(async () => (await statusOf(orderId)) === 'synced', 20_000, 'the slow sync');
      const externalId = netsuiteExternalIds.salesOrder(orderId);
      expect(stub.requests.filter((r) => r.method === 'PUT' && r.path.includes('/salesOrder/') && r.path.includes(externalId))).toHaveLength(1);
    } finally {
      stub.salesOrderDelayMs = 0;
      for (const runtime of runtimes) await runtime.close(1000);
    }
  }, 60_000);

  it('SIGTERM-style close lets a running sync finish within the grace period', async () => {
    const runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'drain', { ...stub.env(), WORKER_QUEUES: 'erp-sync' }));
    stub.salesOrderDelayMs = 1000;
    try {
      const startedBefore = stub.salesOrderWritesStarted;
      const orderId = await placeOrder(tdb.db);
      await waitFor(() => stub.salesOrderWritesStarted > startedBefore, 15_000, 'sync in flight');
      await runtime.close(10_000);
      expect(await statusOf(orderId)).toBe('synced');
    } finally {
      stub.salesOrderDelayMs = 0;
      await runtime.close();
    }
  }, 60_000);

  it('Redis stopped while orders are placed: every order is synced after Redis returns', async () => {
    const redis = await startPrivateRedis();
    const runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'redisdown', { ...stub.env(), REDIS_URL: redis.url, WORKER_QUEUES: 'erp-sync' }));
    try {
      const before = await placeOrder(tdb.db);
      await waitFor(async () => (await statusOf(before)) === 'synced', 15_000, 'sanity sync');
      await redis.stop();
      const placed = [];
      for (let i = 0; i < 5; i++) placed.push(await placeOrder(tdb.db));
      await sleep(1500);
      for (const id of placed) expect(await statusOf(id)).toBe('pending');
      await redis.start();
      for (const id of placed) await waitFor(async () => (await statusOf(id)) === 'synced', 30_000, `order ${id} synced after Redis returned`);
      for (const id of placed) expect(stub.salesOrderCount(netsuiteExternalIds.salesOrder(id))).toBe(1);
    } finally {
      await runtime.close(1000);
      await redis.stop();
    }
  }, 90_000);

  it('NetSuite failing always: failed row and status; once it recovers, an admin retry syncs the order', async () => {
    const config = testWorkerConfig(tdb.url, 'retry', { ...stub.env(), WORKER_QUEUES: 'erp-sync', ERP_SYNC_ATTEMPTS: '3' });
    const runtime = await startTestWorkers(config);
    const api: TestApi = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX });
    try {
      stub.failNext(1000, 503);
      const a = await placeOrder(tdb.db);
      const b = await placeOrder(tdb.db);
      for (const id of [a, b]) await waitFor(async () => (await statusOf(id)) === 'failed', 20_000, 'failed');
      const [failed] = await tdb.db.select().from(tables.failedSyncOrders).where(eq(tables.failedSyncOrders.orderId, a));
      expect(failed).toMatchObject({ attempts: 3, errorMessage: expect.stringContaining('NetSuite 503') });
      const manager = await signInAs(api, 'manager');
      const list = (await (await manager.request('/api/admin/sync/failed', { body: { storeCode: 'NH' } })).json()) as { failed: Array<{ orderId: string }> };
      expect(list.failed.map((f) => f.orderId).sort()).toEqual([a, b].sort());

      stub.failNext(0);
      const retry = await manager.request(`/api/admin/sync/orders/${a}/retry`, { body: { storeCode: 'NH' } });
      expect(retry.status).toBe(202);
      await waitFor(async () => (await statusOf(a)) === 'synced', 20_000, 'synced after retry');
      expect(await tdb.db.select().from(tables.failedSyncOrders).where(eq(tables.failedSyncOrders.orderId, a))).toEqual([]);
      expect(stub.salesOrderCount(netsuiteExternalIds.salesOrder(a))).toBe(1);

      const all = await manager.request('/api/admin/sync/retry-failed', { body: { storeCode: 'NH' } });
      expect(await all.json()).toEqual({ retried: 1 });
      await waitFor(async () => (await statusOf(b)) === 'synced', 20_000, 'b synced after retry-all');
      const summary = await (await manager.request('/api/admin/sync/summary', { body: { storeCode: 'NH' } })).json();
      expect(summary).toMatchObject({ counts: { failed: 0 }, failedSyncRows: 0 });
    } finally {
      stub.failNext(0);
      await api.close();
      await runtime.close(1000);
    }
  }, 90_000);
});
