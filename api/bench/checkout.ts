/**
 * `npm run bench:checkout`: concurrent shoppers placing orders through the real API and the local
 * sandbox gateway, for BENCH_SECONDS (default 10), with the worker process running (outbox relay,
 * NetSuite sync, confirmation emails). In the same run, the ceiling: the bare SQL writes of one order
 * (the same statements, same pool size, no HTTP, no gateway), and the ratio of the two.
 *
 * - Database `nurture_home_bench` (created, migrated, seeded; products get a very large inventory).
 * - The API and the worker run as child processes (`tsx`), like production; this process is the load.
 * - Card tokens are made before the clock starts (in real life Authorize.Net's servers tokenise).
 *
 * API and bare SQL are measured in alternating one-second rounds (BENCH_SECONDS of each): the
 * saturation (closed loop: each shopper sends the next order when the last one is answered).
 *
 * Then the open model, as shops see it: orders arrive at a fixed rate whether or not earlier ones are
 * answered (BENCH_RATES orders/s, BENCH_OPEN_SECONDS each), and each latency counts from the moment the
 * order was due, so a stalled server cannot hide its queue (no coordinated omission).
 *
 * Through PgBouncer (issue 24): when Debian's PgBouncer is installed, a second API process reaches
 * Postgres through it (transaction mode, DATABASE_POOLED=true: statements unnamed), measured in the same
 * alternating rounds, so its figure and its ratio to the direct API's come from one run.
 *
 * Tax by destination (issue 25): a third API process prices with TAX_MODE=table (the example rate file,
 * ops/tax/us-rates.example.csv), its orders shipped to a ZIP with its own rate, measured in the same
 * alternating rounds as the flat rule's API, so the table's cost is one difference of one run (goal:
 * checkout p99 no more than 2 ms above the flat rule's).
 *
 * The worker syncs each order to a NetSuite stand-in, the SuiteTalk REST test server of the worker's
 * tests (workers/test/support/netsuite-stub.ts) answering at once, run as a process of its own so its
 * CPU shows apart ("netsuite stand-in"); BENCH_NETSUITE=0 runs the worker without a NetSuite account
 * (each order is then only marked "not configured", as before 2026-11-29).
 *
 * Env: BENCH_SECONDS (10), BENCH_CONCURRENCY (16), BENCH_PORT (5104; the PgBouncer API on the next
 * port, the rate-table API on the one after), BENCH_WORKER (1; 0 = no worker), BENCH_PGBOUNCER (1 when
 * installed; 0 = skip), BENCH_TAX_TABLE (1; 0 = skip), BENCH_RATES (50,100,150,200; empty = skip the open
 * model), BENCH_OPEN_SECONDS (30), BENCH_CPU_DETAIL (each open-model run's CPU by process, and the
 * database sessions it opened), BENCH_WORKER_NICE (the worker's WORKER_NICE; unset: its default, 10;
 * docs/decisions/checkout.md, "Warm connections across bursts, and the worker's priority").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { centsToDecimal, priceCart, stockByProduct, toPayloadStrings, withTax } from '@nh/shared';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { createDb } from '@nh/server/db/client';
import { createRedis } from '@nh/server/runtime/redis';
import { recordAcceptedPayment } from '@nh/server/queries/payments';
import { reserveOrder } from '@nh/server/queries/orders';
import { LocalSandboxGateway } from '@nh/server/payments';
import { seedDemoCatalogue } from '@nh/server/seed/seed';
import { applyMigrations, ensureDatabase } from '@nh/server/runtime/database';
import { isListening } from '@nh/server/testing/free-port';
import { PGBOUNCER_BINARY, startPgBouncer, type PgBouncer } from '@nh/server/testing/pgbouncer';
import { taxLinesOf } from '@nh/server/tax';
import { tableTax } from '@nh/server/tax/table';
import { createLogger } from '@nh/server/observability/logger';
import { REPO_ROOT } from '../src/lib/config';
import { netSuiteStubEnv } from '../../workers/test/support/netsuite-stub';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

/**
 * Each order comes from a new shopper, as a shop's orders mostly do. One address for every order made
 * one customer of all of them, and the customer figures and report days that each paid order recounts
 * (migrations/sql/0031, 0036) grew with every run: at 16,390 orders one recount took ~100 ms of
 * Postgres under the customer's row lock, and the bench measured that instead of the checkout.
 */
