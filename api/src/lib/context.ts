import type { Db, Logger, Redis } from '@nh/server';
import type { ApiConfig } from './config';

/** What the composition root hands to every module. */
export interface AppContext {
  config: ApiConfig;
  db: Db;
  redis: Redis;
  log: Logger;
}
