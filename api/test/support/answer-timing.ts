/**
 * Measures whether an answer's time tells a known address from an unknown one (account enumeration by
 * timing). Requests go in pairs, known then unknown, so whatever else the machine is doing falls on both
 * alike; the medians are compared. To make any wait for the work plain on a busy two-core machine, where
 * one request's time varies by tens of milliseconds, the table the work writes can be held locked for a
 * while from the moment each request (of either kind) is sent: an answer that waits for the work then
 * takes at least that long.
 */
import type { Db } from '@nh/server/db/client';

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** How long one request takes to be answered in full; a request not answered within `limitMs` counts as `limitMs`. */
async function timed(send: (signal: AbortSignal) => Promise<Response>, limitMs: number): Promise<{ ms: number; status: number | null }> {
  const started = performance.now();
  try {
    const res = await send(AbortSignal.timeout(limitMs));
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } catch {
    return { ms: limitMs, status: null };
  }
}

export interface AnswerTimes {
  known: number[];
  unknown: number[];
  /** Statuses of every answer (null: not answered in time). */
  statuses: Array<number | null>;
}

/** The work slowed down: `table` locked against writes (reads go on) for `holdMs` from each request's start. */
export interface SlowWork {
  db: Db;
  table: string;
  holdMs?: number;
}

/** Takes the lock; `released` settles once it has been let go, `holdMs` later. */
async function lockFor(slow: SlowWork): Promise<{ released: Promise<void> }> {
  const client = await slow.db.$client.connect();
  await client.query(`begin; lock table ${slow.table} in exclusive mode`);
  const released = new Promise<void>((resolve) => setTimeout(resolve, slow.holdMs ?? 200))
    .then(async () => {
      await client.query('rollback');
    })
    .finally(() => client.release());
  return { released };
}

/** `rounds` pairs of requests, the known address first in each pair; each waits for the one before (and its lock) to end. */
export async function timeBothWays(
  rounds: number,
  send: (which: 'known' | 'unknown', i: number, signal: AbortSignal) => Promise<Response>,
  slow?: SlowWork,
  limitMs = 2000,
): Promise<AnswerTimes> {
  const times: AnswerTimes = { known: [], unknown: [], statuses: [] };
  for (let i = 0; i < rounds; i++) {
    for (const which of ['known', 'unknown'] as const) {
      const lock = slow ? await lockFor(slow) : null;
      const { ms, status } = await timed((signal) => send(which, i, signal), limitMs);
      await lock?.released;
      times[which].push(ms);
      times.statuses.push(status);
    }
  }
  return times;
}