const shopperEmail = () => `bench-${randomUUID()}@example.com`;
const PORT = Number(process.env.BENCH_PORT ?? 5104);
const WITH_WORKER = process.env.BENCH_WORKER !== '0';
const VIA_PGBOUNCER = process.env.BENCH_PGBOUNCER !== '0' && fs.existsSync(PGBOUNCER_BINARY);
const PGBOUNCER_PORT = PORT + 1;
const WITH_TAX_TABLE = process.env.BENCH_TAX_TABLE !== '0';
const TAX_TABLE_PORT = PORT + 2;
/** The worker syncs each order to a NetSuite stand-in (a process of its own) unless BENCH_NETSUITE=0. */
const WITH_NETSUITE = WITH_WORKER && process.env.BENCH_NETSUITE !== '0';
const NETSUITE_PORT = PORT + 3;
const TAX_RATES_FILE = path.join(REPO_ROOT, 'ops/tax/us-rates.example.csv');
/** The rate-table API's orders ship to San Francisco 94103 (8.625 % in the example file). */
const TABLE_ADDRESS = { address: '1 Bench St', city: 'San Francisco', state: 'CA', zip: '94103' };
const GOAL = { ordersPerSecond: 500, p99Ms: 100 };
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/nurture_home_bench';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUEUE_PREFIX = 'nhbench';
const RATES = (process.env.BENCH_RATES ?? '50,100,150,200').split(',').filter(Boolean).map(Number);
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 30);
const TOKENS = Math.max(4000, SECONDS * 1500) * (1 + (VIA_PGBOUNCER ? 1 : 0) + (WITH_TAX_TABLE ? 1 : 0)) + RATES.reduce((sum, rate) => sum + Math.ceil(rate * OPEN_SECONDS * 1.02), 0);

/** The worker's WORKER_NICE (unset: its default). */
const WORKER_NICE = process.env.BENCH_WORKER_NICE;
const children: ChildProcess[] = [];
/** The child processes by role, for the CPU accounting. */
const roles = new Map<string, string>();
let bouncer: PgBouncer | null = null;

function startChild(name: string, entry: string, env: Record<string, string>): ChildProcess {
  // node --import tsx (not the tsx wrapper) so the child's pid is the server itself (CPU accounting).
  const child = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF && (process.env.BENCH_CPU_PROF === name || name === 'api') ? ['--cpu-prof', '--cpu-prof-dir', os.tmpdir()] : []), '--import', 'tsx', path.join(REPO_ROOT, entry)], {
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATABASE_URL, REDIS_URL, QUEUE_PREFIX, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    cwd: REPO_ROOT,
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk}`));
  children.push(child);
  roles.set(String(child.pid), name);
  return child;
}

/**
 * Refuses a port something else already listens on: waitReady would take that server's answer for
 * ours, and the bench would measure it (a run once counted another app's refusals as the rate table's).
 */
async function assertPortFree(port: number): Promise<void> {
  if (await isListening(port)) throw new Error(`port ${port} is already in use by another process: stop it, or set BENCH_PORT (the bench uses it and the two after it)`);
}

/**
 * Waits until `url` answers 2xx, or with `anyAnswer` until it answers at all (the NetSuite stand-in
 * refuses an unsigned request).
 */
async function waitReady(url: string, { anyAnswer = false, timeoutMs = 60_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (anyAnswer || res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not become ready`);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
/** The open model's client: as many connections as orders in flight (arrivals do not wait for a socket). */
const openAgent = new http.Agent({ keepAlive: true });

function post(pathname: string, body: string, headers: Record<string, string>, via = agent, port = PORT): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathname, method: 'POST', agent: via, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Product {
  id: number;
  name: string;
  sku: string | null;
  itemNumber: string | null;
  price: number;
}

interface Tally {
  ok: number;
  failed: number;
  seconds: number;
  /** ms, sorted at the end */
  latencies: number[];
}
const tally = (): Tally => ({ ok: 0, failed: 0, seconds: 0, latencies: [] });

/** Runs `shop` from CONCURRENCY loops for `seconds`, adding to `into`. */
async function round(shop: () => Promise<boolean>, seconds: number, into: Tally): Promise<void> {
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        if (await shop()) {
          into.ok++;
          into.latencies.push(performance.now() - t0);
        } else into.failed++;
      }
    }),
  );
  into.seconds += (performance.now() - started) / 1000;
}

/**
 * Sends `rate` orders a second for `seconds` (each at its due time, whatever is still in flight) and
 * returns the latencies counted from each order's due time, plus the failures.
 */
