import type { BackoffStrategy } from 'bullmq';
import { JITTER_BACKOFF } from '@nh/server/jobs/sync-order';

/**
 * Exponential backoff with "equal jitter": the n-th retry waits between half and all of
 * base·2^(n-1), capped, so retries of many orders after one NetSuite outage spread out instead of
 * arriving together.
 */
export function jitteredDelay(attemptsMade: number, baseMs: number, maxMs: number, random = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attemptsMade - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

export function backoffStrategy(defaultBaseMs: number, maxMs: number): BackoffStrategy {
  return (attemptsMade, type, _err, job) => {
    if (type !== JITTER_BACKOFF) return 0;
    const opts = job?.opts.backoff;
    const base = typeof opts === 'object' && opts.delay ? opts.delay : defaultBaseMs;
    return jitteredDelay(attemptsMade, base, maxMs);
  };
}
