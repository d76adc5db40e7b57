/**
 * bench:sync — N orders (BENCH_ORDERS, default 2000) through the whole pipeline: outbox rows written in
 * one transaction, relayed to BullMQ, synced by a worker process (real NetSuite client) to the NetSuite
 * test server answering at once. Then, on the same Redis, a bare BullMQ worker with an empty processor
 * works through N jobs. Prints both rates and their ratio (goal ≥ 0.25), and the CPU each process spent
 * per order. The worker runs as production runs it: the esbuild bundle (BENCH_WORKER_RUNTIME=tsx runs
 * the sources); BENCH_WORKERS starts several erp-sync worker processes sharing the same global cap.
 *
 * A second run measures the NetSuite budget: the test server answers after BENCH_NETSUITE_LATENCY_MS
 * (300) and refuses with 429 above BENCH_NETSUITE_LIMIT (5) concurrent requests, as an account of that
 * licence does; BENCH_BUDGET_ORDERS (300) orders from BENCH_BUDGET_CUSTOMERS (20) returning customers,
 * ERP_SYNC_CONCURRENCY set to the limit. Prints orders/s, requests per order, 429s and the ceiling
 * (limit ÷ latency). Goals: ≥ 0.9 of the ceiling in requests/s, 0 × 429, ≤ 1.1 requests per order.
 * BENCH_BUDGET=0 skips it.
 *
 *   npm run bench:sync            BENCH_ORDERS=5000 ERP_SYNC_CONCURRENCY=4 BENCH_WORKERS=2 npm run bench:sync
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Queue, Worker } from 'bullmq';
import { createDb } from '@nh/server/db/client';
import { createRedis } from '@nh/server/runtime/redis';
import { DEFAULT_REDIS_URL } from '@nh/server/runtime/env';
import { OUTBOX_CHANNEL } from '@nh/server/queries/outbox';
import { seedDemoCatalogue } from '@nh/server/seed/seed';
import { startNetSuiteStub } from '../test/support/netsuite-stub';
import { purgeQueuePrefix } from '../test/support/setup';
import { benchDatabase, buildWorkerBundle, CpuMeter, fmt, spawnWorker, stopWorker, workerRuntime } from './support';

const N = Number(process.env.BENCH_ORDERS ?? 2000);
const CONCURRENCY = process.env.ERP_SYNC_CONCURRENCY ?? '4';
/** Worker processes consuming erp-sync (WORKER_QUEUES=erp-sync each); the cap holds across all of them. */
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const RUNTIME = workerRuntime();
const REDIS_URL = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;

const BUDGET = {
  orders: Number(process.env.BENCH_BUDGET_ORDERS ?? 300),
  customers: Number(process.env.BENCH_BUDGET_CUSTOMERS ?? 20),
  latencyMs: Number(process.env.BENCH_NETSUITE_LATENCY_MS ?? 300),
  limit: Number(process.env.BENCH_NETSUITE_LIMIT ?? 5),
};

/** Orders placed with their outbox rows in one transaction (one customer per order, or `customers` repeating). */
async function placeBenchOrders(db: ReturnType<typeof createDb>, n: number, customers?: number): Promise<void> {
  const client = await db.$client.connect();
  try {
    await client.query('begin');
    await client.query(
      `with o as (
         insert into orders (customer_email, customer_name, customer_phone, shipping_address, items, subtotal, shipping, tax, total)
         select 'bench' || (case when $2::int > 0 then g % $2::int else g end) || '@example.com', 'Bench Customer ' || g, '555-0100',
                '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}'::jsonb,
                '[{"productId":1,"productName":"Flush","variantSku":"NH-FLU-24","sku":"NH-FLU-24","itemNumber":"NH1001","quantity":2,"price":"12.99"}]'::jsonb,
                25.98, 9.99, 2.08, 38.05
         from generate_series(1, $1) g returning id)
       insert into outbox (topic, payload) select 'order.placed', jsonb_build_object('orderId', id) from o`,
      [n, customers ?? 0],
    );
    await client.query(`select pg_notify($1, 'order.placed')`, [OUTBOX_CHANNEL]);
    await client.query('commit');
  } finally {
    client.release();
  }
}

