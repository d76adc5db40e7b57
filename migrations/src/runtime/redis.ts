import { Redis, type RedisOptions } from 'ioredis';

export { Redis };

/**
 * A Redis connection. BullMQ workers need `maxRetriesPerRequest: null` (blocking commands must wait
 * through reconnects); API-side connections fail fast instead so a request never hangs on Redis.
 */
export function createRedis(url: string, kind: 'worker' | 'client' = 'client', extra: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: kind === 'worker' ? null : 1,
    lazyConnect: false,
    ...extra,
  });
  // Connection problems surface through the commands that fail (and /readyz), not as crashes.
  redis.on('error', () => {});
  return redis;
}

/**
 * The oldest Redis the shop runs on: 6.2 (BullMQ's recommended minimum; our own commands and Lua
 * scripts use nothing newer: `SET … EX … NX`, `PTTL`/`PEXPIRE`, `HSETNX`, no `EXPIRE … NX`).
 */
export const MIN_REDIS_VERSION = [6, 2] as const;

/** Why the server of `INFO server`'s text is too old, or null when it is new enough (or does not say). */
export function redisVersionProblem(info: string): string | null {
  const found = /^redis_version:(\d+)\.(\d+)/m.exec(info);
  if (!found) return null;
  const [major, minor] = [Number(found[1]), Number(found[2])];
  const [minMajor, minMinor] = MIN_REDIS_VERSION;
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return null;
  return `Redis ${major}.${minor} is too old: the shop needs Redis ${minMajor}.${minMinor} or newer (REDIS_URL)`;
}

/** Refuses (throws) when the Redis at `redis` is older than MIN_REDIS_VERSION; a Redis that does not answer is left to the caller's own checks. */
export async function assertRedisVersion(redis: Redis, timeoutMs = 5000): Promise<void> {
  const info = await Promise.race([redis.info('server'), new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs).unref())]).catch(() => null);
  const problem = info === null ? null : redisVersionProblem(info);
  if (problem) throw new Error(problem);
}
