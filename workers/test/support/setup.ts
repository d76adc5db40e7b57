/**
 * Test support for the workers: every test file gets a database of its own (migrated and seeded, so a
 * relay in one file never claims another file's outbox rows) and a queue prefix of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import '@nh/server/testing/provided';
import * as tables from '@nh/server/db/schema';
import { createDb, type Db } from '@nh/server/db/client';
import { createLogger, type Logger } from '@nh/server/observability/logger';
import { createRedis, isCluster, type RedisSettings } from '@nh/server/runtime/redis';
import { recordOutbox } from '@nh/server/queries/outbox';
import type { LineItem } from '@nh/server/db/schema';
import { seedDemoCatalogue } from '@nh/server/seed/seed';
import { applyMigrations, dropDatabase, ensureDatabase } from '@nh/server/runtime/database';
import { loadWorkerConfig, type WorkerConfig } from '../../src/lib/config';
import { startWorkerRuntime, type WorkerRuntime, type WorkerRuntimeOverrides } from '../../src/runtime';
import { renewalSweepJob } from '../../src/renewals/sweep';
import type { Job } from 'bullmq';

export interface TestDatabase {
  url: string;
  db: Db;
  drop: () => Promise<void>;
}

/** A fresh database for one test file, named after the run's database. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const base = new URL(inject('databaseUrl'));
  const name = `${base.pathname.slice(1)}_${label}_${randomBytes(2).toString('hex')}`.slice(0, 63);
  base.pathname = `/${name}`;
  const url = base.toString();
  await ensureDatabase(url);
  await applyMigrations(url);
  const db = createDb({ url, max: 5 });
  await seedDemoCatalogue(db);
  return {
    url,
    db,
    drop: async () => {
      removeTempDirs();
      await db.$client.end().catch(() => {});
      if (!process.env.KEEP_TEST_DB) await dropDatabase(url).catch(() => {});
    },
  };
}

const tempDirs: string[] = [];
function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A temporary folder, removed with the file's test database (`drop`). */
export function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `nh-${label}-`));
  tempDirs.push(dir);
  return dir;
}

/** Worker configuration for tests: fast sweeps and retries, silent logs, folders in a temp dir. */
export function testWorkerEnv(databaseUrl: string, label: string, env: Record<string, string> = {}): Record<string, string> {
  const dir = tempDir(label);
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: databaseUrl,
    REDIS_URL: inject('redisUrl'),
    QUEUE_PREFIX: `${inject('queuePrefix')}-${label}-${randomBytes(2).toString('hex')}`,
    MAIL_OUTBOX_DIR: path.join(dir, 'mail'),
    EXPORTS_DIR: path.join(dir, 'exports'),
    CLAIM_PHOTOS_DIR: path.join(dir, 'claim-photos'),
    RELAY_SWEEP_MS: '200',
    ERP_SYNC_BACKOFF_MS: '50',
    ERP_SYNC_BACKOFF_MAX_MS: '300',
    SHUTDOWN_GRACE_MS: '5000',
    // A spawned worker at the test runner's priority: the tests' timings were made for it (WORKER_NICE is tested on its own).
    WORKER_NICE: '0',
    ...env,
  };
}

/**
 * The worker process itself (`workers/src/main.ts`) with `env` over this process's: node --import tsx,
 * not the tsx CLI, so signals reach the worker and its pid is the worker's.
 */
export function spawnWorkerProcess(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.resume();
  return child;
}

/** Resolves once `child` has ended (at once if it has). */
export const processExited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

export function testWorkerConfig(databaseUrl: string, label: string, env: Record<string, string> = {}): WorkerConfig {
  return loadWorkerConfig(testWorkerEnv(databaseUrl, label, env));
}

/** Deletes every Redis key of a test queue prefix (the shared Redis outlives the run); on a cluster, on each master. */
export async function purgeQueuePrefix(target: string | RedisSettings, prefix: string): Promise<void> {
  const redis = createRedis(typeof target === 'string' ? { REDIS_URL: target } : target, 'client', { connectTimeout: 2000 });
  try {
    await redis.ping();
    for (const server of isCluster(redis) ? redis.nodes('master') : [redis]) {
      let cursor = '0';
      do {
        const [next, keys] = await server.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await server.del(...keys);
      } while (cursor !== '0');
    }
  } catch {
    // Best effort: a Redis that is gone holds nothing to purge.
  } finally {
    redis.disconnect();
  }
}

