/**
 * BullMQ queues: names, job names, payload schemas and job-id builders, shared by the producers (the
 * outbox relay, the admin API) and the processors (workers) so the two cannot drift. Payloads carry ids;
 * a processor re-reads the database.
 */
import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { z } from 'zod';

export const QUEUE_NAMES = ['erp-sync', 'exports', 'emails', 'renewals', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export const JOB_NAMES = {
  syncOrder: 'sync-order',
  exportOrders: 'export-orders',
  newsletterWelcome: 'newsletter-welcome',
  orderConfirmation: 'order-confirmation',
  orderShipped: 'order-shipped',
  renewalSweep: 'renewal-sweep',
  renewSubscription: 'renew-subscription',
  subscriptionWelcome: 'subscription-welcome',
  subscriptionPaused: 'subscription-paused',
  renewalReminder: 'renewal-reminder',
  reconcileSync: 'reconcile-sync',
  housekeeping: 'housekeeping',
  reconcilePayments: 'reconcile-payments',
} as const;

export const jobPayloads = {
  [JOB_NAMES.syncOrder]: z.object({ orderId: z.string().uuid() }),
  [JOB_NAMES.exportOrders]: z.object({ exportId: z.string().uuid() }),
  [JOB_NAMES.newsletterWelcome]: z.object({ subscriberId: z.number().int() }),
  [JOB_NAMES.orderConfirmation]: z.object({ orderId: z.string().uuid() }),
  [JOB_NAMES.orderShipped]: z.object({ orderId: z.string().uuid() }),
  [JOB_NAMES.renewalSweep]: z.object({}).passthrough(),
  /**
   * `period`: the billing period being paid, yyyy-MM-dd (UTC) of the subscription's due date. Added by
   * the daily sweep (jobIds.renewal) and, at once, for a plan resumed with a new card (the relay, from
   * the `subscription.resumed` outbox row: jobIds.fromOutbox, so the two never share an id). `resumed`
   * marks the latter: periods a late renewal skips were missed because the plan was paused.
   */
  [JOB_NAMES.renewSubscription]: z.object({ subscriptionId: z.string().uuid(), period: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), resumed: z.boolean().optional() }),
  [JOB_NAMES.subscriptionWelcome]: z.object({ subscriptionId: z.string().uuid() }),
  [JOB_NAMES.subscriptionPaused]: z.object({ subscriptionId: z.string().uuid(), period: z.string() }),
  /** `period`: the billing period the reminder announces (yyyy-MM-dd, UTC, of the next billing date). */
  [JOB_NAMES.renewalReminder]: z.object({ subscriptionId: z.string().uuid(), period: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  [JOB_NAMES.reconcileSync]: z.object({}).passthrough(),
  [JOB_NAMES.housekeeping]: z.object({}).passthrough(),
  [JOB_NAMES.reconcilePayments]: z.object({}).passthrough(),
} as const;
export type JobName = keyof typeof jobPayloads;
export type JobPayload<N extends JobName> = z.infer<(typeof jobPayloads)[N]>;

/** Which queue each job runs on. */
export const JOB_QUEUE: Record<JobName, QueueName> = {
  [JOB_NAMES.syncOrder]: 'erp-sync',
  [JOB_NAMES.exportOrders]: 'exports',
  [JOB_NAMES.newsletterWelcome]: 'emails',
  [JOB_NAMES.orderConfirmation]: 'emails',
  [JOB_NAMES.orderShipped]: 'emails',
  [JOB_NAMES.renewalSweep]: 'renewals',
  [JOB_NAMES.renewSubscription]: 'renewals',
  [JOB_NAMES.subscriptionWelcome]: 'emails',
  [JOB_NAMES.subscriptionPaused]: 'emails',
  [JOB_NAMES.renewalReminder]: 'emails',
  [JOB_NAMES.reconcileSync]: 'erp-sync',
  [JOB_NAMES.housekeeping]: 'maintenance',
  [JOB_NAMES.reconcilePayments]: 'maintenance',
};

/** Custom backoff type of the erp-sync queue: exponential with jitter (see workers/src/erp-sync/backoff.ts). */
export const JITTER_BACKOFF = 'exponential-jitter';

/**
 * A BullMQ custom job id: it deduplicates while the earlier job exists, and may neither contain ':' nor
 * be all digits, so every id gets a word prefix and only safe characters.
 */
function jobId(...parts: Array<string | number>): string {
  const id = parts.map((part) => String(part).replace(/[^A-Za-z0-9_-]/g, '_')).join('-');
  if (/^\d+$/.test(id)) throw new Error(`job id may not be all digits: ${id}`);
  return id;
}

export const jobIds = {
  /** One job per (outbox row, job kind): a relay crash between enqueue and commit re-adds the same id. */
  fromOutbox: (outboxId: number, jobName: JobName) => jobId('outbox', outboxId, jobName),
  renewalSchedule: () => 'renewals-daily',
  /** The one sweep added at worker start for a scheduled run that was missed (named by its time, to the hour). */
  missedRenewalSweep: (scheduledAt: Date) => jobId('missed', 'renewals-daily', scheduledAt.toISOString().slice(0, 13)),
  /**
   * One renew job per (subscription, billing period, attempt): a second sweep while the job exists adds
   * nothing, and the retry after a decline (attempt = failed attempts so far) is a new job.
   */
  renewal: (subscriptionId: string, period: string, attempt: number) => jobId('renew', subscriptionId, period, attempt),
  /** One reminder job per (subscription, billing period): a second sweep while the job exists adds nothing. */
  renewalReminder: (subscriptionId: string, period: string) => jobId('remind', subscriptionId, period),
  reconcileSchedule: () => 'erp-sync-reconcile',
  housekeepingSchedule: () => 'maintenance-hourly',
  paymentReconcileSchedule: () => 'maintenance-reconcile-payments',
};

/** Completed jobs are kept a day (job-id dedup window, inspection); failed ones a week. */
export const KEEP_JOBS: Pick<JobsOptions, 'removeOnComplete' | 'removeOnFail'> = {
  removeOnComplete: { age: 24 * 3600, count: 50_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
};

/** A producer/inspector handle on one queue, keyed under `prefix` (QUEUE_PREFIX). */
export function createQueue(name: QueueName, connection: ConnectionOptions, prefix: string): Queue {
  return new Queue(name, { connection, prefix, defaultJobOptions: KEEP_JOBS });
}
