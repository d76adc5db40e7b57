/**
 * bench:admin — the back office's order table over 1,000,000 orders (BENCH_ADMIN_ROWS): the real API
 * (in this process, a staff session cookie) answers POST /api/admin/orders for each filter below,
 * BENCH_ADMIN_REPEATS times each, one request at a time; prints p50, p95 and max of the first page
 * (100 rows and the capped count). Goal: first page p95 under 100 ms for every filter.
 * The orders are seeded once into the bench database shared with bench:export (nh_bench_export).
 *
 * Then the customers (issue 23) over the same orders and BENCH_ADMIN_PLANS (100,000) accounts with a
 * plan each: the list (newest, by lifetime spend, searched by email, name and order number, by tag, a
 * later page) and customers' pages (GET /api/admin/customers/{id}), same goal.
 *
 * Then each report (issue 23) over a 90-day range: sales, top products, customers, revenue mix,
 * subscriptions (91 days of snapshots and their movements written first, as the maintenance job writes
 * them) and stock cover; goal p95 under 250 ms. The four order
 * reports read the daily summary; their queries are then timed beside the same figures counted live from
 * the orders (the queries before the summary, BENCH_ADMIN_LIVE_REPEATS times: seconds each), with a check
 * that both give the same rows.
 *
 * Then the plans' at-risk list (GET /api/admin/subscriptions/at-risk) over the BENCH_ADMIN_PLANS plans:
 * every reason, and each reason alone, `stock-short` above all (the stock cover's walk over the next
 * 30 days of renewals, per plan on the page and for the count); same goal as a first page (100 ms).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb } from '@nh/server/db/client';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import { DEFAULT_DATABASE_URL } from '@nh/server/runtime/env';
import { insertStaff } from '@nh/server/queries/staff';
import { applyMigrations, ensureDatabase } from '@nh/server/runtime/database';
import { hashPassword } from '@nh/server/passwords';
import { seedBenchOrders } from '@nh/server/testing/bench-orders';
import { seedBenchCustomers } from '@nh/server/testing/bench-customers';
import { seedBenchSnapshots } from '@nh/server/testing/bench-snapshots';
import { customerFigures, revenueMix, salesFigures, topProducts, type Periods } from '@nh/server/queries/sales-reports';
import { comparableRows, liveCustomerFigures, liveRevenueMix, liveSalesFigures, liveTopProducts } from '@nh/server/testing/live-sales-reports';
import { createApp } from '../src/app';
import { loadApiConfig } from '../src/lib/config';
import { createAppServices } from '../src/modules';

const ROWS = Number(process.env.BENCH_ADMIN_ROWS ?? 1_000_000);
const REPEATS = Number(process.env.BENCH_ADMIN_REPEATS ?? 40);
const PLANS = Number(process.env.BENCH_ADMIN_PLANS ?? 100_000);
const GOAL_P95_MS = 100;
/**
 * The sections to run (BENCH_ADMIN_SECTIONS, comma-separated): orders, customers, reports, at-risk (default all);
 * `subscriptions` runs the subscriptions report alone.
 */
const SECTIONS = new Set((process.env.BENCH_ADMIN_SECTIONS ?? 'orders,customers,reports,at-risk').split(',').map((x) => x.trim()));

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** The filters staff use, from none to several at once. */
const FILTERS: Array<[string, Record<string, unknown>]> = [
  ['newest first, no filter', {}],
  ['status shipped', { status: 'shipped' }],
  ['NetSuite failed', { netsuiteStatus: 'failed' }],
  ['promo WELCOME10', { promo: 'WELCOME10' }],
  ['last 7 days', { from: day(7), to: day(0) }],
  ['a day 6 days ago', { from: day(6), to: day(6) }],
  ['cancelled + NetSuite failed + promo', { status: 'cancelled', netsuiteStatus: 'failed', promo: 'WELCOME10' }],
  ['total, highest first', { sort: 'total', direction: 'desc' }],
  ['oldest first', { sort: 'createdAt', direction: 'asc' }],
  ['page 50 (offset 4,900)', { offset: 4900 }],
  ['search email "customer12345@"', { search: 'customer12345@' }],
  ['search order id prefix', { search: '0000' }],
];