async function openRun(order: () => Promise<boolean>, rate: number, seconds: number): Promise<Tally> {
  const into = tally();
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      order().then(
        (ok) => {
          if (ok) {
            into.ok++;
            into.latencies.push(performance.now() - due);
          } else into.failed++;
        },
        () => void into.failed++,
      ),
    );
  }
  await Promise.all(inFlight);
  into.seconds = (performance.now() - started) / 1000;
  into.latencies.sort((x, y) => x - y);
  return into;
}

async function main(): Promise<void> {
  for (const port of [PORT, PGBOUNCER_PORT, TAX_TABLE_PORT, NETSUITE_PORT]) await assertPortFree(port);
  console.log(
    `checkout bench: ${SECONDS}s, ${CONCURRENCY} concurrent shoppers, ${os.cpus().length} CPUs, worker ${WITH_WORKER ? `running (NetSuite: ${WITH_NETSUITE ? 'the stand-in' : 'not configured'}, BENCH_NETSUITE)` : 'off'}`,
  );
  await ensureDatabase(DATABASE_URL);
  await applyMigrations(DATABASE_URL);
  const db = createDb({ url: DATABASE_URL, max: 20, applicationName: 'nh-bench' });
  await seedDemoCatalogue(db);
  await db.$client.query(`update products set inventory = 100000000 where status = 'active'`);
  // Every run starts from a vacuumed database (earlier runs leave dead rows behind, and autovacuum may
  // be off on a build machine): otherwise each run would be slower than the last.
  await db.$client.query('vacuum analyze products, orders, outbox, idempotency_keys, payment_transactions, email_log');
  const { rows } = await db.$client.query<{ id: number; name: string; sku: string | null; item_number: string | null; price: string }>(`select id, name, sku, item_number, price::text as price from products where status = 'active' and variants = '[]'::jsonb order by id`);
  const products: Product[] = rows.map((r) => ({ id: r.id, name: r.name, sku: r.sku, itemNumber: r.item_number, price: Math.round(Number(r.price) * 100) }));

  // Single-use card tokens, made ahead (the same Redis keys the API's sandbox gateway reads).
  const redis = createRedis(REDIS_URL);
  // Every run starts with empty queues and outbox: jobs an earlier run left behind would be this run's work.
  for (let cursor = '0'; ; ) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${QUEUE_PREFIX}:*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    if ((cursor = next) === '0') break;
  }
  await db.$client.query('update outbox set published_at = now() where published_at is null');
  /** Jobs of the order pipeline not yet done (waiting or running) in the bench's queues (delayed ones are schedules). */
  const jobsLeft = async () => {
    let n = 0;
    for (const queue of ['emails', 'erp-sync']) {
      const [waiting, active] = await Promise.all([redis.llen(`${QUEUE_PREFIX}:${queue}:wait`), redis.llen(`${QUEUE_PREFIX}:${queue}:active`)]);
      n += waiting + active;
    }
    return n;
  };
  /** Waits (up to a minute) until the worker has caught up (outbox relayed, the jobs done): the ms it waited. */
  const settle = async () => {
    const started = Date.now();
    for (let waited = 0; waited < 60_000 && WITH_WORKER; waited += 100) {
      const { rows: left } = await db.$client.query<{ n: number }>('select count(*)::int as n from outbox where published_at is null');
      if (left[0]!.n === 0 && (await jobsLeft()) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Date.now() - started;
  };
  const sandbox = new LocalSandboxGateway({ redis, keyPrefix: QUEUE_PREFIX });
  const tokens: string[] = [];
  for (let i = 0; i < TOKENS; i += 200) {
    const batch = await Promise.all(
      Array.from({ length: 200 }, () =>
        sandbox.tokenize({
          authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
          cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345' },
        }),
      ),
    );
    for (const answer of batch) if ('opaqueData' in answer) tokens.push(answer.opaqueData.dataValue);
  }

  startChild('api', 'api/src/main.ts', { PORT: String(PORT), HOST: '127.0.0.1', PAYMENT_FAILURES_PER_15_MIN: '0' });
  let netSuite: Record<string, string> = {};
  if (WITH_NETSUITE) {
    startChild('netsuite stand-in', 'api/bench/netsuite-stand-in.ts', { BENCH_NETSUITE_PORT: String(NETSUITE_PORT) });
    netSuite = netSuiteStubEnv(`http://127.0.0.1:${NETSUITE_PORT}`);
    await waitReady(netSuite.NETSUITE_BASE_URL!, { anyAnswer: true });
  }
  let workerProcess: ChildProcess | null = null;
  if (WITH_WORKER) {
    workerProcess = startChild('worker', 'workers/src/main.ts', {
      MAIL_OUTBOX_DIR: path.join(os.tmpdir(), 'nh-bench-mail'),
      EXPORTS_DIR: path.join(os.tmpdir(), 'nh-bench-exports'),
      ...(WORKER_NICE === undefined ? {} : { WORKER_NICE }),
      ...netSuite,
    });
  }
  await waitReady(`http://127.0.0.1:${PORT}/readyz`);
  if (VIA_PGBOUNCER) {
    // As many server connections as the API's pool: the pooler, not its size, is what is measured.
    bouncer = await startPgBouncer(DATABASE_URL, 20);
    startChild('api (pgbouncer)', 'api/src/main.ts', {
      PORT: String(PGBOUNCER_PORT),
      HOST: '127.0.0.1',
      PAYMENT_FAILURES_PER_15_MIN: '0',
      DATABASE_URL: bouncer.urlFor(DATABASE_URL),
      DATABASE_POOLED: 'true',
      DATABASE_DIRECT_URL: DATABASE_URL,
    });
    await waitReady(`http://127.0.0.1:${PGBOUNCER_PORT}/readyz`);
  }
  if (WITH_TAX_TABLE) {
    startChild('api (rate table)', 'api/src/main.ts', { PORT: String(TAX_TABLE_PORT), HOST: '127.0.0.1', PAYMENT_FAILURES_PER_15_MIN: '0', TAX_MODE: 'table', TAX_RATES_FILE });
    await waitReady(`http://127.0.0.1:${TAX_TABLE_PORT}/readyz`);
  }
  // What the rate-table API charges, worked out here as the browser's summary shows it (the quote's figures).
  const table = tableTax(TAX_RATES_FILE, { log: createLogger('bench', 'warn') });

  // Each order's two lines (a different pair each time, quantities 1 and 2): the API's and the bare SQL's
  // orders are the same order, so the ratio compares the same writes.
  let n = 0;
  const nextLines = () => {
    const lines = [products[n % products.length]!, products[(n * 7 + 3) % products.length]!];
    n++;
    return lines.map((p, i) => ({ product: p, quantity: i + 1 }));
  };
  const orderBody = (dataValue: string, taxTable = false) => {
    const lines = nextLines();
    const items = lines.map(({ product: p, quantity }) => ({ productId: p.id, variantSku: null, quantity, price: centsToDecimal(p.price) }));
    const address = taxTable ? TABLE_ADDRESS : { address: '1 Bench St', city: 'Loadville', state: 'CA', zip: '94000' };
    const priced = lines.map(({ product: p, quantity }) => ({ productId: p.id, price: p.price, quantity }));
    const flat = priceCart(priced, { state: address.state });
    const pricing = taxTable ? withTax(flat, table.quoteNow({ to: address, lines: taxLinesOf(priced, flat), shipping: flat.shipping })) : flat;
    const strings = toPayloadStrings(pricing);
    return {
      amount: strings.total,
      dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT',
      dataValue,
      firstName: 'Bench',
      lastName: 'Shopper',
      email: shopperEmail(),
      ...address,
      orderData: { items, ...strings, promoCode: null, shippingAddress: address, billingAddress: address },
    };
  };

  // Warm-up: connections, prepared statements, JIT.
  for (let i = 0; i < 200; i++) await post('/api/payments/checkout-nonce', JSON.stringify(orderBody(tokens.pop()!)), { 'idempotency-key': randomUUID() });
  if (VIA_PGBOUNCER) for (let i = 0; i < 200; i++) await post('/api/payments/checkout-nonce', JSON.stringify(orderBody(tokens.pop()!)), { 'idempotency-key': randomUUID() }, agent, PGBOUNCER_PORT);
  if (WITH_TAX_TABLE) for (let i = 0; i < 200; i++) await post('/api/payments/checkout-nonce', JSON.stringify(orderBody(tokens.pop()!, true)), { 'idempotency-key': randomUUID() }, agent, TAX_TABLE_PORT);

  // CPU time (ms) by process during the API rounds: where each order's CPU goes on this machine.
  // Postgres backends are named by the client they serve (pg_stat_activity's application_name), and
  // only this database's count (other databases on a shared machine are someone else's work); the
  // server's own processes (WAL writer, checkpointer, ...) count as "postgres (server)".
  const backendClient = new Map<string, string>();
  const readBackends = async () => {
    const { rows: backends } = await db.$client.query<{ pid: number; app: string }>(
      `select pid, application_name as app from pg_stat_activity where datname = current_database()`,
    );
    const name = (app: string) =>
      app === 'nurture-home-api' ? 'api' : app === 'nurture-home-workers' ? 'worker' : app === 'nurture-home-relay' ? 'relay' : app === 'nh-bench' ? 'bench client' : 'other';
    backendClient.clear();
    for (const b of backends) backendClient.set(String(b.pid), `postgres (${name(b.app)})`);
  };
  const groupOf = (pid: string, comm: string): string | null => {
    const role = roles.get(pid);
    if (role) return role;
    if (pid === String(process.pid)) return 'bench client';
    if (comm === 'redis-server') return 'redis';
    if (comm === 'pgbouncer') return 'pgbouncer';
    if (comm !== 'postgres') return null;
    const backend = backendClient.get(pid);
    if (backend) return backend;
    // A backend of another database is not ours; the postmaster's helpers are shared by all.
    const title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!/ \d+\.\d+\.\d+\.\d+\(\d+\)| \[local\]/.test(title)) return 'postgres (server)';
    return title.includes(` ${new URL(DATABASE_URL).pathname.slice(1)} `) ? 'postgres (new connection)' : null;
  };
  /** Sessions this database has had (pg_stat_database, as the backends have reported them): each one a backend started, cold. */
  const sessionsOpened = async () => {
    const { rows } = await db.$client.query<{ n: number }>('select sessions::int as n from pg_stat_database where datname = current_database()');
    return rows[0]!.n;
  };
  /** CPU ms so far of every process of interest, by pid (a process started meanwhile counts from 0). */
  const cpuByPid = (): Map<string, { group: string; ms: number }> => {
    const found = new Map<string, { group: string; ms: number }>();
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const group = groupOf(pid, stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
        if (!group) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        found.set(pid, { group, ms: (Number(fields[11]) + Number(fields[12])) * 10 });
      } catch {
        // the process ended meanwhile
      }
    }
    return found;
  };
  /**
   * Adds each group's CPU since `before` into `into` (only its times are read: a process is named at the
   * end). The backends are named first, so one a pool opened during the round counts for its client; only
   * one that ended meanwhile, or that Postgres has not listed yet, stays "postgres (new connection)".
   */
  const addCpu = async (before: Map<string, { group: string; ms: number }>, into: Map<string, number>) => {
    await readBackends();
    for (const [pid, { group, ms }] of cpuByPid()) into.set(group, (into.get(group) ?? 0) + ms - (before.get(pid)?.ms ?? 0));
  };

  let lastError = '';
  const apiShop = async (via = agent, port = PORT) => {
    const token = tokens.pop();
    if (!token) return false;
    const res = await post('/api/payments/checkout-nonce', JSON.stringify(orderBody(token, port === TAX_TABLE_PORT)), { 'idempotency-key': randomUUID() }, via, port);
    if (res.status !== 200) lastError = `${res.status} ${res.text}`;
    return res.status === 200;
  };

  // The ceiling: the same writes of one order, straight to Postgres (the same lines, prices and
  // totals as an API order of the same address, its stock taken per product in id order as the API does).
  const byId = new Map(products.map((p) => [p.id, p]));
  const bareShop = async () => {
    const key = randomUUID();
    const orderId = randomUUID();
    const lines = nextLines();
    const pricing = priceCart(
      lines.map(({ product: p, quantity }) => ({ productId: p.id, price: p.price, quantity })),
      { state: 'CA' },
    );
    const { productIds, quantities } = stockByProduct(lines.map(({ product: p, quantity }) => ({ productId: p.id, quantity })));
    const outcome = await reserveOrder(db.$client, {
      claim: { scope: 'bench', key, requestHash: 'h' },
      order: {
        id: orderId,
        storeCode: 'NH',
        userId: null,
        customerEmail: shopperEmail(),
        customerName: 'Bench Shopper',
        shippingAddress: { address: '1 Bench St', city: 'Loadville', state: 'CA', zip: '94000' },
        billingAddress: null,
        items: lines.map(({ product: p, quantity }, i) => ({
          productId: p.id,
          productName: p.name,
          variantSku: null,
          sku: p.sku,
          itemNumber: p.itemNumber,
          quantity,
          price: centsToDecimal(p.price),
          tax: centsToDecimal(pricing.lineTaxes[i] ?? 0),
        })),
        subtotal: pricing.subtotal,
        subscribeDiscount: pricing.subscribeDiscount,
        promoDiscount: pricing.promoDiscount,
        shipping: pricing.shipping,
        tax: pricing.tax,
        total: pricing.total,
        promoCode: null,
      },
      stock: productIds.map((id, i) => ({ productId: id, quantity: quantities[i]!, priceText: centsToDecimal(byId.get(id)!.price), variantsJson: '[]' })),
      singleUsePromoId: null,
    });
    if (outcome !== 'reserved') throw new Error(`bare SQL reservation: ${outcome}`);
    await recordAcceptedPayment(
      db.$client,
      { orderId, subscriptionId: null, billingPeriod: null, transactionId: '1', invoiceNumber: 'ORD-BENCH', amount: pricing.total, status: 'approved', responseCode: '1', responseMessage: 'ok', cardType: 'Visa', lastFour: '1111', environment: 'sandbox' },
      'processing',
      [{ topic: OUTBOX_TOPICS.orderPlaced, payload: { orderId } }],
      { scope: 'bench', key, status: 200, body: { orderId } },
    );
    return true;
  };

  // A second warm-up, as concurrent as the rounds: every connection of each pool is open and has
  // planned its statements (a new Postgres backend spends tens of ms on its first order) before any
  // round counts. Sequential orders above warm only one connection per pool, and the rest were opened,
  // and counted, in the first measured rounds.
  await round(() => apiShop(), 1, tally());
  if (VIA_PGBOUNCER) await round(() => apiShop(agent, PGBOUNCER_PORT), 1, tally());
  if (WITH_TAX_TABLE) await round(() => apiShop(agent, TAX_TABLE_PORT), 1, tally());
  await round(bareShop, 1, tally());

  // The machine is shared: alternate one-second rounds so a drift in outside load hits both alike.
  const api = tally();
  const pooled = tally();
  const taxed = tally();
  const bare = tally();
  const apiCpu = new Map<string, number>();
  const pooledCpu = new Map<string, number>();
  const bareCpu = new Map<string, number>();
  for (let i = 0; i < SECONDS; i++) {
    // Per process, so a Postgres backend that starts or ends during the round does not skew its group.
    const cpu0 = cpuByPid();
    await round(() => apiShop(), 1, api);
    await addCpu(cpu0, apiCpu);
    if (VIA_PGBOUNCER) {
      const cpuP = cpuByPid();
      await round(() => apiShop(agent, PGBOUNCER_PORT), 1, pooled);
      await addCpu(cpuP, pooledCpu);
    }
    if (WITH_TAX_TABLE) await round(() => apiShop(agent, TAX_TABLE_PORT), 1, taxed);
    const cpu1 = cpuByPid();
    await round(bareShop, 1, bare);
    await addCpu(cpu1, bareCpu);
  }
  api.latencies.sort((x, y) => x - y);
  pooled.latencies.sort((x, y) => x - y);
  taxed.latencies.sort((x, y) => x - y);
  bare.latencies.sort((x, y) => x - y);

  const { rows: backlog } = await db.$client.query<{ n: number }>('select count(*)::int as n from outbox where published_at is null');

  const rate = (r: Tally) => r.ok / r.seconds;
  const apiRate = rate(api);
  const bareRate = rate(bare);
  const fmt = (x: number) => x.toFixed(1);
  console.log('');
  console.log(`API (POST /api/payments/checkout-nonce): ${fmt(apiRate)} orders/s, p50 ${fmt(percentile(api.latencies, 50))} ms, p99 ${fmt(percentile(api.latencies, 99))} ms, ${api.ok} orders, ${api.failed} failed`);
  if (api.failed) console.log(`  last failure: ${lastError.slice(0, 300)}`);
  if (VIA_PGBOUNCER) {
    console.log(`API through PgBouncer (transaction mode):  ${fmt(rate(pooled))} orders/s, p50 ${fmt(percentile(pooled.latencies, 50))} ms, p99 ${fmt(percentile(pooled.latencies, 99))} ms, ${pooled.ok} orders, ${pooled.failed} failed`);
    console.log(`ratio through PgBouncer / direct: ${(rate(pooled) / apiRate).toFixed(2)} orders/s, p99 ${(percentile(pooled.latencies, 99) / Math.max(0.001, percentile(api.latencies, 99))).toFixed(2)}×`);
  } else console.log('API through PgBouncer: not measured (BENCH_PGBOUNCER=0, or /usr/sbin/pgbouncer missing: apt-get install pgbouncer)');
  if (WITH_TAX_TABLE) {
    // The p99s above are two samples of a noisy machine; what the table itself costs a checkout is the
    // pricing's own CPU time, measured here in-process on the same carts (both rules, alternating).
    const carts = products.slice(0, 20).map((p, i) => [
      { productId: p.id, price: p.price, quantity: 1 },
      { productId: products[(i * 7 + 3) % products.length]!.id, price: products[(i * 7 + 3) % products.length]!.price, quantity: 2 },
    ]);
    const timeOf = (price: (cart: (typeof carts)[number]) => unknown) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < 50_000; i++) price(carts[i % carts.length]!);
      return Number(process.hrtime.bigint() - start) / 1000 / 50_000;
    };
    const flatOnly = (cart: (typeof carts)[number]) => priceCart(cart, { state: TABLE_ADDRESS.state });
    const withTable = (cart: (typeof carts)[number]) => {
      const flat = priceCart(cart, { state: TABLE_ADDRESS.state });
      return withTax(flat, table.quoteNow({ to: TABLE_ADDRESS, lines: taxLinesOf(cart, flat), shipping: flat.shipping }));
    };
    timeOf(flatOnly);
    timeOf(withTable);
    const [f1, t1, f2, t2] = [timeOf(flatOnly), timeOf(withTable), timeOf(flatOnly), timeOf(withTable)];
    console.log(`pricing one order in-process: flat rule ${((f1 + f2) / 2).toFixed(1)} µs, rate table ${((t1 + t2) / 2).toFixed(1)} µs (the table adds ${((t1 + t2 - f1 - f2) / 2).toFixed(1)} µs per checkout)`);
    const p99Rise = percentile(taxed.latencies, 99) - percentile(api.latencies, 99);
    console.log(`API with TAX_MODE=table (CA 94103):        ${fmt(rate(taxed))} orders/s, p50 ${fmt(percentile(taxed.latencies, 50))} ms, p99 ${fmt(percentile(taxed.latencies, 99))} ms, ${taxed.ok} orders, ${taxed.failed} failed`);
    const verdict = taxed.failed > 0 ? `NOT met: ${taxed.failed} orders failed` : p99Rise <= 2 ? 'met' : 'NOT met';
    console.log(`rate table vs flat rule: p99 ${p99Rise >= 0 ? '+' : ''}${p99Rise.toFixed(1)} ms, orders/s ${(rate(taxed) / apiRate).toFixed(2)}× (goal: p99 at most +2 ms: ${verdict})`);
  } else console.log('API with TAX_MODE=table: not measured (BENCH_TAX_TABLE=0)');
  console.log(`bare SQL writes of one order:            ${fmt(bareRate)} orders/s, p50 ${fmt(percentile(bare.latencies, 50))} ms, p99 ${fmt(percentile(bare.latencies, 99))} ms`);
  const cpuLine = (what: string, cpu: Map<string, number>, orders: number) => {
    const perOrder = (ms: number) => (ms / Math.max(1, orders)).toFixed(2);
    const cpuTotal = [...cpu.values()].reduce((a, b) => a + b, 0);
    const cpuParts = [...cpu].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]).map(([group, ms]) => `${group} ${perOrder(ms)}`);
    console.log(`CPU ms per order during the ${what} rounds: ${perOrder(cpuTotal)} (${cpuParts.join(', ')}); at this cost ${os.cpus().length} CPUs allow ${((os.cpus().length * 1000 * orders) / Math.max(1, cpuTotal)).toFixed(0)} orders/s`);
  };
  cpuLine('API', apiCpu, api.ok);
  if (VIA_PGBOUNCER) cpuLine('PgBouncer API', pooledCpu, pooled.ok);
  cpuLine('bare SQL', bareCpu, bare.ok);
  {
    // The local sandbox gateway runs inside the API process (and Redis), so the lines above count it
    // under "api" and "redis". Its own share: the same charges made here, in this process, on fresh
    // tokens (made before the clock starts), 16 at a time as the shoppers do.
    const charges = 1000;
    const fresh: string[] = [];
    for (let i = 0; i < charges; i += 200) {
      const batch = await Promise.all(
        Array.from({ length: 200 }, () =>
          sandbox.tokenize({
            authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
            cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345' },
          }),
        ),
      );
      for (const answer of batch) if ('opaqueData' in answer) fresh.push(answer.opaqueData.dataValue);
    }
    const redisBefore = cpuByPid();
    const cpuBefore = process.cpuUsage();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let token = fresh[next++]; token; token = fresh[next++]) {
          await sandbox.chargeOpaqueData({
            opaqueData: { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: token },
            amount: 12.34,
            invoiceNumber: `BENCH-${next}`,
            email: 'bench@example.com',
            billTo: { firstName: 'Bench', lastName: 'Shopper', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
          });
        }
      }),
    );
    const used = process.cpuUsage(cpuBefore);
    const redisAfter = new Map<string, number>();
    await addCpu(redisBefore, redisAfter);
    const perCharge = (ms: number) => (ms / fresh.length).toFixed(2);
    console.log(`CPU ms per charge of the local sandbox gateway (part of "api" above; measured in this process on ${fresh.length} charges): ${perCharge((used.user + used.system) / 1000)} in the gateway, redis ${perCharge(redisAfter.get('redis') ?? 0)}`);
  }
  console.log(`ratio API / bare SQL: ${(apiRate / bareRate).toFixed(2)}`);
  console.log(`outbox rows not yet relayed at the end: ${backlog[0]!.n}; jobs not yet done: ${await jobsLeft()}${WITH_WORKER ? '' : ' (worker off)'}`);
  const met = apiRate >= GOAL.ordersPerSecond && percentile(api.latencies, 99) < GOAL.p99Ms;
  console.log(`goal (>= ${GOAL.ordersPerSecond} orders/s, p99 < ${GOAL.p99Ms} ms): ${met ? 'met' : 'NOT met'}`);

  if (RATES.length) {
    console.log('');
    // The nice value the worker set itself to (WORKER_NICE), read off its main thread.
    const workerNice = workerProcess?.pid ? os.getPriority(workerProcess.pid) : null;
    console.log(`open model (orders arrive at a fixed rate, ${OPEN_SECONDS}s each, worker ${workerNice === null ? 'off' : `running at nice ${workerNice}`}; latency from the due time):`);
    console.log('  rate/s  rule    achieved/s      p50      p95      p99      max  failed  CPU ms/order');
    // With the rate-table API, each rate runs on both, flat first: the table's p99 beside the flat rule's.
    const rules = WITH_TAX_TABLE ? [{ name: 'flat', port: PORT }, { name: 'table', port: TAX_TABLE_PORT }] : [{ name: 'flat', port: PORT }];
    for (const rate of RATES) {
      const p99s: number[] = [];
      for (const rule of rules) {
        // Each run starts once the worker has done what the run before it left behind.
        await settle();
        const sessions0 = await sessionsOpened();
        const cpu0 = cpuByPid();
        const run = await openRun(() => apiShop(openAgent, rule.port), rate, OPEN_SECONDS);
        // The CPU of a run counts until the worker has caught up, so work it put off counts too.
        const behind = WITH_WORKER ? await jobsLeft() : 0;
        const drainMs = await settle();
        const cpu = new Map<string, number>();
        await addCpu(cpu0, cpu);
        const cpuMs = [...cpu.values()].reduce((a, b) => a + b, 0);
        const ms = (p: number) => `${fmt(percentile(run.latencies, p))} ms`.padStart(9);
        p99s.push(percentile(run.latencies, 99));
        console.log(
          `  ${String(rate).padStart(6)}  ${rule.name.padEnd(6)}${fmt(run.ok / run.seconds).padStart(10)}${ms(50)}${ms(95)}${ms(99)}${ms(100)}  ${String(run.failed).padStart(6)}  ${(cpuMs / Math.max(1, run.ok)).toFixed(2).padStart(12)}`,
        );
        if (run.failed) console.log(`    last failure: ${lastError.slice(0, 300)}`);
        if (WITH_WORKER) console.log(`    worker: ${behind} jobs not yet done at the end of the run, all done ${(drainMs / 1000).toFixed(1)} s later`);
        if (process.env.BENCH_CPU_DETAIL) {
          cpuLine(`${rate}/s ${rule.name}`, cpu, run.ok);
          console.log(`    database sessions opened during the run: ${(await sessionsOpened()) - sessions0}`);
        }
      }
      if (p99s.length === 2) console.log(`          table − flat: p99 ${p99s[1]! - p99s[0]! >= 0 ? '+' : ''}${fmt(p99s[1]! - p99s[0]!)} ms (goal: at most +2 ms)`);
    }
  }

  await db.$client.end();
  await redis.quit();
}

async function stopChildren(): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
        }),
    ),
  );
  agent.destroy();
  openAgent.destroy();
  await bouncer?.stop();
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => void stopChildren());
