/**
 * Composition of a worker process: the outbox relay, one BullMQ worker per consumed queue, and the
 * schedules. `main.ts` runs it with the process environment; tests and benchmarks run it in-process.
 */
import { UnrecoverableError, Worker, type Processor, type Queue, type WorkerOptions } from 'bullmq';
import { configureShop, SHOP } from '@nh/shared';
import { createDb, createRedis, shopOverrides, type Db, type Logger, type Redis } from '@nh/server';
import { createQueue, JOB_NAMES, QUEUE_NAMES, type QueueName } from '@nh/server/queues';
import { NetSuiteClient } from './erp-sync/netsuite/client';
import { createMailer, type Mailer } from './emails/mail/transport';
import type { WorkerConfig } from './config';
import { OutboxRelay } from './relay/relay';
import { createErpSyncProcessor } from './erp-sync/processor';
import { backoffStrategy } from './erp-sync/backoff';
import { createEmailProcessor } from './emails/processor';
import { createHousekeepingProcessor } from './maintenance/housekeeping';
import { createPaymentReconcileProcessor } from './maintenance/reconcile-payments';
import { createExportProcessor } from './exports/processor';
import { createRenewalProcessor } from './renewals/processor';
import { addMissedSweep } from './renewals/missed-sweep';
import { registerSchedules } from './schedules';
import { createPaymentGateway } from './payments';
import type { PaymentGateway } from '@nh/server/payments/index';

export interface WorkerRuntime {
  config: WorkerConfig;
  db: Db;
  queues: Record<QueueName, Queue>;
  workers: Map<QueueName, Worker>;
  relay: OutboxRelay | null;
  mailer: Mailer;
  /** The gateway renewals charge and the payment reconciliation asks (null when card payments are not configured). */
  gateway: PaymentGateway | null;
  /** Stops taking jobs, lets running ones finish within `graceMs`, then closes every connection. */
  close: (graceMs?: number) => Promise<void>;
}

export async function startWorkerRuntime(config: WorkerConfig, log: Logger): Promise<WorkerRuntime> {
  configureShop(shopOverrides(config));
  const db = createDb({ url: config.DATABASE_URL, max: 10, applicationName: 'nurture-home-workers' });
  await db.$client.query('select 1');

  // Producers fail fast when Redis is down (the relay rolls back and retries); workers wait through reconnects.
  const producerRedis: Redis = createRedis(config.REDIS_URL, 'client');
  const workerRedis: Redis = createRedis(config.REDIS_URL, 'worker');
  const queues = Object.fromEntries(QUEUE_NAMES.map((name) => [name, createQueue(name, producerRedis, config.QUEUE_PREFIX)])) as Record<QueueName, Queue>;
  for (const queue of Object.values(queues)) queue.on('error', (err) => log.debug({ err: err.message, queue: queue.name }, 'queue connection problem'));

  const mailer = createMailer({ smtpUrl: config.SMTP_URL, outboxDir: config.MAIL_OUTBOX_DIR, from: config.MAIL_FROM ?? `"${SHOP.name}" <${SHOP.supportEmail}>` });
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
  const processors: Record<QueueName, { processor: Processor; options: Partial<WorkerOptions> }> = {
    'erp-sync': {
      processor: createErpSyncProcessor({ db, netsuite, log, worker: () => workers.get('erp-sync')!, staleMinutes: config.ERP_SYNC_STALE_MINUTES }),
      // A sync is idempotent, so a job whose worker died may safely run again a few times. Its short lock
      // (renewed while it runs) and frequent stalled checks give a dead worker's global slots back within seconds.
      options: {
        concurrency: config.ERP_SYNC_CONCURRENCY,
        lockDuration: config.ERP_SYNC_LOCK_MS,
        stalledInterval: config.ERP_SYNC_STALLED_CHECK_MS,
        maxStalledCount: 3,
        settings: { backoffStrategy: backoffStrategy(config.ERP_SYNC_BACKOFF_MS, config.ERP_SYNC_BACKOFF_MAX_MS) },
      },
    },
    emails: { processor: createEmailProcessor({ db, mailer, log }), options: { concurrency: config.EMAIL_CONCURRENCY } },
    exports: {
      processor: createExportProcessor({ db, log, exportsDir: config.EXPORTS_DIR, progressEvery: config.EXPORT_PROGRESS_EVERY }),
      options: { concurrency: 1 },
    },
    renewals: {
      processor: createRenewalProcessor({ db, gateway, queues, redis: producerRedis, config, log }),
      options: { concurrency: config.RENEWAL_CONCURRENCY },
    },
    maintenance: {
      processor: byJobName('maintenance', {
        [JOB_NAMES.housekeeping]: createHousekeepingProcessor({ db, log, retentionDays: config.RETENTION_DAYS }),
        [JOB_NAMES.reconcilePayments]: createPaymentReconcileProcessor({ db, gateway, log, afterMinutes: config.PAYMENT_RECONCILE_AFTER_MINUTES }),
      }),
      options: { concurrency: 1 },
    },
  };

  if (config.WORKER_QUEUES.includes('erp-sync')) {
    // The cap holds across every worker process, below the account's concurrent-request limit.
    await queues['erp-sync'].setGlobalConcurrency(config.ERP_SYNC_CONCURRENCY);
  }
  for (const name of config.WORKER_QUEUES) {
    const { processor, options } = processors[name];
    const worker = new Worker(name, processor, { ...base, ...options });
    worker.on('failed', (job, err) =>
      log.warn({ queue: name, jobId: job?.id, job: job?.name, attemptsMade: job?.attemptsMade, err }, 'job failed'),
    );
    worker.on('error', (err) => log.error({ queue: name, err: err.message }, 'worker error'));
    workers.set(name, worker);
  }
  const schedules = await registerSchedules(queues, config.WORKER_QUEUES);
  if (config.WORKER_QUEUES.includes('renewals')) {
    const missed = await addMissedSweep({ queue: queues.renewals, redis: producerRedis });
    if (missed) log.warn({ jobId: missed }, 'the last scheduled renewal sweep did not complete: one sweep added now');
  }

  const relay = config.RELAY_ENABLED ? new OutboxRelay({ db, queues, config, log }) : null;
  relay?.start();
  log.info(
    { queues: config.WORKER_QUEUES, relay: Boolean(relay), schedules, netsuite: netsuite ? netsuite.baseUrl : 'not configured', payments: gateway?.kind ?? 'not configured', mail: mailer.description },
    'workers started',
  );

  let closing: Promise<void> | null = null;
  const close = (graceMs = config.SHUTDOWN_GRACE_MS) => {
    closing ??= (async () => {
      await relay?.stop();
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
      await Promise.allSettled([db.$client.end(), producerRedis.quit(), workerRedis.quit()]);
    })();
    return closing;
  };

  return { config, db, queues, workers, relay, mailer, gateway, close };
}

/** One processor per job name, for a queue that runs several kinds of job. */
function byJobName(queue: QueueName, processors: Record<string, Processor>): Processor {
  return (job, token) => {
    const processor = processors[job.name];
    if (!processor) throw new UnrecoverableError(`no processor for job "${job.name}" on the ${queue} queue`);
    return processor(job, token);
  };
}