const url = new URL(process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
if (!process.env.BENCH_DATABASE_URL) url.pathname = '/nh_bench_export';
await ensureDatabase(url.toString());
await applyMigrations(url.toString());
const config = loadApiConfig({ ...process.env, DATABASE_URL: url.toString(), LOG_LEVEL: 'silent', PORT: '0', RATE_LIMIT_PREFIX: `bench-admin-${process.pid}` });
const db = createDb({ url: config.DATABASE_URL, max: 10 });
const seedStarted = performance.now();
if (await seedBenchOrders(db, ROWS)) console.log(`seeded ${ROWS.toLocaleString('en-US')} orders in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
const plansStarted = performance.now();
if (await seedBenchCustomers(db, PLANS)) console.log(`seeded ${PLANS.toLocaleString('en-US')} accounts with a plan each in ${((performance.now() - plansStarted) / 1000).toFixed(1)} s`);

const redis = createRedis(config.REDIS_URL);
const ctx = { config, db, readDb: db, redis, log: createLogger('bench', 'silent') };
const server = createServer(createApp(ctx, createAppServices(ctx)).listener);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const email = `bench-${process.pid}-${Date.now()}@staff.test`;
await insertStaff(db, { email, name: 'Bench', role: 'manager', passwordHash: await hashPassword('bench password 123') });
const signIn = await fetch(`${base}/api/admin/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'bench password 123' }) });
const cookie = signIn.headers
  .getSetCookie()
  .map((c) => c.split(';')[0]!)
  .find((c) => c.startsWith('nh.staff='))!;

async function firstPage(filters: Record<string, unknown>): Promise<{ ms: number; total: string }> {
  const started = performance.now();
  const res = await fetch(`${base}/api/admin/orders`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ storeCode: 'NH', limit: 100, ...filters }) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`orders list answered ${res.status}`);
  return { ms: performance.now() - started, total: `${res.headers.get('x-total-count')}${res.headers.get('x-total-capped') === 'true' ? '+' : ''}` };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

if (SECTIONS.has('orders')) console.log(`bench:admin — order table over ${ROWS.toLocaleString('en-US')} orders, ${REPEATS} requests per filter, one at a time`);
let worst = 0;
for (const [name, filters] of SECTIONS.has('orders') ? FILTERS : []) {
  await firstPage(filters); // warm-up
  const times: number[] = [];
  let total = '';
  for (let i = 0; i < REPEATS; i++) {
    const r = await firstPage(filters);
    times.push(r.ms);
    total = r.total;
  }
  times.sort((a, b) => a - b);
  const p95 = pct(times, 95);
  worst = Math.max(worst, p95);
  console.log(`  ${name.padEnd(38)} p50 ${pct(times, 50).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  max ${times.at(-1)!.toFixed(1).padStart(6)} ms  (${total} match)`);
}
if (SECTIONS.has('orders')) console.log(`worst p95 ${worst.toFixed(1)} ms; goal first page p95 < ${GOAL_P95_MS} ms: ${worst < GOAL_P95_MS ? 'met' : 'NOT met'}`);

// ---- Customers (issue 23)
async function timed(path: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, { headers: { cookie } });
  const body: unknown = await res.json();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return { ms: performance.now() - started, body };
}

