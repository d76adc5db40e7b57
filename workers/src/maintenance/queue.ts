/** The maintenance queue: scheduled upkeep, one job at a time. */
import { defineQueue } from '../jobs/define';
import { housekeepingJob } from './housekeeping';
import { reconcilePaymentsJob } from './reconcile-payments';

export const maintenanceQueue = defineQueue({
  name: 'maintenance',
  jobs: [housekeepingJob, reconcilePaymentsJob],
  worker: () => ({ concurrency: 1 }),
});
