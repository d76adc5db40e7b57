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
