/**
 * bench:renewals — renewal day at scale (issue 21). BENCH_PLANS (default 100,000) active plans due
 * today, cadences of 1, 2 and 3 months in turn, each with a stored payment profile, seeded with set-based
 * SQL into a dedicated bench database; 10 % of them with a one-time add-on (one marked statement, run
 * only when subscriptions.one_time_items exists). One worker process, the esbuild bundle as production
 * runs it (BENCH_WORKER_RUNTIME=tsx runs the sources), consuming `renewals` (BENCH_WORKER_QUEUES) with
 * RENEWAL_CONCURRENCY (the bench passes the configured default unless the variable is set), charges them
 * through its real Authorize.Net adapter against the Authorize.Net stub (api/test/support/authnet-stub.ts)
 * answering each request after BENCH_GATEWAY_LATENCY_MS (300). The run starts with one renewal sweep
 * added to the worker's queue, as the 06:00 schedule adds it, and ends when every plan has an outcome.
 *
 * Prints: renewals/s against the gateway-bound ceiling (concurrency ÷ latency) and the CPU-bound one
 * (CPU per renewal measured from /proc for the worker, the Postgres backends of the bench database and
 * Redis: one worker process is one core for its JavaScript, the machine has os.cpus() cores), which of
 * the two binds; the worker's peak RSS (VmHWM) and its RSS through the sweep; the sweep's time and pages.
 * Then checks in the database: one approved payment row per plan for its period and no other, one
 * renewal order, next billing date moved on by its cadence; and at the stub: one charge request per plan.
 * Goals: 0 double charges, 0 missed, ≥ 0.8 of the lower ceiling, peak RSS < 300 MB, a streaming sweep.
 *
 *   npm run bench:renewals                   BENCH_PLANS=2000 RENEWAL_CONCURRENCY=10 npm run bench:renewals
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { Queue } from 'bullmq';
import { priceCart, toCents } from '@nh/shared';
import type { LineItem } from '@nh/server/db/schema';
import { createDb } from '@nh/server/db/client';
import { createRedis } from '@nh/server/runtime/redis';
import { DEFAULT_REDIS_URL } from '@nh/server/runtime/env';
import { seedDemoCatalogue } from '@nh/server/seed/seed';
import { startAuthnetStub } from '../../api/test/support/authnet-stub';
import { purgeQueuePrefix } from '../test/support/setup';
import { loadWorkerConfig } from '../src/lib/config';
import { recordSweep, renewalSweepJob, type SweepResult } from '../src/renewals/sweep';
import { benchDatabase, buildWorkerBundle, CpuMeter, fmt, spawnWorker, stopWorker, workerRuntime } from './support';

const N = Number(process.env.BENCH_PLANS ?? 100_000);
const LATENCY_MS = Number(process.env.BENCH_GATEWAY_LATENCY_MS ?? 300);
/** The configured renewal concurrency: RENEWAL_CONCURRENCY if set, else the worker's default (config.ts). */
const CONCURRENCY = loadWorkerConfig({ ...process.env, NODE_ENV: 'development' }).RENEWAL_CONCURRENCY;
const QUEUES = process.env.BENCH_WORKER_QUEUES ?? 'renewals';
/** Share of plans with a one-time add-on. */
const ADD_ON_SHARE = 0.1;
/** No new outcome for this long: the run stops and reports what is missing. */
const STALL_MS = Number(process.env.BENCH_STALL_MS ?? 60_000);
/** How often the bench counts outcomes (its count is a scan of the payment rows, on the Postgres figure). */
const POLL_MS = N >= 20_000 ? 1000 : 250;
const RUNTIME = workerRuntime();
const REDIS_URL = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const MB = 1024 * 1024;
const CREDENTIALS = { apiLoginId: 'bench-login', transactionKey: 'bench-transaction-key' };

type Db = ReturnType<typeof createDb>;

