/**
 * bench:export — seeds BENCH_EXPORT_ROWS orders (default 1,000,000) into a dedicated bench database
 * (once; generate_series in SQL), exports them with the real export processor in a child process, and
 * prints seconds, rows/s and the exporting process's peak memory; then the time of
 * `COPY (same query) TO STDOUT WITH CSV` (psql) for the same rows. Goals: < 30 s, < 192 MB (issue 26).
 * Then the start-up weight of a real worker process: the RSS of the esbuild bundle (as the Procfile runs
 * it) once it logged "workers started", consuming the exports queue alone and every queue.
 * BENCH_EXPORT_STORAGE=s3 writes the file to a local S3-protocol server (MinIO when installed, s3rver
 * otherwise; STORAGE_URL as in production: a multipart upload) instead of the local folder.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '@nh/server/db/client';
import { seedBenchOrders } from '@nh/server/testing/bench-orders';
import { EXPORT_SQL } from '@nh/server/queries/order-export';
import { randomBytes } from 'node:crypto';
import { DEFAULT_REDIS_URL } from '@nh/server/runtime/env';
import { startTestS3 } from '@nh/server/testing/s3-server';
import { purgeQueuePrefix } from '../test/support/setup';
import { benchDatabase, buildWorkerBundle, fmt, ROOT, spawnWorker, stopWorker } from './support';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const STORAGE = process.env.BENCH_EXPORT_STORAGE ?? 'local';
if (STORAGE !== 'local' && STORAGE !== 's3') throw new Error('BENCH_EXPORT_STORAGE is local (the default) or s3');
const MB = 1024 * 1024;

const databaseUrl = await benchDatabase('nh_bench_export');
const db = createDb({ url: databaseUrl, max: 2 });
const seedStarted = performance.now();
if (await seedBenchOrders(db, ROWS)) console.log(`seeded ${fmt(ROWS)} orders in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);

const exportsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-bench-export-'));
const { rows: [row] } = await db.$client.query<{ id: string }>(`insert into exports (store_code) values ('NH') returning id`);

const s3 = STORAGE === 's3' ? await startTestS3() : null;
const child = spawn(process.execPath, ['--import', 'tsx', 'workers/bench/export-run.ts'], {
  cwd: ROOT,
  env: { ...process.env, DATABASE_URL: databaseUrl, EXPORT_ID: row!.id, EXPORTS_DIR: exportsDir, ...s3?.env('bench') },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
child.stdout.on('data', (c: Buffer) => (out += c.toString()));
await new Promise((resolve) => child.once('exit', resolve));
await s3?.close();
const measured = JSON.parse(out.trim().split('\n').pop()!) as { result: { rows: number; fileKey: string }; seconds: number; size: number; location: string; baselineRss: number; peakRssSampled: number; peakBuffers: number; maxRss: number };
console.log(`bench:export — ${fmt(measured.result.rows)} orders, to ${STORAGE === 's3' ? `a local S3 server (${measured.location})` : 'the local folder'}`);
console.log(`worker export: ${fmt(measured.seconds, 2)} s, ${fmt(measured.result.rows / measured.seconds)} rows/s, ${fmt(measured.size / MB, 1)} MB file`);
const peakRss = Math.max(measured.peakRssSampled, measured.maxRss);
console.log(`  peak RSS of the exporting process (tsx): ${fmt(peakRss / MB, 1)} MB (goal < 192 MB); ${fmt(measured.baselineRss / MB, 1)} MB before the export started, so the export added ${fmt((peakRss - measured.baselineRss) / MB, 1)} MB (Buffers at most ${fmt(measured.peakBuffers / MB, 1)} MB)`);

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
console.log(`goal < 30 s: ${measured.seconds < 30 ? 'met' : 'NOT met'}; goal < 192 MB: ${peakRss < 192 * MB ? 'met' : 'NOT met'}`);

// A worker's start-up weight (the bundle, no tracing preload, no relay): VmRSS once it says "workers started".
const bundle = await buildWorkerBundle();
for (const queues of ['exports', '']) {
  const prefix = `nhbench-export-${randomBytes(3).toString('hex')}`;
  const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const worker = await spawnWorker({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, WORKER_QUEUES: queues, RELAY_ENABLED: 'false', EXPORTS_DIR: exportsDir, MAIL_OUTBOX_DIR: path.join(exportsDir, 'mail') }, 'bundle');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const status = fs.readFileSync(`/proc/${worker.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  await stopWorker(worker);
  await purgeQueuePrefix(redisUrl, prefix);
  console.log(`worker at start (node ${bundle}, WORKER_QUEUES=${queues || 'every queue'}): RSS ${fmt(kb('VmRSS') / 1024, 1)} MB (high-water ${fmt(kb('VmHWM') / 1024, 1)} MB)`);
}

fs.rmSync(exportsDir, { recursive: true, force: true });
await db.$client.query('delete from exports');
await db.$client.end();