/** Waits until `n` orders are synced (throws on a failed one); returns the seconds since `started`. */
async function syncedAll(db: ReturnType<typeof createDb>, n: number, started: number, progress = true): Promise<number> {
  let last = 0;
  for (;;) {
    const { rows } = await db.$client.query<{ synced: number; failed: number }>(
      `select count(*) filter (where netsuite_sync_status = 'synced')::int as synced, count(*) filter (where netsuite_sync_status = 'failed')::int as failed from orders`,
    );
    const { synced, failed } = rows[0]!;
    if (failed > 0) throw new Error(`${failed} orders failed to sync`);
    if (synced >= n) return (performance.now() - started) / 1000;
    if (progress && synced - last >= n / 4) {
      last = synced;
      console.log(`  … ${synced} synced`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The NetSuite budget run: a slow account with a concurrency limit, returning customers. */
async function budgetRun(databaseUrl: string): Promise<void> {
  const db = createDb({ url: databaseUrl, max: 2 });
  await seedDemoCatalogue(db);
  await db.$client.query('truncate orders, outbox, netsuite_failed_syncs, email_log cascade');
  const stub = await startNetSuiteStub({ concurrencyLimit: BUDGET.limit, delayMs: BUDGET.latencyMs });
  const prefix = `nhbench-budget-${randomBytes(3).toString('hex')}`;
  const env = { ...stub.env(), DATABASE_URL: databaseUrl, REDIS_URL, QUEUE_PREFIX: prefix, WORKER_QUEUES: 'erp-sync', ERP_SYNC_CONCURRENCY: String(BUDGET.limit), MAIL_OUTBOX_DIR: '/tmp/nh-bench-mail' };
  const worker = await spawnWorker(env, RUNTIME);
  try {
    const started = performance.now();
    await placeBenchOrders(db, BUDGET.orders, BUDGET.customers);
    const seconds = await syncedAll(db, BUDGET.orders, started, false);
    const requests = stub.requests.length;
    const ceiling = BUDGET.limit / (BUDGET.latencyMs / 1000);
    const perSecond = requests / seconds;
    const perOrder = requests / BUDGET.orders;
    console.log(
      `NetSuite budget (latency ${BUDGET.latencyMs} ms, limit ${BUDGET.limit} concurrent, ${BUDGET.orders} orders from ${BUDGET.customers} customers): ` +
        `${fmt(seconds, 1)} s, ${fmt(BUDGET.orders / seconds, 1)} orders/s, ${fmt(perOrder, 3)} requests per order, ${stub.rejected429} × 429, max ${stub.maxInFlight} in flight`,
    );
    console.log(
      `  ${fmt(perSecond, 1)} requests/s against a ceiling of ${fmt(ceiling, 1)} (limit ÷ latency): ${fmt(perSecond / ceiling, 2)} of it; ` +
        `goals ≥ 0.9 of the ceiling: ${perSecond / ceiling >= 0.9 ? 'met' : 'NOT met'}, 0 × 429: ${stub.rejected429 === 0 ? 'met' : 'NOT met'}, ≤ 1.1 requests per order: ${perOrder <= 1.1 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await stopWorker(worker);
    await stub.close();
    await db.$client.end();
    await purgeQueuePrefix(REDIS_URL, prefix);
  }
}

async function pipelineRate(databaseUrl: string): Promise<{ seconds: number; rate: number }> {
  const db = createDb({ url: databaseUrl, max: 2 });
  await seedDemoCatalogue(db);
  await db.$client.query('truncate orders, outbox, netsuite_failed_syncs, email_log cascade');
  // "Answering at once", with a limit above our cap: the bench measures our pipeline, not the account tier.
  const stub = await startNetSuiteStub({ concurrencyLimit: Number(CONCURRENCY) + 1 });
  const prefix = `nhbench-sync-${randomBytes(3).toString('hex')}`;
  const env = {
    ...stub.env(),
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    WORKER_QUEUES: 'erp-sync',
    ERP_SYNC_CONCURRENCY: CONCURRENCY,
    MAIL_OUTBOX_DIR: '/tmp/nh-bench-mail',
  };
  const workers = await Promise.all(Array.from({ length: WORKERS }, () => spawnWorker(env, RUNTIME)));
  const redis = createRedis(REDIS_URL, 'client');
  const meter = new CpuMeter(workers, db.$client, redis);
  try {
    await meter.start();
    const started = performance.now();
    await placeBenchOrders(db, N);
    const seconds = await syncedAll(db, N, started);
    const cpu = await meter.stop();
    const orders = stub.salesOrders().length;
    if (orders !== N) throw new Error(`expected ${N} sales orders at the stub, found ${orders}`);
    if (stub.maxInFlight > Number(CONCURRENCY)) throw new Error(`${stub.maxInFlight} requests in flight at the stub, above the cap of ${CONCURRENCY}`);
    console.log(`  stub: ${orders} sales orders, max ${stub.maxInFlight} requests in flight (cap ${CONCURRENCY}), ${stub.rejected429} × 429`);
    const per = (ms: number) => fmt(ms / N, 2);
    const worker = cpu.workerUser + cpu.workerSystem;
    const all = worker + cpu.bench + (cpu.postgres ?? 0) + cpu.redis;
    console.log(
      `  CPU per order: worker${WORKERS > 1 ? 's' : ''} ${per(worker)} ms (user ${per(cpu.workerUser)}, system ${per(cpu.workerSystem)}; ${fmt((100 * worker) / 1000 / seconds)} % of a core), ` +
        `stub + bench ${per(cpu.bench)} ms, Postgres backends ${cpu.postgres === null ? 'not readable' : `${per(cpu.postgres)} ms`}, Redis ${per(cpu.redis)} ms`,
    );
    console.log(`  in all ${per(all)} ms per order: ${os.cpus().length} cores allow at most ~${fmt((os.cpus().length * 1000 * N) / all)} orders/s at this cost`);
    return { seconds, rate: N / seconds };
  } finally {
    redis.disconnect();
    await Promise.all(workers.map(stopWorker));
    await stub.close();
    await db.$client.end();
    await purgeQueuePrefix(REDIS_URL, prefix);
  }
}

async function bareRate(): Promise<{ seconds: number; rate: number }> {
  const prefix = `nhbench-bare-${randomBytes(3).toString('hex')}`;
  const connection = createRedis(REDIS_URL, 'worker');
  const queue = new Queue('bare', { connection, prefix });
  try {
    for (let i = 0; i < N; i += 1000) {
      await queue.addBulk(Array.from({ length: Math.min(1000, N - i) }, (_, j) => ({ name: 'noop', data: { i: i + j } })));
    }
    let done = 0;
    const started = performance.now();
    const finished = new Promise<void>((resolve) => {
      const worker = new Worker('bare', async () => {}, { connection, prefix, concurrency: 50 });
      worker.on('completed', () => {
        if (++done === N) void worker.close().then(resolve);
      });
    });
    await finished;
    const seconds = (performance.now() - started) / 1000;
    return { seconds, rate: N / seconds };
  } finally {
    await queue.close();
    connection.disconnect();
    await purgeQueuePrefix(REDIS_URL, prefix);
  }
}

const databaseUrl = await benchDatabase('nh_bench_workers');
const workerCommand = RUNTIME === 'bundle' ? `node ${await buildWorkerBundle()} (esbuild bundle, as the Procfile runs it)` : 'node --import tsx workers/src/main.ts';
const load = () => os.loadavg().map((l) => fmt(l, 2)).join(' ');
console.log(`bench:sync — ${N} orders, ERP_SYNC_CONCURRENCY=${CONCURRENCY} (the cap across all processes), ${WORKERS} worker process${WORKERS > 1 ? 'es' : ''} with WORKER_QUEUES=erp-sync`);
console.log(`  worker: ${workerCommand}; ${os.cpus().length} cores, load average ${load()}`);
const ours = await pipelineRate(databaseUrl);
console.log(`pipeline (outbox → relay → BullMQ → worker → NetSuite client → stub): ${fmt(ours.seconds, 2)} s, ${fmt(ours.rate)} orders synced/s`);
const bare = await bareRate();
console.log(`bare BullMQ worker (empty processor, concurrency 50): ${fmt(bare.seconds, 2)} s, ${fmt(bare.rate)} jobs/s`);
console.log(`ratio: ${fmt(ours.rate / bare.rate, 3)} (goal ≥ 0.25); load average at the end ${load()}`);
if (process.env.BENCH_BUDGET !== '0') await budgetRun(databaseUrl);
process.exit(0);
