/**
 * Composition of a worker process: the outbox relay, one BullMQ worker per consumed queue, the
 * schedules, the reports' summary catch-up, and (when METRICS_PORT is set) the internal listener of metrics and health. `main.ts`
 * runs it with the process environment; tests and benchmarks run it in-process.
 */
import { Worker, type Queue, type WorkerOptions } from 'bullmq';
import { configureShop, SHOP } from '@nh/shared';
import { createDb, createReadDb, type Db } from '@nh/server/db/client';
import { assertRedisVersion, createRedis } from '@nh/server/runtime/redis';
import { shopOverrides } from '@nh/server/runtime/env';
import type { Logger } from '@nh/server/observability/logger';
import { startMetricsServer, type MetricsServer } from '@nh/server/observability/metrics';
import { createQueue, QUEUE_NAMES, type QueueName } from '@nh/server/runtime/queues';
import { pingDatabase } from '@nh/server/queries/health';
import { NetSuiteClient } from './erp-sync/netsuite/client';
import { createMailer, type Mailer } from './emails/mail/transport';
import { tracedMailer } from './tracing';
import type { WorkerConfig } from './lib/config';
import { OutboxRelay } from './relay/relay';
import { startReportCatchUp, type ReportCatchUp } from './maintenance/report-summary';
import { jobRequestId, queueProcessor } from './jobs/define';
import { QUEUES, type WorkerContext } from './registry/queues';
import { registerSchedules } from './schedules';
import { createPaymentGateway } from './payments';
import { workerHealth } from './health';
import { createWorkerMetrics } from './metrics';
import type { PaymentGateway } from '@nh/server/payments';
import { createFileStores } from '@nh/server/storage';
import { createTaxCalculator, type TaxCalculator } from '@nh/server/tax';

export interface WorkerRuntime {
  config: WorkerConfig;
  db: Db;
  queues: Record<QueueName, Queue>;
  workers: Map<QueueName, Worker>;
  relay: OutboxRelay | null;
  /** Folds the writes noted since into the reports' summary every REPORT_CATCH_UP_MS (null when 0). */
  reportCatchUp: ReportCatchUp | null;
  mailer: Mailer;
  /** The gateway renewals charge and the payment reconciliation asks (null when card payments are not configured). */
  gateway: PaymentGateway | null;
  /** Sales tax by destination (TAX_MODE): main.ts reloads its rates on SIGHUP. */
  tax: TaxCalculator;
  /** The internal listener (`/metrics`, `/healthz`, `/readyz`) when METRICS_PORT is set. */
  metrics: MetricsServer | null;
  /** Stops taking jobs, lets running ones finish within `graceMs`, then closes every connection. */
  close: (graceMs?: number) => Promise<void>;
}

/** What a test or benchmark hands in instead of what the configuration makes. */
export interface WorkerRuntimeOverrides {
  /** The tax calculator (a test's rates by state) in place of TAX_MODE's. */
  tax?: TaxCalculator;
}

