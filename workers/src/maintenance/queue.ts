/** The maintenance queue: scheduled upkeep and bulk swaps of plans, one job at a time. */
import { defineQueue } from '../jobs/define';
import { bulkSwapJob } from '../bulk-swap/job';
import { housekeepingJob } from './housekeeping';
import { reconcilePaymentsJob } from './reconcile-payments';
import { subscriptionSnapshotJob } from './subscription-snapshot';
import { storeCreditExpiryJob } from './store-credit-expiry';

export const maintenanceQueue = defineQueue({
  name: 'maintenance',
  jobs: [housekeepingJob, reconcilePaymentsJob, bulkSwapJob, subscriptionSnapshotJob, storeCreditExpiryJob],
  worker: () => ({ concurrency: 1 }),
});