const { rows: sample } = await db.$client.query<{ id: string; customer_id: string }>(
  `select o.id, o.customer_id from orders o tablesample system (1) join customers c on c.id = o.customer_id and c.user_id is not null limit ${REPEATS}`,
);
const orderPrefix = sample[0]?.id.slice(0, 8) ?? '0000';
const CUSTOMER_QUERIES: Array<[string, string | ((i: number) => string)]> = [
  ['list, last order first', '/api/admin/customers'],
  ['list, lifetime spend first', '/api/admin/customers?sort=spend'],
  ['list, spend, page 20', '/api/admin/customers?sort=spend&page=20'],
  ['search email "customer12345@"', '/api/admin/customers?q=customer12345%40'],
  ['search email, by spend', '/api/admin/customers?q=customer4242&sort=spend'],
  ['search name "Carol Shopper 77"', '/api/admin/customers?q=Carol%20Shopper%2077'],
  ['search order number prefix', `/api/admin/customers?q=${orderPrefix}`],
  ['tag "vip", by spend', '/api/admin/customers?tag=vip&sort=spend'],
  ['customer page (account with a plan)', (i) => `/api/admin/customers/${sample[i % Math.max(1, sample.length)]?.customer_id}`],
];
const { rows: counts } = await db.$client.query<{ customers: number; plans: number }>(`select (select count(*)::int from customers) as customers, (select count(*)::int from subscriptions) as plans`);
if (SECTIONS.has('customers')) console.log(`\nbench:admin — customers: ${counts[0]!.customers.toLocaleString('en-US')} customers, ${counts[0]!.plans.toLocaleString('en-US')} plans, ${REPEATS} requests each, one at a time`);
let worstCustomers = 0;
for (const [name, path] of SECTIONS.has('customers') ? CUSTOMER_QUERIES : []) {
  const at = (i: number) => (typeof path === 'string' ? path : path(i));
  await timed(at(0)); // warm-up
  const times: number[] = [];
  let shown = '';
  for (let i = 0; i < REPEATS; i++) {
    const r = await timed(at(i));
    times.push(r.ms);
    const b = r.body as { customers?: unknown[]; timeline?: unknown[] };
    shown = b.customers ? `${b.customers.length} rows` : `${b.timeline?.length ?? 0} timeline entries`;
  }
  times.sort((a, b) => a - b);
  const p95 = pct(times, 95);
  worstCustomers = Math.max(worstCustomers, p95);
  console.log(`  ${name.padEnd(38)} p50 ${pct(times, 50).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  max ${times.at(-1)!.toFixed(1).padStart(6)} ms  (${shown})`);
}
if (SECTIONS.has('customers')) console.log(`customers worst p95 ${worstCustomers.toFixed(1)} ms; goal first page p95 < ${GOAL_P95_MS} ms: ${worstCustomers < GOAL_P95_MS ? 'met' : 'NOT met'}`);

// ---- Reports (issue 23): each over a 90-day range (and the 90 days before it), goal p95 < 250 ms.
const REPORT_GOAL_P95_MS = 250;
// The subscriptions report sums the range's daily movements: 91 days of snapshots, written as the
// maintenance job writes them, with a day of plan changes before each (kept; a second bench run adds none).
const SNAPSHOT_DAYS = 91;
if (SECTIONS.has('reports') || SECTIONS.has('subscriptions')) {
  const snapshotsStarted = performance.now();
  const written = await seedBenchSnapshots(db, SNAPSHOT_DAYS, day);
  if (written) console.log(`wrote ${written} days' plan snapshots and movements in ${((performance.now() - snapshotsStarted) / 1000).toFixed(1)} s`);
}
const range = `from=${day(89)}&to=${day(0)}`;
const REPORTS: Array<[string, string]> = [
  ['sales', `/api/admin/reports/sales?${range}`],
  ['top products', `/api/admin/reports/top-products?${range}`],
  ['new vs returning customers', `/api/admin/reports/customers?${range}`],
  ['subscription vs one-time revenue', `/api/admin/reports/revenue-mix?${range}`],
  ['subscriptions (MRR, movement, churn)', `/api/admin/reports/subscriptions?${range}`],
  ['stock cover (next 30 days)', '/api/admin/reports/stock-cover'],
];
if (SECTIONS.has('reports')) console.log(`\nbench:admin — reports over 90 days (${day(89)} to ${day(0)}), ${REPEATS} requests each, one at a time`);
let worstReport = 0;
const reportsRun = SECTIONS.has('reports') ? REPORTS : REPORTS.filter(([, path]) => SECTIONS.has('subscriptions') && path.startsWith('/api/admin/reports/subscriptions'));
if (!SECTIONS.has('reports') && reportsRun.length) console.log(`\nbench:admin — the subscriptions report over 90 days (${day(89)} to ${day(0)}), ${REPEATS} requests, one at a time`);
for (const [name, path] of reportsRun) {
  await timed(path); // warm-up
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) times.push((await timed(path)).ms);
  times.sort((a, b) => a - b);
  const p95 = pct(times, 95);
  worstReport = Math.max(worstReport, p95);
  console.log(`  ${name.padEnd(38)} p50 ${pct(times, 50).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  max ${times.at(-1)!.toFixed(1).padStart(6)} ms`);
}
if (reportsRun.length) console.log(`reports worst p95 ${worstReport.toFixed(1)} ms; goal p95 < ${REPORT_GOAL_P95_MS} ms: ${worstReport < REPORT_GOAL_P95_MS ? 'met' : 'NOT met'}`);

