/**
 * A renewal sweep missed while no worker was running. The scheduled sweep (daily, RENEWAL_SWEEP_HOUR_UTC)
 * only runs while a worker consumes `renewals`, and a worker that starts later re-registers the
 * schedule, which moves it on to the next 06:00 UTC (upsertJobScheduler drops the overdue run). So each
 * completed sweep leaves a marker in Redis, and a worker starting up adds one sweep now when the last
 * completed sweep is older than the last scheduled time. The job id names that scheduled time, so
 * workers starting together add one sweep (and the sweep is idempotent anyway).
 */
import type { Queue } from 'bullmq';
import type { Redis } from '@nh/server';
import { JOB_NAMES, jobIds } from '@nh/server/queues';
import { RENEWAL_SWEEP_HOUR_UTC } from '../schedules';

const DAY_MS = 86_400_000;
/** Among the renewals queue's keys: when the last completed sweep started (ms since the epoch). */
const MARKER = 'last-sweep-at';

/** The renewals queue and a Redis connection to its server. */
export interface SweepMarker {
  queue: Queue;
  redis: Redis;
}

/** Called by a sweep that completed (with card payments configured, so its renewals were added). */
export async function recordSweep({ queue, redis }: SweepMarker, startedAt: Date): Promise<void> {
  await redis.set(queue.toKey(MARKER), String(startedAt.getTime()));
}

export async function lastSweepAt({ queue, redis }: SweepMarker): Promise<Date | null> {
  const value = await redis.get(queue.toKey(MARKER));
  return value ? new Date(Number(value)) : null;
}

/** The latest scheduled sweep time at or before `now`. */
export function lastScheduledSweep(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), RENEWAL_SWEEP_HOUR_UTC);
  return new Date(today <= now.getTime() ? today : today - DAY_MS);
}

/** At worker start: one sweep now if the last scheduled one did not complete. Answers its job id, or null. */
export async function addMissedSweep(marker: SweepMarker, now = new Date()): Promise<string | null> {
  const scheduledAt = lastScheduledSweep(now);
  const last = await lastSweepAt(marker);
  if (last && last >= scheduledAt) return null;
  const job = await marker.queue.add(JOB_NAMES.renewalSweep, {}, { jobId: jobIds.missedRenewalSweep(scheduledAt) });
  return job.id!;
}
