/**
 * bench:export — seeds BENCH_EXPORT_ROWS orders (default 1,000,000) into a dedicated bench database
 * (once; generate_series in SQL), exports them with the real export processor in a child process, and
 * prints seconds, rows/s and the exporting process's peak memory; then the time of
 * `COPY (same query) TO STDOUT WITH CSV` (psql) for the same rows. Goals: < 30 s, < 256 MB.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '@nh/server';
import { EXPORT_SQL } from '../src/exports/columns';
import { benchDatabase, fmt, ROOT } from './support';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const MB = 1024 * 1024;

const LINE_A = `{"productId":1,"productName":"Flush Probiotic Toilet Cleaner","variantSku":"NH-FLU-24","sku":"NH-FLU-24","itemNumber":"NH1001","quantity":2,"price":"12.99"}`;
const LINE_B = `{"productId":2,"productName":"Dish Pods, Lemon","variantSku":null,"sku":"NH-DSH-30","itemNumber":"NH1002","quantity":1,"price":"14.99"}`;

const databaseUrl = await benchDatabase('nh_bench_export');
const db = createDb({ url: databaseUrl, max: 2 });
const { rows: [{ n } = { n: 0 }] } = await db.$client.query<{ n: number }>(`select count(*)::int as n from orders where store_code = 'NH'`);
if (n !== ROWS) {
  console.log(`seeding ${fmt(ROWS)} orders…`);
  const t = performance.now();
  await db.$client.query('truncate orders cascade');
  await db.$client.query(
    `insert into orders (store_code, customer_email, customer_name, customer_phone, shipping_address, items,
                         subtotal, shipping, tax, total, promo_code, status, carrier, tracking_number, created_at, netsuite_sync_status)
     select 'NH', 'customer' || g || '@example.com',
            (array['Alice','Bob','Carol','=Dan'])[1 + g % 4] || ' Shopper ' || g,
            case when g % 3 = 0 then null else '+1 555 ' || lpad((g % 10000)::text, 4, '0') end,
            '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}'::jsonb,
            case when g % 2 = 0 then '[${LINE_A}]'::jsonb else '[${LINE_A},${LINE_B}]'::jsonb end,
            case when g % 2 = 0 then 25.98 else 40.97 end, 9.99, 2.08, case when g % 2 = 0 then 38.05 else 53.04 end,
            case when g % 5 = 0 then 'WELCOME10' end,
            (array['pending','processing','shipped','delivered','cancelled']::order_status[])[1 + g % 5],
            case when g % 4 = 0 then 'UPS' end, case when g % 4 = 0 then '1Z' || g end,
            now() - make_interval(secs => g), (array['synced','pending','failed'])[1 + g % 3]
     from generate_series(1, $1::int) g`,
    [ROWS],
  );
  await db.$client.query('analyze orders');
  console.log(`  seeded in ${fmt((performance.now() - t) / 1000, 1)} s`);
}

const exportsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-bench-export-'));
const { rows: [row] } = await db.$client.query<{ id: string }>(`insert into exports (store_code) values ('NH') returning id`);

const child = spawn(process.execPath, ['--import', 'tsx', 'workers/bench/export-run.ts'], {
  cwd: ROOT,
  env: { ...process.env, DATABASE_URL: databaseUrl, EXPORT_ID: row!.id, EXPORTS_DIR: exportsDir },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
child.stdout.on('data', (c: Buffer) => (out += c.toString()));
await new Promise((resolve) => child.once('exit', resolve));
const measured = JSON.parse(out.trim().split('\n').pop()!) as { result: { rows: number; filePath: string }; seconds: number; baselineRss: number; peakRssSampled: number; maxRss: number };
const size = fs.statSync(measured.result.filePath).size;
console.log(`bench:export — ${fmt(measured.result.rows)} orders`);
console.log(`worker export: ${fmt(measured.seconds, 2)} s, ${fmt(measured.result.rows / measured.seconds)} rows/s, ${fmt(size / MB, 1)} MB file`);
console.log(`  peak RSS of the exporting process: ${fmt(Math.max(measured.peakRssSampled, measured.maxRss) / MB, 1)} MB (goal < 256 MB); ${fmt(measured.baselineRss / MB, 1)} MB before the export started`);

// COPY of the same query, rows streamed by the server to psql (the floor for any exporter).
const copySql = `COPY (${EXPORT_SQL.replace('$1', `'NH'`)}) TO STDOUT WITH CSV HEADER`;
const copyFile = path.join(exportsDir, 'copy.csv');
const t = performance.now();
await new Promise<void>((resolve, reject) => {
  const psql = spawn('psql', [databaseUrl, '-v', 'ON_ERROR_STOP=1', '-c', copySql], { stdio: ['ignore', fs.openSync(copyFile, 'w'), 'inherit'] });
  psql.once('error', reject);
  psql.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited with ${code}`))));
});
const copySeconds = (performance.now() - t) / 1000;
console.log(`COPY (…) TO STDOUT WITH CSV: ${fmt(copySeconds, 2)} s (${fmt(fs.statSync(copyFile).size / MB, 1)} MB); worker/COPY time ratio ${fmt(measured.seconds / copySeconds, 2)}`);
console.log(`goal < 30 s: ${measured.seconds < 30 ? 'met' : 'NOT met'}; goal < 256 MB: ${Math.max(measured.peakRssSampled, measured.maxRss) < 256 * MB ? 'met' : 'NOT met'}`);

fs.rmSync(exportsDir, { recursive: true, force: true });
await db.$client.query('delete from exports');
await db.$client.end();
