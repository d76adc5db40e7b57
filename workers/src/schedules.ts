/**
 * Every repeating job, registered in this one place at worker start (`upsertJobScheduler` is an
 * idempotent upsert, so several worker processes registering it make one schedule). Never from the API.
 */
import type { Queue } from 'bullmq';
import { JOB_NAMES, jobIds, type QueueName } from '@nh/server/queues';

/** The daily renewal sweep's hour (UTC); a worker that was down then runs it at start (renewals/missed-sweep.ts). */
export const RENEWAL_SWEEP_HOUR_UTC = 6;

export const SCHEDULES = [
  {
    id: jobIds.reconcileSchedule(),
    queue: 'erp-sync' as QueueName,
    /** Every 10 minutes: orders pending too long get a fresh sync request (a job lost with Redis data). */
    repeat: { pattern: '*/10 * * * *', tz: 'UTC' },
    template: { name: JOB_NAMES.reconcileSync, data: {} },
  },
  {
    id: jobIds.renewalSchedule(),
    queue: 'renewals' as QueueName,
    /** Daily at 06:00 UTC; the sweep catches up on everything due on or before now. */
    repeat: { pattern: `0 ${RENEWAL_SWEEP_HOUR_UTC} * * *`, tz: 'UTC' },
    template: { name: JOB_NAMES.renewalSweep, data: {} },
  },
  {
    id: jobIds.housekeepingSchedule(),
    queue: 'maintenance' as QueueName,
    /** Hourly: old outbox rows and idempotency keys go, and those two busy tables are vacuumed. */
    repeat: { pattern: '17 * * * *', tz: 'UTC' },
    template: { name: JOB_NAMES.housekeeping, data: {} },
  },
  {
    id: jobIds.paymentReconcileSchedule(),
    queue: 'maintenance' as QueueName,
    /** Every 10 minutes: pending orders whose charge outcome was never known are settled from the gateway's records. */
    repeat: { pattern: '*/10 * * * *', tz: 'UTC' },
    template: { name: JOB_NAMES.reconcilePayments, data: {} },
  },
];

/** Registers the schedules of the queues this process consumes. */
export async function registerSchedules(queues: Record<QueueName, Queue>, consumed: readonly QueueName[]): Promise<string[]> {
  const registered: string[] = [];
  for (const schedule of SCHEDULES) {
    if (!consumed.includes(schedule.queue)) continue;
    await queues[schedule.queue].upsertJobScheduler(schedule.id, schedule.repeat, schedule.template);
    registered.push(schedule.id);
  }
  return registered;
}

/** The names of the scheduled jobs an operator may also run at once (`npm run worker:run-now -- <name>`). */
export const RUNNABLE_NOW = SCHEDULES.map((schedule) => schedule.template.name);

/**
 * Adds one run of a scheduled job now, with the schedule's own data, for a worker consuming its queue
 * to pick up (e.g. charge due plans before the daily sweep). Returns the job id.
 */
export async function runScheduledJobNow(queues: Record<QueueName, Queue>, name: string): Promise<string> {
  const schedule = SCHEDULES.find((s) => s.template.name === name);
  if (!schedule) throw new Error(`unknown job "${name}": one of ${RUNNABLE_NOW.join(', ')}`);
  const job = await queues[schedule.queue].add(schedule.template.name, schedule.template.data, { jobId: `manual-${name}-${Date.now()}` });
  return job.id!;
}
