import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import type { RedisClient } from '@nh/server/runtime/redis';
import type { ApiConfig } from './config';

/** What the composition root hands to every module. */
export interface AppContext {
  config: ApiConfig;
  /** The primary: every write, transaction, checkout, payment, sign-in and stock read. */
  db: Db;
  /**
   * DATABASE_READ_URL's replica, or the primary itself when it is unset. Modules never take it from
   * here: they are handed `Reads` (lib/read-your-writes.ts), which sends a person who just changed
   * something to the primary.
   */
  readDb: Db;
  redis: RedisClient;
  log: Logger;
}
