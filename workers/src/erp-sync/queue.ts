/** The erp-sync queue: its jobs and its worker settings. */
import { defineQueue } from '../jobs/define';
import { backoffStrategy } from './backoff';
import { syncOrderJob } from './processor';
import { reconcileSyncJob } from './reconcile';
import { syncStoreCreditJob } from './store-credit-sync';
import { syncCustomerEmailJob } from './customer-email-sync';

export const erpSyncQueue = defineQueue({
  name: 'erp-sync',
  jobs: [syncOrderJob, reconcileSyncJob, syncStoreCreditJob, syncCustomerEmailJob],
  // A sync is idempotent, so a job whose worker died may safely run again a few times. Its short lock
  // (renewed while it runs) and frequent stalled checks give a dead worker's global slots back within seconds.
  worker: (config) => ({
    concurrency: config.ERP_SYNC_CONCURRENCY,
    lockDuration: config.ERP_SYNC_LOCK_MS,
    stalledInterval: config.ERP_SYNC_STALLED_CHECK_MS,
    maxStalledCount: 3,
    settings: { backoffStrategy: backoffStrategy(config.ERP_SYNC_BACKOFF_MS, config.ERP_SYNC_BACKOFF_MAX_MS) },
  }),
  // The cap holds across every worker process, below the account's concurrent-request limit.
  setup: async (queue, { config }) => {
    await queue.setGlobalConcurrency(config.ERP_SYNC_CONCURRENCY);
  },
});
