/**
 * BullMQ queues: their names, the options every queue shares, and a producer/inspector handle. What
 * runs on each queue is defined job by job: contracts a non-worker producer needs in `jobs/`
 * (jobs/contract.ts), the rest beside their handlers in workers (workers/src/jobs/registry.ts).
 */
import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';

export const QUEUE_NAMES = ['erp-sync', 'exports', 'emails', 'renewals', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Completed jobs are kept a day (job-id dedup window, inspection); failed ones a week. */
export const KEEP_JOBS: Pick<JobsOptions, 'removeOnComplete' | 'removeOnFail'> = {
  removeOnComplete: { age: 24 * 3600, count: 50_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
};

/** A producer/inspector handle on one queue, keyed under `prefix` (QUEUE_PREFIX). */
export function createQueue(name: QueueName, connection: ConnectionOptions, prefix: string): Queue {
  return new Queue(name, { connection, prefix, defaultJobOptions: KEEP_JOBS });
}