/** kB figures of /proc/<pid>/status (VmRSS now, VmHWM the peak so far), in bytes; null once the process is gone. */
function memoryOf(pid: number | undefined): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Three plan contents (one, two or three lines of catalogue products at today's prices) and their agreed amounts. */
async function planTemplates(db: Db): Promise<{ items: LineItem[][]; amounts: number[]; addOn: { id: number; name: string } }> {
  const { rows } = await db.$client.query<{ id: number; name: string; price: string }>(
    `select id, name, price::text from products where status = 'active' order by id limit 3`,
  );
  if (rows.length < 3) throw new Error('the demo catalogue has fewer than 3 active products');
  // Stock for every renewal (each takes its lines' stock): the bench measures charging, not running out.
  await db.$client.query(`update products set inventory = 1000000000 where id = any($1::int[])`, [rows.map((r) => r.id)]);
  const line = (p: (typeof rows)[number], quantity: number): LineItem => ({
    productId: p.id,
    productName: p.name,
    variantSku: null,
    sku: null,
    itemNumber: null,
    quantity,
    price: p.price,
  });
  const items = [[line(rows[0]!, 1)], [line(rows[0]!, 2), line(rows[1]!, 1)], [line(rows[0]!, 1), line(rows[1]!, 1), line(rows[2]!, 3)]];
  const amounts = items.map((lines) => priceCart(lines.map((l) => ({ price: toCents(l.price), quantity: l.quantity })), { subscribe: true }).total);
  return { items, amounts, addOn: { id: rows[2]!.id, name: rows[2]!.name } };
}

/**
 * N due plans in one statement, and beside them (table bench_renewal_due) what each must end with: its
 * period (the UTC day of its due date) and its next billing date one cadence on. Due times spread over
 * the last 24 hours: all due today or yesterday, none more than one period behind (no catch-up); in
 * milliseconds, as the application writes them (a JavaScript Date).
 */
async function seedPlans(db: Db): Promise<{ addOns: number | null }> {
  const { items, amounts, addOn } = await planTemplates(db);
  await db.$client.query('truncate subscriptions, orders, payment_transactions, outbox, email_log, subscription_skipped_periods cascade');
  await db.$client.query('drop table if exists bench_renewal_due');
  await db.$client.query(`create table bench_renewal_due (g int primary key, subscription_id uuid not null unique, due timestamptz not null, period text not null, next timestamptz not null)`);
  await db.$client.query(
    `with plans as (
       insert into subscriptions (customer_email, customer_name, items, interval, interval_count, amount, next_billing_date, status, shipping_address,
                                  authnet_customer_profile_id, authnet_payment_profile_id, card_expires_on)
       select 'renewal-bench-' || g || '@example.com', 'Bench Saver ' || g, ($2::jsonb[])[1 + (g / 3) % 3], 'monthly', 1 + g % 3, ($3::numeric[])[1 + (g / 3) % 3],
              date_trunc('milliseconds', now()) - (g % 86400) * interval '1 second', 'active',
              jsonb_build_object('address', g || ' Main St', 'city', 'Springfield', 'state', 'IL', 'zip', '62701'),
              (500000000 + g)::text, (600000000 + g)::text, date '2031-12-31'
       from generate_series(1, $1::int) g
       returning id, customer_email, next_billing_date, interval_count)
     insert into bench_renewal_due (g, subscription_id, due, period, next)
     select split_part(split_part(customer_email, '@', 1), '-', 3)::int, id, next_billing_date,
            to_char(next_billing_date at time zone 'UTC', 'YYYY-MM-DD'),
            ((next_billing_date at time zone 'UTC') + make_interval(months => interval_count)) at time zone 'UTC'
     from plans`,
    [N, items.map((lines) => JSON.stringify(lines)), amounts.map((cents) => (cents / 100).toFixed(2))],
  );

  // ---- One-time add-ons (issue 21) ------------------------------------------------------------------
  // 10 % of the plans get one one-time line (OneTimeLine) for their next delivery. Skipped, and said so,
  // on a database without subscriptions.one_time_items (migration 0023).
  const { rows: column } = await db.$client.query(`select 1 from information_schema.columns where table_name = 'subscriptions' and column_name = 'one_time_items'`);
  if (column.length === 0) return { addOns: null };
  const { rowCount } = await db.$client.query(
    `update subscriptions s set one_time_items = jsonb_build_array(jsonb_build_object(
         'id', gen_random_uuid(), 'productId', $2::int, 'productName', $3::text, 'variantSku', null, 'quantity', 1))
     from bench_renewal_due b where b.subscription_id = s.id and b.g % $1::int = 0`,
    [Math.round(1 / ADD_ON_SHARE), addOn.id, addOn.name],
  );
  // ----------------------------------------------------------------------------------------------------
  return { addOns: rowCount ?? 0 };
}

/** Plans with an outcome (an approved payment row, or any other final one) and the approved ones. */
async function outcomes(db: Db): Promise<{ approved: number; failed: number }> {
  const { rows } = await db.$client.query<{ approved: number; failed: number }>(
    `select count(*) filter (where status = 'approved')::int as approved, count(*) filter (where status in ('declined', 'error'))::int as failed
     from payment_transactions where kind = 'charge'`,
  );
  return rows[0]!;
}

/** What the database says about every seeded plan after the run (each figure should be 0 but `ok`). */
async function checkDatabase(db: Db, addOns: number | null) {
  const { rows } = await db.$client.query<Record<string, number>>(
    `with per_plan as (
       select b.g,
              (select count(*) from payment_transactions p where p.subscription_id = b.subscription_id and p.kind = 'charge') as payments,
              (select count(*) from payment_transactions p where p.subscription_id = b.subscription_id and p.kind = 'charge'
                 and p.billing_period = b.period and p.status = 'approved') as approved_for_period,
              (select count(*) from orders o where o.subscription_id = b.subscription_id) as orders,
              (select count(*) from orders o where o.subscription_id = b.subscription_id and o.status = 'processing') as paid_orders,
              s.next_billing_date = b.next as advanced
       from bench_renewal_due b join subscriptions s on s.id = b.subscription_id)
     select count(*) filter (where approved_for_period = 1 and payments = 1 and orders = 1 and paid_orders = 1 and advanced)::int as ok,
            count(*) filter (where approved_for_period = 0)::int as missed,
            count(*) filter (where payments > 1 or approved_for_period > 1)::int as double_charged,
            count(*) filter (where orders <> 1)::int as not_one_order,
            count(*) filter (where paid_orders <> 1)::int as order_not_paid,
            count(*) filter (where not advanced)::int as date_not_advanced
     from per_plan`,
  );
  const result = rows[0]!;
  if (addOns !== null) {
    // Each add-on is gone from its plan and rode with exactly one renewal order, as a line marked
    // `oneTime` (LineItem.oneTime).
    const { rows: left } = await db.$client.query<{ left: number; shipped: number }>(
      `select (select count(*) from subscriptions where jsonb_array_length(one_time_items) > 0)::int as left,
              (select count(*) from orders where subscription_id is not null and items @> '[{"oneTime": true}]'::jsonb)::int as shipped`,
    );
    result.add_ons_left = left[0]!.left;
    result.add_on_orders = left[0]!.shipped;
  }
  return result;
}

async function run(): Promise<void> {
  const databaseUrl = await benchDatabase('nh_bench_renewals');
  const db = createDb({ url: databaseUrl, max: 2 });
  await seedDemoCatalogue(db);
  const workerCommand = RUNTIME === 'bundle' ? `node ${await buildWorkerBundle()} (esbuild bundle, as the Procfile runs it)` : 'node --import tsx workers/src/main.ts';
  const load = () => os.loadavg().map((l) => fmt(l, 2)).join(' ');

  const seedStarted = performance.now();
  const { addOns } = await seedPlans(db);
  await db.$client.query('analyze subscriptions');
  console.log(`bench:renewals — ${fmt(N)} due plans (cadence 1/2/3 months), seeded in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);
  console.log(
    addOns === null
      ? '  one-time add-ons: NOT seeded (subscriptions.one_time_items does not exist on this branch; the marked statement in seedPlans runs once it does)'
      : `  one-time add-ons: ${fmt(addOns)} plans (${fmt((100 * addOns) / N, 1)} %)`,
  );
  console.log(`  worker: ${workerCommand}, WORKER_QUEUES=${QUEUES}, RENEWAL_CONCURRENCY=${CONCURRENCY}; gateway: Authorize.Net adapter → stub answering in ${LATENCY_MS} ms`);
  console.log(`  ${os.cpus().length} cores, load average ${load()}`);

  const stub = await startAuthnetStub(CREDENTIALS, { latencyMs: LATENCY_MS, keepBodies: false });
  const prefix = `nhbench-renewals-${randomBytes(3).toString('hex')}`;
  const redis = createRedis(REDIS_URL, 'client');
  const renewals = new Queue('renewals', { connection: redis, prefix });
  // A completed sweep just now: the worker adds no missed sweep at start, the bench adds the one it times.
  await recordSweep({ queue: renewals, redis }, new Date());
  mkdirSync('/tmp/nh-bench-mail', { recursive: true });
  const env = {
    ...stub.apiEnv(),
    PAYMENTS_MODE: 'authorizenet',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    WORKER_QUEUES: QUEUES,
    RENEWAL_CONCURRENCY: String(CONCURRENCY),
    MAIL_OUTBOX_DIR: '/tmp/nh-bench-mail',
    HEARTBEAT_FILE: `/tmp/${prefix}-heartbeat`,
  };
  const worker = await spawnWorker(env, RUNTIME);
  const meter = new CpuMeter([worker], db.$client, redis);
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const idle = memoryOf(worker.pid)!;
    await meter.start();
    const started = performance.now();
    const sweep = await renewals.add(renewalSweepJob.name, {}, { jobId: `bench-sweep-${prefix}` });

    // Poll: outcomes, the worker's RSS, the sweep's end.
    let sweepPeakRss = idle.rss;
    let sweepEnd: { at: number; rss: number; result: SweepResult } | null = null;
    let last = { count: 0, at: performance.now() };
    let reported = 0;
    let done = { approved: 0, failed: 0 };
    let finishedAt = started;
    /** When a tenth and nine tenths of the plans had an outcome: the steady rate between, without the start and the tail. */
    const marks: { tenth?: { at: number; count: number }; nineTenths?: { at: number; count: number } } = {};
    for (;;) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const mem = memoryOf(worker.pid);
      if (!mem) throw new Error('the worker exited during the run');
      if (!sweepEnd) {
        sweepPeakRss = Math.max(sweepPeakRss, mem.rss);
        const state = await sweep.getState();
        if (state === 'failed') throw new Error(`the sweep failed: ${(await renewals.getJob(sweep.id!))?.failedReason}`);
        if (state === 'completed') sweepEnd = { at: performance.now(), rss: mem.rss, result: (await renewals.getJob(sweep.id!))!.returnvalue as SweepResult };
      }
      done = await outcomes(db);
      const count = done.approved + done.failed;
      if (count > last.count) {
        last = { count, at: performance.now() };
        finishedAt = last.at;
        if (!marks.tenth && count >= N / 10) marks.tenth = { ...last };
        if (!marks.nineTenths && count >= (9 * N) / 10) marks.nineTenths = { ...last };
      }
      if (count >= N) break;
      if (count - reported >= N / 10) {
        reported = count;
        console.log(`  … ${fmt(count)} renewed, ${fmt(count / ((performance.now() - started) / 1000), 1)}/s, worker RSS ${fmt(mem.rss / MB)} MB`);
      }
      if (performance.now() - last.at > STALL_MS) {
        console.log(`  stopped: no renewal for ${STALL_MS / 1000} s with ${fmt(count)} of ${fmt(N)} done`);
        break;
      }
    }
    const cpu = await meter.stop();
    const mem = memoryOf(worker.pid)!;
    const seconds = (finishedAt - started) / 1000;
    const renewed = done.approved + done.failed;
    const rate = renewed / seconds;

    // Ceilings. Gateway-bound: each renewal holds one of CONCURRENCY slots for one round trip.
    const gatewayCeiling = CONCURRENCY / (LATENCY_MS / 1000);
    // CPU-bound: the CPU each renewal cost, per process; one worker process runs its JavaScript on one core.
    const workerMs = (cpu.workerUser + cpu.workerSystem) / renewed;
    const stackMs = workerMs + ((cpu.postgres ?? 0) + cpu.redis) / renewed;
    const workerCeiling = 1000 / workerMs;
    const machineCeiling = (os.cpus().length * 1000) / stackMs;
    const cpuCeiling = Math.min(workerCeiling, machineCeiling);
    const binding = gatewayCeiling <= cpuCeiling ? 'gateway-bound' : 'CPU-bound';
    const ceiling = Math.min(gatewayCeiling, cpuCeiling);

    const steady =
      marks.tenth && marks.nineTenths && marks.nineTenths.at > marks.tenth.at
        ? (marks.nineTenths.count - marks.tenth.count) / ((marks.nineTenths.at - marks.tenth.at) / 1000)
        : null;
    console.log(
      `renewals: ${fmt(renewed)} in ${fmt(seconds, 1)} s: ${fmt(rate, 1)} renewals/s from the sweep to the last outcome` +
        `${steady === null ? '' : ` (${fmt(steady, 1)}/s from 10 % to 90 % done)`}; ${fmt(done.approved)} approved, ${fmt(done.failed)} declined or refused`,
    );
    console.log(`  gateway-bound ceiling: ${CONCURRENCY} concurrent ÷ ${LATENCY_MS} ms = ${fmt(gatewayCeiling, 1)}/s; stub held at most ${stub.maxInFlight} requests at once`);
    console.log(
      `  CPU per renewal: worker ${fmt(workerMs, 2)} ms (user ${fmt(cpu.workerUser / renewed, 2)}, system ${fmt(cpu.workerSystem / renewed, 2)}; ${fmt((100 * (cpu.workerUser + cpu.workerSystem)) / 1000 / seconds)} % of a core), ` +
        `Postgres backends ${cpu.postgres === null ? 'not readable' : `${fmt(cpu.postgres / renewed, 2)} ms`}, Redis ${fmt(cpu.redis / renewed, 2)} ms; stub + bench ${fmt(cpu.bench / renewed, 2)} ms (the gateway's side, not counted)`,
    );
    console.log(
      `  CPU-bound ceiling: ${fmt(cpuCeiling, 1)}/s (one worker process: 1 core ÷ ${fmt(workerMs, 2)} ms = ${fmt(workerCeiling, 1)}/s; ` +
        `the machine: ${os.cpus().length} cores ÷ ${fmt(stackMs, 2)} ms of worker + Postgres + Redis = ${fmt(machineCeiling, 1)}/s)`,
    );
    console.log(
      `  ${binding}: ${fmt(rate / ceiling, 2)} of the lower ceiling (${fmt(ceiling, 1)}/s)${steady === null ? '' : `, ${fmt(steady / ceiling, 2)} between 10 % and 90 %`}; ` +
        `at this rate ${fmt(100_000 / rate / 60, 1)} min for 100,000 plans`,
    );
    console.log(
      `  worker RSS: peak ${fmt(mem.peak / MB, 1)} MB (VmHWM), ${fmt(idle.rss / MB, 1)} MB idle before the sweep` +
        (sweepEnd
          ? `; sweep: ${fmt(sweepEnd.result.due)} due in ${Math.ceil(sweepEnd.result.due / 1000)} pages, ${fmt((sweepEnd.at - started) / 1000, 1)} s, RSS at most ${fmt(sweepPeakRss / MB, 1)} MB while it ran, ${fmt(sweepEnd.rss / MB, 1)} MB at its end; its result lists ${fmt(sweepEnd.result.jobs.length)} job ids`
          : '; the sweep did not complete'),
    );
    console.log(`  load average at the end ${load()}; Redis used_memory ${await redisMemory(redis)}`);

    // Exactly once, in the database and at the gateway.
    const check = await checkDatabase(db, addOns);
    const chargeRequests = new Map<string, number>();
    for (const r of stub.requests) if (r.name === 'createTransactionRequest' && r.invoiceNumber) chargeRequests.set(r.invoiceNumber, (chargeRequests.get(r.invoiceNumber) ?? 0) + 1);
    const repeated = [...chargeRequests.values()].filter((n) => n > 1).length;
    console.log(
      `database: ${fmt(check.ok!)} of ${fmt(N)} plans with one approved payment for their period, one paid renewal order and the next date one cadence on; ` +
        `missed ${check.missed}, double-charged ${check.double_charged}, not one order ${check.not_one_order}, order not paid ${check.order_not_paid}, date not advanced ${check.date_not_advanced}` +
        (check.add_ons_left === undefined ? '' : `; add-ons: ${check.add_ons_left} left on plans, ${fmt(check.add_on_orders!)} renewal orders with one`),
    );
    console.log(`gateway: ${fmt(chargeRequests.size)} invoices charged, ${repeated} with more than one charge request, ${fmt(stub.charges.length)} approved charges`);

    const goals = [
      ['0 double charges', check.double_charged === 0 && repeated === 0 && stub.charges.length <= N],
      ['0 missed', check.missed === 0 && check.ok === N],
      [`≥ 0.8 of the ${binding} ceiling`, rate >= 0.8 * ceiling],
      ['peak RSS < 300 MB', mem.peak < 300 * MB],
      ...(addOns === null ? [] : ([['each add-on shipped once', check.add_ons_left === 0 && check.add_on_orders === addOns]] as const)),
    ];
    console.log(`goals: ${goals.map(([name, met]) => `${name}: ${met ? 'met' : 'NOT met'}`).join('; ')}`);
  } finally {
    await stopWorker(worker);
    await stub.close();
    await renewals.close();
    redis.disconnect();
    await purgeQueuePrefix(REDIS_URL, prefix);
    rmSync(env.HEARTBEAT_FILE, { force: true });
    await db.$client.end();
  }
}

async function redisMemory(redis: ReturnType<typeof createRedis>): Promise<string> {
  const info = await redis.info('memory');
  return /^used_memory_human:(\S+)/m.exec(info)?.[1] ?? '?';
}

await run();
process.exit(0);
