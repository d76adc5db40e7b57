import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisNode } from './env';

export { Cluster, Redis };

/** Every process's Redis: one server (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES). */
export type RedisClient = Redis | Cluster;

/** Where Redis is: the settings every process reads (baseEnvShape). */
export interface RedisSettings {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: RedisNode[];
}

/**
 * The user, password and TLS of REDIS_URL, for each node of a cluster: a managed cluster (ElastiCache,
 * MemoryStore) has one set of credentials for all its nodes, and `rediss://` means every node speaks TLS.
 */
export function clusterNodeOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'rediss:';
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(tls ? { tls: {} } : {}),
  };
}

/**
 * A Redis connection. BullMQ workers need `maxRetriesPerRequest: null` (blocking commands must wait
 * through reconnects); API-side connections fail fast instead so a request never hangs on Redis.
 * With REDIS_CLUSTER_NODES a cluster client with the same per-kind options on every node.
 */
export function createRedis(url: string, kind?: 'worker' | 'client', extra?: RedisOptions): Redis;
export function createRedis(settings: RedisSettings, kind?: 'worker' | 'client', extra?: RedisOptions): RedisClient;
export function createRedis(target: string | RedisSettings, kind: 'worker' | 'client' = 'client', extra: RedisOptions = {}): RedisClient {
  const settings = typeof target === 'string' ? { REDIS_URL: target } : target;
  const perKind: RedisOptions = { maxRetriesPerRequest: kind === 'worker' ? null : 1 };
  const redis = settings.REDIS_CLUSTER_NODES?.length
    ? new Cluster(settings.REDIS_CLUSTER_NODES, clusterOptions(settings.REDIS_URL, perKind, extra))
    : new Redis(settings.REDIS_URL, { ...perKind, lazyConnect: false, ...extra });
  // Connection problems surface through the commands that fail (and /readyz), not as crashes.
  redis.on('error', () => {});
  return redis;
}

function clusterOptions(url: string, perKind: RedisOptions, extra: RedisOptions): ClusterOptions {
  const nodeOptions = { ...clusterNodeOptions(url), ...perKind, ...extra };
  return {
    redisOptions: nodeOptions,
    enableReadyCheck: true,
    lazyConnect: extra.lazyConnect ?? false,
    ...(extra.enableOfflineQueue !== undefined ? { enableOfflineQueue: extra.enableOfflineQueue } : {}),
    // With TLS the start-up nodes are reached by name, not resolved to an address first: the server's
    // certificate names the host (AWS ElastiCache's advice for ioredis).
    ...(nodeOptions.tls ? { dnsLookup: (address: string, callback: (err: null, address: string) => void) => callback(null, address) } : {}),
  };
}

/** Whether `redis` is a cluster client. */
export function isCluster(redis: RedisClient): redis is Cluster {
  return (redis as Cluster).isCluster === true;
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
  return `Redis ${major}.${minor} is too old: the shop needs Redis ${minMajor}.${minMinor} or newer (REDIS_URL, REDIS_CLUSTER_NODES)`;
}

/**
 * Refuses (throws) when the Redis at `redis` (each master of a cluster) is older than
 * MIN_REDIS_VERSION; a Redis that does not answer is left to the caller's own checks.
 */
export async function assertRedisVersion(redis: RedisClient, timeoutMs = 5000): Promise<void> {
  const ask = (node: Redis) =>
    Promise.race([node.info('server'), new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs).unref())]).catch(() => null);
  const servers = isCluster(redis) ? await readyMasters(redis, timeoutMs) : [redis];
  for (const info of await Promise.all(servers.map(ask))) {
    const problem = info === null ? null : redisVersionProblem(info);
    if (problem) throw new Error(problem);
  }
}

/** A cluster's masters once it knows its slots (none when it does not get there within `timeoutMs`). */
async function readyMasters(cluster: Cluster, timeoutMs: number): Promise<Redis[]> {
  if (cluster.status !== 'ready') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs).unref();
      cluster.once('ready', done);
      function done() {
        clearTimeout(timer);
        cluster.off('ready', done);
        resolve();
      }
    });
  }
  return cluster.nodes('master');
}
