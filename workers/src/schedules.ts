/**
 * Every repeating job, registered in this one place at worker start (`upsertJobScheduler` is an
 * idempotent upsert, so several worker processes registering it make one schedule). Never from the API.
 */
import type { Queue } from 'bullmq';
import { JOB_NAMES, jobIds, type QueueName } from '@nh/shared/server/queues';

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
    repeat: { pattern: '0 6 * * *', tz: 'UTC' },
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
