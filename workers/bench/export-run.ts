/**
 * Child process of bench:export: runs the real export processor for EXPORT_ID and prints one JSON line
 * with its duration and this process's peak RSS (sampled, and the kernel's maxRSS).
 */
import type { Job } from 'bullmq';
import { createDb } from '@nh/server/db/client';
import { createLogger } from '@nh/server/observability/logger';
import { localFileStorage } from '@nh/server/storage';
import { createExportProcessor } from '../src/exports/processor';

const db = createDb({ url: process.env.DATABASE_URL!, max: 3 });
await db.$client.query('select 1');
const baselineRss = process.memoryUsage().rss;
let peak = baselineRss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 25);
const processor = createExportProcessor({
  db,
  log: createLogger('bench-export', 'warn'),
  files: localFileStorage(process.env.EXPORTS_DIR!),
  progressEvery: Number(process.env.EXPORT_PROGRESS_EVERY ?? 10_000),
  retentionHours: 24,
});
const job = { id: 'bench-export', name: 'export-orders', data: { exportId: process.env.EXPORT_ID }, updateProgress: async () => {} } as unknown as Job;
const started = performance.now();
const result = await processor(job, job.data as { exportId: string });
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ result, seconds, baselineRss, peakRssSampled: peak, maxRss: process.resourceUsage().maxRSS * 1024 }));
await db.$client.end();