/**
 * A worker runtime whose close also removes its queues' keys; `log` replaces the (silent) logger, e.g. one
 * writing to a stream the test reads; `overrides.tax` a calculator of the test's (rates by state).
 */
export async function startTestWorkers(
  config: WorkerConfig,
  log: Logger = createLogger('workers-test', config.LOG_LEVEL),
  overrides: WorkerRuntimeOverrides = {},
): Promise<WorkerRuntime> {
  const runtime = await startWorkerRuntime(config, log, overrides);
  const close = runtime.close;
  runtime.close = async (graceMs) => {
    await close(graceMs);
    await purgeQueuePrefix(config, config.QUEUE_PREFIX);
  };
  // A fresh queue prefix has no completed sweep, so the renewals worker runs one at start (addMissedSweep).
  // Let it finish before the test makes plans: a plan it found due would be renewed behind the test's back.
  if (config.WORKER_QUEUES.includes('renewals')) await sweepsFinished(runtime);
  return runtime;
}

/** Waits until every renewal-sweep job of the runtime's queue has finished (the schedule's next, delayed one aside); answers them. */
export async function sweepsFinished(rt: WorkerRuntime): Promise<Job[]> {
  return waitFor(async () => {
    const sweeps = (await rt.queues.renewals.getJobs(['waiting', 'active', 'prioritized', 'completed', 'failed'])).filter((j) => j.name === renewalSweepJob.name);
    const states = await Promise.all(sweeps.map((j) => j.getState()));
    return states.every((state) => state === 'completed' || state === 'failed') && sweeps;
  }, 15_000, 'sweeps finished');
}

let orderCounter = 0;

export interface TestOrderInput {
  customerEmail?: string;
  customerName?: string;
  customerPhone?: string | null;
  items?: LineItem[];
  storeCode?: string;
  promoCode?: string | null;
  carrier?: string | null;
  trackingNumber?: string | null;
  /** Record the order.placed outbox row with the order (default true). */
  outbox?: boolean;
}

export const sampleLine = (overrides: Partial<LineItem> = {}): LineItem => ({
  productId: 1,
  productName: 'Flush Probiotic Toilet Cleaner',
  variantSku: 'NH-FLU-24',
  sku: 'NH-FLU-24',
  itemNumber: 'NH1001',
  quantity: 2,
  price: '12.99',
  ...overrides,
});

/** Writes an order as checkout does: the order row and its `order.placed` outbox row in one transaction. */
export async function placeOrder(db: Db, input: TestOrderInput = {}): Promise<string> {
  orderCounter++;
  const items = input.items ?? [sampleLine()];
  const subtotal = items.reduce((sum, line) => sum + Math.round(Number(line.price) * 100) * line.quantity, 0);
  return db.transaction(async (tx) => {
    const [order] = await tx
      .insert(tables.orders)
      .values({
        storeCode: input.storeCode ?? 'NH',
        customerEmail: input.customerEmail ?? `shopper${orderCounter}@example.com`,
        customerName: input.customerName ?? 'Dana Shopper',
        customerPhone: input.customerPhone === undefined ? '555-0100' : input.customerPhone,
        shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
        items,
        subtotal,
        shipping: 999,
        tax: Math.round(subtotal * 0.08),
        total: subtotal + 999 + Math.round(subtotal * 0.08),
        promoCode: input.promoCode ?? null,
        carrier: input.carrier ?? null,
        trackingNumber: input.trackingNumber ?? null,
        // As the checkout leaves an order whose charge was approved.
        status: 'processing',
        paymentTransactionId: `6000${String(orderCounter).padStart(7, '0')}`,
      })
      .returning({ id: tables.orders.id });
    if (input.outbox !== false) await recordOutbox(tx, 'order.placed', { orderId: order!.id });
    return order!.id;
  });
}

import { sleep, waitFor } from '@nh/server/testing/wait-for';

export { sleep, waitFor };

