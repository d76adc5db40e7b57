/**
 * NetSuite internal ids of customers already upserted, so a returning customer's order costs one
 * request (the sales order) instead of two: the account's concurrency limit, not our CPU, is the sync's
 * ceiling. Kept in Redis (shared by every erp-sync process) for CUSTOMER_ID_TTL_DAYS; a sales order
 * NetSuite refuses for its customer reference drops the entry and the customer is upserted again. The
 * cache only ever saves requests: when Redis fails, it answers "not known" and forgets nothing else.
 */
import type { Logger } from '@nh/server/observability/logger';
import type { RedisClient } from '@nh/server/runtime/redis';

export const CUSTOMER_ID_TTL_DAYS = 30;

export interface CustomerIdCache {
  get(externalId: string): Promise<string | null>;
  set(externalId: string, internalId: string): Promise<void>;
  forget(externalId: string): Promise<void>;
}

export function redisCustomerIdCache(redis: RedisClient, prefix: string, log: Logger): CustomerIdCache {
  const key = (externalId: string) => `${prefix}:netsuite:customer:${externalId}`;
  const quietly = async <T>(what: string, fallback: T, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      log.warn({ err: (err as Error).message }, `NetSuite customer id cache: ${what} failed`);
      return fallback;
    }
  };
  return {
    get: (externalId) => quietly('read', null, () => redis.get(key(externalId))),
    set: (externalId, internalId) => quietly('write', undefined, async () => void (await redis.set(key(externalId), internalId, 'EX', CUSTOMER_ID_TTL_DAYS * 86_400))),
    forget: (externalId) => quietly('delete', undefined, async () => void (await redis.del(key(externalId)))),
  };
}
