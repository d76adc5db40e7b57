/**
 * A worker process's metrics: the default process metrics and the workers' metric objects of
 * `@nh/server/observability/metrics` (job durations and failures, the gateway's latency, and those the NetSuite
 * client, the renewals, the emails and the exports record), plus gauges read at scrape time: each
 * queue's jobs by state and the age of its oldest waiting job, the outbox rows not yet relayed and the
 * age of the oldest, the reports' summary notes not yet folded in, and when the last renewal sweep completed. Each read gives up after
 * SCRAPE_READ_TIMEOUT_MS (the scrape still answers; the gauges of that read are then absent and
 * `nh_metrics_read_failures_total` counts it).
 *
 * Every worker process reports every queue (the depth is Redis's, not the process's): aggregate with
 * `max by (queue)`.
 */
import type { Queue } from 'bullmq';
import { Counter, Gauge } from 'prom-client';
import type { Db } from '@nh/server/db/client';
import type { RedisClient } from '@nh/server/runtime/redis';
import { createMetricsRegistry, WORKER_METRICS, withinTimeout, type Registry } from '@nh/server/observability/metrics';
import { exportRowsPerSecond } from '@nh/server/queries/order-export';
import { outboxBacklog } from '@nh/server/queries/outbox';
import { reportSummaryBacklog } from '@nh/server/queries/report-summary';
import { QUEUE_NAMES, readQueueDepth, type QueueName } from '@nh/server/runtime/queues';
import { lastSweepAt } from './renewals/sweep';

/** How long one scrape-time read (the queues, the outbox, the sweep marker) may take. */
export const SCRAPE_READ_TIMEOUT_MS = 1500;

/** Job states reported per queue; `waiting` includes prioritized jobs. */
const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

interface QueueReading {
  counts: Record<(typeof STATES)[number], number>;
  /** Age of the oldest waiting job in seconds (0 when none waits). */
  oldestWaitingAge: number;
}

async function readQueue(queue: Queue, now: number): Promise<QueueReading> {
  const depth = await readQueueDepth(queue, SCRAPE_READ_TIMEOUT_MS);
  if (!depth) throw new Error(`queue ${queue.name} did not answer`);
  const { oldestWaitingAt, ...counts } = depth;
  return { counts, oldestWaitingAge: oldestWaitingAt === null ? 0 : Math.max(0, (now - oldestWaitingAt) / 1000) };
}

/**
 * One read for several gauges of one scrape: prom-client collects every metric of a scrape at once, so
 * the gauges sharing a read share its promise (kept for a second, then read again).
 */
function sharedRead<T>(read: () => Promise<T | null>): () => Promise<T | null> {
  let last: { at: number; value: Promise<T | null> } | null = null;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > 1000) last = { at: now, value: read() };
    return last.value;
  };
}

export interface WorkerMetricsDeps {
  db: Db;
  queues: Record<QueueName, Queue>;
  /** The producers' Redis (fails fast), for the sweep marker. */
  redis: RedisClient;
}

/** The registry a worker process serves on METRICS_PORT. */
export function createWorkerMetrics({ db, queues, redis }: WorkerMetricsDeps): Registry {
  const registry = createMetricsRegistry(WORKER_METRICS);
  const readFailures = new Counter({
    name: 'nh_metrics_read_failures_total',
    help: 'Scrape-time reads that failed or timed out (queues, outbox, renewal_sweep); their gauges are absent from that scrape.',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  const attempt = async <T>(source: string, read: () => Promise<T>): Promise<T | null> => {
    const value = await withinTimeout<T | null>(read, SCRAPE_READ_TIMEOUT_MS, null);
    if (value === null) readFailures.inc({ source });
    return value;
  };

  const queueDepths = sharedRead(() =>
    attempt('queues', async () => {
      const now = Date.now();
      return Promise.all(QUEUE_NAMES.map(async (name) => [name, await readQueue(queues[name], now)] as const));
    }),
  );
  new Gauge({
    name: 'nh_queue_jobs',
    help: 'Jobs of each queue by state (waiting includes prioritized; failed: jobs that gave up, kept 7 days).',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [queue, depth] of (await queueDepths()) ?? []) for (const state of STATES) this.set({ queue, state }, depth.counts[state]);
    },
  });
  new Gauge({
    name: 'nh_queue_oldest_waiting_age_seconds',
    help: 'Age of the oldest waiting job of each queue (0 when none waits).',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [queue, depth] of (await queueDepths()) ?? []) this.set({ queue }, depth.oldestWaitingAge);
    },
  });

  const outbox = sharedRead(() => attempt('outbox', () => outboxBacklog(db.$client)));
  new Gauge({
    name: 'nh_outbox_unpublished_rows',
    help: 'Outbox rows not yet relayed to the queues.',
    registers: [registry],
    async collect() {
      this.reset();
      const value = await outbox();
      if (value) this.set(value.waiting);
    },
  });
  new Gauge({
    name: 'nh_outbox_oldest_unpublished_age_seconds',
    help: 'Age of the oldest outbox row not yet relayed (0 when none waits): the relay lag.',
    registers: [registry],
    async collect() {
      this.reset();
      const value = await outbox();
      if (value) this.set(value.oldestAge);
    },
  });

  /** A gauge of one number read at scrape time from `source` (absent from a scrape whose read failed). */
  const scrapedGauge = ({ name, help, source, read }: { name: string; help: string; source: string; read: () => Promise<number> }) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.reset();
        const value = await attempt(source, read);
        if (value !== null) this.set(value);
      },
    });
  scrapedGauge({
    name: 'nh_report_summary_pending_notes',
    help: "Writes noted for the reports' daily summary and the customers' figures and not yet folded in (REPORT_CATCH_UP_MS; a report read or a customer read folds them in first).",
    source: 'report_summary',
    read: () => reportSummaryBacklog(db.$client),
  });
  scrapedGauge({
    name: 'nh_export_rows_per_second',
    help: 'Rows per second of the running CSV export, else of the last one finished (read from the exports table: the exporting process stays lean).',
    source: 'exports',
    read: () => exportRowsPerSecond(db.$client),
  });
  scrapedGauge({
    name: 'nh_renewals_last_sweep_timestamp_seconds',
    help: 'When the last completed renewal sweep started (its Redis marker; 0 when none ever completed).',
    source: 'renewal_sweep',
    read: async () => ((await lastSweepAt({ queue: queues.renewals, redis }))?.getTime() ?? 0) / 1000,
  });
  return registry;
}
