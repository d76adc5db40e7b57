/**
 * Abuse limits. Every counter lives in Redis (rate-limit-redis), so ten API processes share one budget
 * instead of multiplying it by ten. Keys are `<RATE_LIMIT_PREFIX>:<limiter name>:<client key>`.
 * When Redis cannot be reached a limiter lets the request through (and says so in the log): the shop
 * stays open and the other guards (payment failures, idempotency) still hold.
 */
import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Options } from 'express-rate-limit';
import { RedisStore, type SendCommandClusterDetails } from 'rate-limit-redis';
import { isCluster, type RedisClient } from '@nh/server/runtime/redis';
import type { AppContext } from './context';
import { AppError } from './errors';

export interface LimiterOptions {
  /** Part of the Redis key: one budget per name. */
  name: string;
  windowMs: number;
  limit: number;
  /** The 429 answer's message. */
  message: string;
  /**
   * Which requests use up the budget: all (default), only refused ones (status ≥ 400, or
   * `requestWasSuccessful` false), or only successful ones.
   */
  count?: 'all' | 'failures' | 'successes';
  requestWasSuccessful?: Options['requestWasSuccessful'];
  /** Whom the budget belongs to; the client address by default. Return '' to not count the request. */
  key?: (req: Request) => string;
  /** Where the request keeps this limiter's count for later middleware (`req[name].used`); 'rateLimit' by default. */
  requestPropertyName?: string;
}

/** The client address as the default key (IPv6 addresses by their /56, as express-rate-limit advises). */
export const clientAddressKey = (req: Request): string => ipKeyGenerator(req.ip ?? 'unknown');

export interface Limiter {
  middleware: RequestHandler;
  /** Counts one hit for `key` outside the middleware (e.g. a refusal decided later in another route). */
  hit: (key: string) => Promise<void>;
  /** Whether `key` has used up its budget. */
  exhausted: (key: string) => Promise<boolean>;
}

/**
 * The store's commands on our client. Each counter is one key (one EVALSHA), which a cluster client
 * routes to its slot's node. The store's SCRIPT LOAD names no key: it goes to every master of a cluster
 * (on any one node, the EVALSHA would find NOSCRIPT on the key's), and answers the script's SHA1 even
 * when Redis is not there yet (a cluster still learning its slots, Redis down at start): the store keeps
 * that answer for good, and a NOSCRIPT later makes it load again. Else the limits would stay open.
 */
function storeCommands(redis: RedisClient) {
  return async ({ command: [name = '', ...args] }: SendCommandClusterDetails) => {
    if (name.toUpperCase() === 'SCRIPT' && args[0]?.toUpperCase() === 'LOAD' && args[1] !== undefined) {
      const servers = isCluster(redis) ? redis.nodes('master') : [redis];
      await Promise.all(servers.map((server) => server.call('SCRIPT', ...args))).catch(() => {});
      return createHash('sha1').update(args[1]).digest('hex') as never;
    }
    return redis.call(name, ...args) as Promise<never>;
  };
}

export function createLimiter(ctx: AppContext, options: LimiterOptions): Limiter {
  const store = new RedisStore({
    prefix: `${ctx.config.RATE_LIMIT_PREFIX}:${options.name}:`,
    sendCommandCluster: storeCommands(ctx.redis),
  });
  const keyOf = options.key ?? clientAddressKey;
  const report = (fallback: string) => (err: unknown, message?: string) => ctx.log.warn({ err: (err as Error | undefined)?.message, limiter: options.name }, message ?? fallback);
  const limiter = rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    store,
    keyGenerator: keyOf,
    skip: (req) => keyOf(req) === '',
    skipSuccessfulRequests: options.count === 'failures',
    skipFailedRequests: options.count === 'successes',
    ...(options.requestWasSuccessful ? { requestWasSuccessful: options.requestWasSuccessful } : {}),
    passOnStoreError: true,
    ...(options.requestPropertyName ? { requestPropertyName: options.requestPropertyName } : {}),
    // The library's own complaints (Redis unreachable at start, a misconfiguration) go to our log.
    logger: { error: report('rate limiter error'), warn: report('rate limiter warning') },
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // Our key generators apply ipKeyGenerator themselves; the library's start-up checks cannot see that.
    validate: { keyGeneratorIpFallback: false },
    handler: (_req, _res, next) => next(new AppError('RATE_LIMITED', options.message)),
  });
  return {
    middleware: limiter,
    hit: async (key) => {
      await store.increment(key).catch((err: unknown) => report('rate limit store unavailable')(err));
    },
    exhausted: async (key) => {
      const info = await store.get(key).catch(() => undefined);
      return (info?.totalHits ?? 0) >= options.limit;
    },
  };
}
