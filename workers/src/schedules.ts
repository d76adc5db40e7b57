/**
 * Every repeating job, registered in this one place at worker start from the job definitions'
 * `schedule` (`upsertJobScheduler` is an idempotent upsert, so several worker processes registering it
 * make one schedule). Never from the API.
 */
import type { Queue } from 'bullmq';
import type { QueueName } from '@nh/server/runtime/queues';
import { withJobTrace, type JobSchedule } from '@nh/server/jobs/contract';
import { currentTraceParent } from '@nh/server/observability/tracing';
import { JOBS } from './registry/queues';

export const SCHEDULES = JOBS.flatMap((job) =>
  job.schedule ? [{ ...job.schedule, queue: job.queue, name: job.name }] : [],
) satisfies Array<JobSchedule & { queue: QueueName; name: string }>;

/** Registers the schedules of the queues this process consumes (UTC; every scheduled job's data is `{}`). */
export async function registerSchedules(queues: Record<QueueName, Queue>, consumed: readonly QueueName[]): Promise<string[]> {
  const registered: string[] = [];
  for (const schedule of SCHEDULES) {
    if (!consumed.includes(schedule.queue)) continue;
    await queues[schedule.queue].upsertJobScheduler(
      schedule.id,
      { pattern: schedule.pattern, tz: 'UTC' },
      { name: schedule.name, data: {} },
    );
    registered.push(schedule.id);
  }
  return registered;
}

/** The names of the scheduled jobs an operator may also run at once (`npm run worker:run-now -- <name>`). */
export const RUNNABLE_NOW = SCHEDULES.map((schedule) => schedule.name);

/**
 * Adds one run of a scheduled job now, with the schedule's own data, for a worker consuming its queue
 * to pick up (e.g. charge due plans before the daily sweep). Returns the job id. Added inside a span
 * (run-now's, tracing on), the job carries its traceparent: the run is a child of the operator's command.
 */
export async function runScheduledJobNow(queues: Record<QueueName, Queue>, name: string): Promise<string> {
  const schedule = SCHEDULES.find((s) => s.name === name);
  if (!schedule) throw new Error(`unknown job "${name}": one of ${RUNNABLE_NOW.join(', ')}`);
  const job = await queues[schedule.queue].add(schedule.name, withJobTrace({}, null, currentTraceParent()), { jobId: `manual-${name}-${Date.now()}` });
  return job.id!;
}
