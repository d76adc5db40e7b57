/** The exports queue: one export at a time per worker process (each streams a whole table). */
import { defineQueue } from '../jobs/define';
import { exportOrdersJob } from './processor';

export const exportsQueue = defineQueue({
  name: 'exports',
  jobs: [exportOrdersJob],
  worker: () => ({ concurrency: 1 }),
});
