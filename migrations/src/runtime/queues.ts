/**
 * BullMQ queues: their names, the options every queue shares, and a producer/inspector handle. What
 * runs on each queue is defined job by job: contracts a non-worker producer needs in `jobs/`
 * (jobs/contract.ts), the rest beside their handlers in workers (workers/src/registry/queues.ts).
 */
import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { withinTimeout } from '../observability/within-timeout';

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

/** A queue's jobs by state (`waiting` includes prioritized jobs) and when its oldest waiting job was added. */
export interface QueueDepth {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Epoch ms; null when nothing waits. */
  oldestWaitingAt: number | null;
}

/**
 * One queue's depth, read in one go for the back office and the metrics alike; null when Redis does not
 * answer within `timeoutMs` (the page or the scrape answers without it).
 */
export function readQueueDepth(queue: Queue, timeoutMs: number): Promise<QueueDepth | null> {
  return withinTimeout(
    async () => {
      const [counts, [oldest]] = await Promise.all([queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'), queue.getWaiting(0, 0)]);
      return {
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        failed: counts.failed ?? 0,
        oldestWaitingAt: oldest?.timestamp ?? null,
      };
    },
    timeoutMs,
    null,
  );
}