export async function startWorkerRuntime(config: WorkerConfig, log: Logger, overrides: WorkerRuntimeOverrides = {}): Promise<WorkerRuntime> {
  configureShop(shopOverrides(config));
  // Each running sync holds a connection for its order's lock (erp-sync/processor.ts) besides the ones its queries take.
  const db = createDb({ url: config.DATABASE_URL, max: config.DATABASE_POOL_MAX ?? 10 + config.ERP_SYNC_CONCURRENCY, pooled: config.DATABASE_POOLED, applicationName: 'nurture-home-workers' });
  // Exports read DATABASE_READ_URL's replica when there is one (exports/processor.ts).
  const readDb = createReadDb(config, db, { max: 2, applicationName: 'nurture-home-workers-reads' });
  await Promise.all([...new Set([db, readDb])].map((pool) => pingDatabase(pool)));

  // Producers fail fast when Redis is down (the relay rolls back and retries); workers wait through reconnects.
  const producerRedis = createRedis(config, 'client');
  const workerRedis = createRedis(config, 'worker');
  // Refuses Redis older than 6.2 at once, not at the first job (docs/decisions/production-safety.md).
  await assertRedisVersion(producerRedis);
  const queues = Object.fromEntries(QUEUE_NAMES.map((name) => [name, createQueue(name, producerRedis, config.QUEUE_PREFIX)])) as Record<QueueName, Queue>;
  for (const queue of Object.values(queues)) queue.on('error', (err) => log.debug({ err: err.message, queue: queue.name }, 'queue connection problem'));

  // With tracing on, each send is a span of the job that sends it (./tracing.ts).
  const mailer = tracedMailer(createMailer({ smtpUrl: config.SMTP_URL, smtpConnections: config.EMAIL_CONCURRENCY, outboxDir: config.MAIL_OUTBOX_DIR, from: config.MAIL_FROM ?? `"${SHOP.name}" <${SHOP.supportEmail}>` }), config.SMTP_URL);
  const netsuite = config.netsuite ? new NetSuiteClient(config.netsuite) : null;
  const needsGateway = config.WORKER_QUEUES.includes('renewals') || config.WORKER_QUEUES.includes('maintenance');
  const gateway = needsGateway ? createPaymentGateway(config, producerRedis, log) : null;

  const workers = new Map<QueueName, Worker>();
  const base: Omit<WorkerOptions, 'concurrency'> = {
    connection: workerRedis,
    prefix: config.QUEUE_PREFIX,
    lockDuration: config.JOB_LOCK_MS,
    stalledInterval: config.JOB_LOCK_MS,
  };
  const { exports: exportFiles, claims: claimPhotos } = createFileStores(config, { exports: config.EXPORTS_DIR, claims: config.CLAIM_PHOTOS_DIR });
  const tax = overrides.tax ?? createTaxCalculator(config, { log });
  const ctx: WorkerContext = { config, db, readDb, log, queues, redis: producerRedis, mailer, netsuite, gateway, exportFiles, claimPhotos, tax, worker: (name) => workers.get(name)! };

  for (const name of config.WORKER_QUEUES) await QUEUES[name].setup?.(queues[name], ctx);
  for (const name of config.WORKER_QUEUES) {
    const queue = QUEUES[name];
    const worker = new Worker(name, queueProcessor(queue, ctx), { ...base, ...queue.worker(config) });
    worker.on('failed', (job, err) =>
      log.warn({ queue: name, jobId: job?.id, job: job?.name, reqId: job ? (jobRequestId(job) ?? undefined) : undefined, attemptsMade: job?.attemptsMade, err }, 'job failed'),
    );
    worker.on('error', (err) => log.error({ queue: name, err: err.message }, 'worker error'));
    workers.set(name, worker);
  }
  const schedules = await registerSchedules(queues, config.WORKER_QUEUES);

  const relay = config.RELAY_ENABLED ? new OutboxRelay({ db, queues, config, log }) : null;
  relay?.start();
  const reportCatchUp = config.REPORT_CATCH_UP_MS > 0 ? startReportCatchUp({ db, intervalMs: config.REPORT_CATCH_UP_MS, log }) : null;

  let closing: Promise<void> | null = null;
  const health = workerHealth({
    db,
    redis: producerRedis,
    workers,
    renewals: config.WORKER_QUEUES.includes('renewals') && gateway ? queues.renewals : null,
    closing: () => closing !== null,
  });
  const metrics =
    config.METRICS_PORT === undefined
      ? null
      : await startMetricsServer({ port: config.METRICS_PORT, registry: createWorkerMetrics({ db, queues, redis: producerRedis }), health: health.live, ready: health.ready, log });
  log.info(
    {
      queues: config.WORKER_QUEUES,
      relay: Boolean(relay),
      schedules,
      netsuite: netsuite ? netsuite.baseUrl : 'not configured',
      payments: gateway?.kind ?? 'not configured',
      mail: mailer.description,
      exportFiles: exportFiles.location,
      metricsPort: metrics?.port ?? 'not set',
    },
    'workers started',
  );

  const close = (graceMs = config.SHUTDOWN_GRACE_MS) => {
    closing ??= (async () => {
      await Promise.all([relay?.stop(), reportCatchUp?.stop()]);
      const all = [...workers.values()];
      const graceful = Promise.all(all.map((w) => w.close()));
      let timer: NodeJS.Timeout | undefined;
      const expired = await Promise.race([
        graceful.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (expired) {
        // Jobs still running are abandoned; their locks lapse and another worker runs them again.
        log.warn({ graceMs }, 'running jobs did not finish within the grace period; closing anyway');
        await Promise.all(all.map((w) => w.close(true).catch(() => {})));
      }
      await Promise.allSettled(Object.values(queues).map((q) => q.close()));
      mailer.close();
      netsuite?.close();
      await Promise.allSettled([db.$client.end(), readDb === db ? null : readDb.$client.end(), producerRedis.quit(), workerRedis.quit()]);
      // Last: /readyz answers "closing" while the jobs finish.
      await metrics?.close();
    })();
    return closing;
  };

  return { config, db, queues, workers, relay, reportCatchUp, mailer, gateway, tax, metrics, close };
}
