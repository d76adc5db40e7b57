/**
 * The Redis of `npm run test:scale`: the machine's Redis (REDIS_URL) with a queue prefix of the run's
 * own, whose keys are removed at the end.
 */
import { createRedis, type Redis } from '@nh/server/runtime/redis';

export interface ScaleRedis {
  /** What the table's heading says. */
  description: string;
  /** The processes' settings: where Redis is, and QUEUE_PREFIX. */
  env: Record<string, string>;
  prefix: string;
  /** The harness's own client (queues, the sandbox's stored cards). */
  client: Redis;
  /** Removes what the run left in Redis. */
  stop: () => Promise<void>;
}

export async function startScaleRedis(id: string): Promise<ScaleRedis> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `nhscale-${id}`;
  const client = createRedis(url);
  return {
    description: `Redis ${new URL(url).host}`,
    env: { REDIS_URL: url, QUEUE_PREFIX: prefix },
    prefix,
    client,
    stop: async () => {
      for (let cursor = '0'; ;) {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length) await client.del(...keys);
        if ((cursor = next) === '0') break;
      }
      client.disconnect();
    },
  };
}