// ---- The order reports' queries: the daily summary against the orders counted live, same data, same run.
const LIVE_REPEATS = Number(process.env.BENCH_ADMIN_LIVE_REPEATS ?? 5);
const periods: Periods = { storeCode: 'NH', previousFrom: day(179), from: day(89), to: day(0) };
const rowsOf = (rows: object[]) => JSON.stringify(comparableRows(rows));
const PAIRS: Array<[string, () => Promise<object[]>, () => Promise<object[]>]> = [
  ['sales', () => salesFigures(db.$client, periods), () => liveSalesFigures(db.$client, periods)],
  ['top products', () => topProducts(db.$client, periods, 10), () => liveTopProducts(db.$client, periods, 10)],
  ['new vs returning customers', () => customerFigures(db.$client, periods), () => liveCustomerFigures(db.$client, periods)],
  ['subscription vs one-time revenue', () => revenueMix(db.$client, periods), () => liveRevenueMix(db.$client, periods)],
];
async function p95Of(run: () => Promise<object[]>, repeats: number): Promise<{ p95: number; rows: object[] }> {
  let rows = await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    rows = await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p95: pct(times, 95), rows };
}
if (SECTIONS.has('reports')) console.log(`\nbench:admin — order reports' queries, summary (${REPEATS} runs) vs counted live from the orders (${LIVE_REPEATS} runs), same 90 days`);
for (const [name, summary, live] of SECTIONS.has('reports') ? PAIRS : []) {
  const s = await p95Of(summary, REPEATS);
  const l = await p95Of(live, LIVE_REPEATS);
  const same = rowsOf(s.rows) === rowsOf(l.rows);
  console.log(`  ${name.padEnd(38)} summary p95 ${s.p95.toFixed(1).padStart(7)} ms  live p95 ${l.p95.toFixed(1).padStart(8)} ms  ${(l.p95 / s.p95).toFixed(0).padStart(5)}× faster  ${same ? 'same rows' : 'DIFFERENT rows'}`);
}

// ---- The at-risk list (issue 23): its stock check (stock-short) walks the stock cover's window.
const AT_RISK: Array<[string, string]> = [
  ['at risk, stock runs short', '/api/admin/subscriptions/at-risk?reason=stock-short'],
  ['at risk, stock short, page 5', '/api/admin/subscriptions/at-risk?reason=stock-short&offset=200'],
  ['at risk, every reason', '/api/admin/subscriptions/at-risk'],
  ['at risk, item unavailable', '/api/admin/subscriptions/at-risk?reason=item-unavailable'],
];
// The plans' item (product 1) must exist for the stock walk to have rows: the bench's orders name it but
// seed no product. Its stock covers about two in five of the units due in the window, so the walk finds
// a shortage partway through it and most due plans are listed as stock-short.
const STOCK_SHORT_INVENTORY = 50_000;
if (SECTIONS.has('at-risk')) {
  await db.$client.query(
    `insert into products (id, name, slug, price, inventory, status, sku) values (1, 'Flush Probiotic Toilet Cleaner', 'bench-flush', 12.99, $1, 'active', 'NH-FLU-24')
     on conflict (id) do update set inventory = excluded.inventory, status = 'active'`,
    [STOCK_SHORT_INVENTORY],
  );
}
if (SECTIONS.has('at-risk')) console.log(`\nbench:admin — at-risk plans over ${counts[0]!.plans.toLocaleString('en-US')} plans, ${REPEATS} requests each, one at a time`);
let worstAtRisk = 0;
for (const [name, path] of SECTIONS.has('at-risk') ? AT_RISK : []) {
  await timed(path); // warm-up
  const times: number[] = [];
  let shown = '';
  for (let i = 0; i < REPEATS; i++) {
    const r = await timed(path);
    times.push(r.ms);
    const b = r.body as { plans: unknown[]; total: number };
    shown = `${b.plans.length} rows of ${b.total.toLocaleString('en-US')}`;
  }
  times.sort((a, b) => a - b);
  const p95 = pct(times, 95);
  worstAtRisk = Math.max(worstAtRisk, p95);
  console.log(`  ${name.padEnd(38)} p50 ${pct(times, 50).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  max ${times.at(-1)!.toFixed(1).padStart(6)} ms  (${shown})`);
}
if (SECTIONS.has('at-risk')) console.log(`at-risk worst p95 ${worstAtRisk.toFixed(1)} ms; goal first page p95 < ${GOAL_P95_MS} ms: ${worstAtRisk < GOAL_P95_MS ? 'met' : 'NOT met'}`);

await db.$client.query('delete from staff where email = $1', [email]);
server.close();
await Promise.allSettled([db.$client.end(), redis.quit()]);
