import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import type { RedisClient } from '@nh/server/runtime/redis';
import type { ApiConfig } from './config';

/** What the composition root hands to every module. */
export interface AppContext {
  config: ApiConfig;
  db: Db;
  redis: RedisClient;
  log: Logger;
}
