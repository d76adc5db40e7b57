/**
 * Child process of bench:export: runs the real export processor for EXPORT_ID and prints one JSON line
 * with its duration, the file's size and this process's peak RSS (sampled, and the kernel's maxRSS).
 * The file goes to EXPORTS_DIR, or with STORAGE_URL (and the S3_* settings) to that bucket, as a worker
 * configured so would write it.
 */
import type { Job } from 'bullmq';
import { createDb } from '@nh/server/db/client';
import { createLogger } from '@nh/server/observability/logger';
import { createFileStores, storageEnvShape } from '@nh/server/storage';
import { z } from 'zod';
import { createExportProcessor } from '../src/exports/processor';
import { ROOT } from './support';

const db = createDb({ url: process.env.DATABASE_URL!, max: 3 });
await db.$client.query('select 1');
const baselineRss = process.memoryUsage().rss;
let peak = baselineRss;
/** Peak of the memory outside V8's heap held by Buffers (stream chunks, upload parts). */
let peakBuffers = 0;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peak = Math.max(peak, usage.rss);
  peakBuffers = Math.max(peakBuffers, usage.arrayBuffers);
}, 25);
// The store is made (and, for S3, its SDK loaded on first use) as the worker makes it: inside the measurement.
const { exports: files } = createFileStores(z.object(storageEnvShape(ROOT)).parse(process.env), { exports: process.env.EXPORTS_DIR! });
const processor = createExportProcessor({
  db,
  log: createLogger('bench-export', 'warn'),
  files,
  progressEvery: Number(process.env.EXPORT_PROGRESS_EVERY ?? 10_000),
  retentionHours: 24,
});
const job = { id: 'bench-export', name: 'export-orders', data: { exportId: process.env.EXPORT_ID }, updateProgress: async () => {} } as unknown as Job;
const started = performance.now();
const result = await processor(job, job.data as { exportId: string });
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const size = 'fileKey' in result ? ((await files.stat(result.fileKey))?.size ?? NaN) : NaN;
console.log(JSON.stringify({ result, seconds, size, location: files.location, baselineRss, peakRssSampled: peak, peakBuffers, maxRss: process.resourceUsage().maxRSS * 1024 }));
await db.$client.end();
