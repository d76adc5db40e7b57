/** The exports queue: one export (orders or subscriptions) at a time per worker process (each streams a whole table). */
import { defineQueue } from '../jobs/define';
import { exportOrdersJob } from './processor';
import { exportSubscriptionsJob } from './subscriptions';

export const exportsQueue = defineQueue({
  name: 'exports',
  jobs: [exportOrdersJob, exportSubscriptionsJob],
  worker: () => ({ concurrency: 1 }),
});
