/**
 * The worker's liveness for a container health check: while every consumer runs, the time is written
 * to a file every interval; the check (healthcheck.ts) fails when the file is older than a few intervals. A file, not a port: METRICS_PORT is optional, and the container's
 * check needs no listener (when it is set, its /healthz answers by the same rule: health.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@nh/server/observability/logger';

export interface HeartbeatOptions {
  file: string;
  intervalMs: number;
  healthy: () => Promise<boolean>;
  log: Logger;
}

export function startHeartbeat({ file, intervalMs, healthy, log }: HeartbeatOptions): () => void {
  let warned = false;
  const beat = async () => {
    const ok = await healthy().catch(() => false);
    if (!ok) {
      if (!warned) log.warn({ file }, 'unhealthy: heartbeat not written (a consumer stopped)');
      warned = true;
      return;
    }
    warned = false;
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, String(Date.now()));
  };
  void beat().catch(() => {});
  const timer = setInterval(() => void beat().catch(() => {}), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether the heartbeat file was written within `maxAgeMs` (a missing file is not). */
export async function heartbeatFresh(file: string, maxAgeMs: number, now = Date.now()): Promise<boolean> {
  const written = Number(await fs.readFile(file, 'utf8').catch(() => 'NaN'));
  return Number.isFinite(written) && now - written <= maxAgeMs;
}

/**
 * Healthy (alive): every queue consumer of this process runs. Not PostgreSQL: liveness decides restarts,
 * and a database outage would restart every worker at once, over and over, for a fault a restart cannot
 * fix (readiness reports PostgreSQL; docs/decisions/production-safety.md).
 */
export async function runtimeHealthy(runtime: { workers: ReadonlyMap<string, { isRunning(): boolean }> }): Promise<boolean> {
  return [...runtime.workers.values()].every((w) => w.isRunning());
}
