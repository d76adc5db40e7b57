/**
 * The Redis of `npm run test:scale`: a 3-node Redis Cluster of its own (the machine's `redis-server` on
 * free local ports, migrations/src/testing/redis-cluster.ts), every process a cluster client
 * (REDIS_CLUSTER_NODES) under a hash-tagged QUEUE_PREFIX, so each queue's keys share one slot.
 */
import { createRedis, type RedisClient } from '@nh/server/runtime/redis';
import { startRedisCluster } from '@nh/server/testing/redis-cluster';

export interface ScaleRedis {
  /** What the table's heading says. */
  description: string;
  /** The processes' settings: where Redis is, and QUEUE_PREFIX. */
  env: Record<string, string>;
  prefix: string;
  /** The harness's own client (queues, the sandbox's stored cards). */
  client: RedisClient;
  /** Stops the cluster (nothing of the run is left). */
  stop: () => Promise<void>;
}

export async function startScaleRedis(): Promise<ScaleRedis> {
  const cluster = await startRedisCluster({ nodes: 3 });
  const prefix = '{nhscale}';
  const client = createRedis(
    {
      REDIS_URL: cluster.env.REDIS_URL,
      REDIS_CLUSTER_NODES: cluster.nodes.map((node) => ({
        host: node.slice(0, node.lastIndexOf(':')),
        port: Number(node.slice(node.lastIndexOf(':') + 1)),
      })),
    },
    'client',
  );
  return {
    description: `Redis Cluster ${cluster.nodes.join(', ')}`,
    env: { ...cluster.env, QUEUE_PREFIX: prefix },
    prefix,
    client,
    stop: async () => {
      client.disconnect();
      await cluster.stop();
    },
  };
}
