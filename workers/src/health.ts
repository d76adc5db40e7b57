/**
 * The worker's `/healthz` and `/readyz` on METRICS_PORT (the heartbeat file stays for the container's
 * own health check; both say the same about liveness).
 *
 * - `/healthz` (liveness): every queue consumer of this process runs, the heartbeat's rule
 *   (`runtimeHealthy`); not PostgreSQL (a database outage must not restart every worker).
 * - `/readyz`: PostgreSQL and Redis answer within READY_TIMEOUT_MS, the consumers run, the process is
 *   not shutting down, and, in a process consuming `renewals` with card payments configured, the last
 *   renewal sweep ran (`renewalSweepState`).
 *
 * "The last sweep ran" means: the marker a completed sweep leaves in Redis (renewals/sweep.ts,
 * `lastSweepAt`: when the last sweep that completed started) is at or after the latest scheduled sweep
 * time (06:00 UTC today, or yesterday before 06:00), or that scheduled time is less than
 * RENEWAL_SWEEP_GRACE_MS ago (the sweep may still be waiting or running). A worker that starts after a
 * missed sweep adds one at once (`addMissedSweep`), so a late sweep means no process consumed
 * `renewals` for over an hour after 06:00, or the sweep keeps failing.
 */
import type { Queue } from 'bullmq';
import type { Db } from '@nh/server/db/client';
import type { RedisClient } from '@nh/server/runtime/redis';
import { dependencyChecks, withinTimeout, type HealthAnswer } from '@nh/server/observability/metrics';
import { runtimeHealthy } from './heartbeat';
import { lastScheduledSweep, lastSweepAt } from './renewals/sweep';

/** How long a readiness check waits for PostgreSQL or Redis. */
export const READY_TIMEOUT_MS = 2000;
/** How long after its scheduled time (06:00 UTC) the daily sweep may take to complete before readiness fails. */
export const RENEWAL_SWEEP_GRACE_MS = 60 * 60_000;

/**
 * ok: the last scheduled sweep completed. due: it has not yet, but is within its grace. late: it has not,
 * and its grace is over.
 */
export type RenewalSweepState = 'ok' | 'due' | 'late';

export function renewalSweepState(lastSweep: Date | null, now: Date): RenewalSweepState {
  const scheduled = lastScheduledSweep(now);
  if (lastSweep && lastSweep.getTime() >= scheduled.getTime()) return 'ok';
  return now.getTime() - scheduled.getTime() <= RENEWAL_SWEEP_GRACE_MS ? 'due' : 'late';
}

export interface WorkerHealthDeps {
  db: Db;
  /** The producers' Redis (fails fast). */
  redis: RedisClient;
  workers: ReadonlyMap<string, { isRunning(): boolean }>;
  /** The renewals queue, when this process consumes it and card payments are configured (its sweep is then checked). */
  renewals: Queue | null;
  /** True once the process is shutting down. */
  closing: () => boolean;
  now?: () => Date;
}

export function workerHealth({ db, redis, workers, renewals, closing, now = () => new Date() }: WorkerHealthDeps) {
  const live = async (): Promise<HealthAnswer> => {
    const ok = await runtimeHealthy({ workers });
    return { ok, body: { status: ok ? 'ok' : 'unhealthy' } };
  };

  const ready = async (): Promise<HealthAnswer> => {
    const sweep = async () => {
      if (!renewals) return { state: 'not checked' as const, lastSweepAt: null };
      const last = await withinTimeout(() => lastSweepAt({ queue: renewals, redis }).then((at) => ({ at })), READY_TIMEOUT_MS, null);
      if (!last) return { state: 'unknown' as const, lastSweepAt: null };
      return { state: renewalSweepState(last.at, now()), lastSweepAt: last.at?.toISOString() ?? null };
    };
    const [{ postgres, redis: redisState }, renewalSweep] = await Promise.all([dependencyChecks(db, redis, READY_TIMEOUT_MS), sweep()]);
    const consumers = [...workers.values()].every((w) => w.isRunning()) ? 'ok' : 'stopped';
    const checks = { postgres, redis: redisState, consumers, renewalSweep: renewalSweep.state };
    const ok = !closing() && postgres === 'ok' && redisState === 'ok' && consumers === 'ok' && renewalSweep.state !== 'late' && renewalSweep.state !== 'unknown';
    return { ok, body: { status: closing() ? 'closing' : ok ? 'ready' : 'not ready', checks, lastSweepAt: renewalSweep.lastSweepAt } };
  };

  return { live, ready };
}
