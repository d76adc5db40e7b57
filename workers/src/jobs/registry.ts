/**
 * Every queue this program runs, each with its jobs (its own `queue.ts`): the one list the runtime,
 * the relay and the schedules are built from.
 */
import type { QueueName } from '@nh/server/queues';
import { emailsQueue } from '../emails/queue';
import { erpSyncQueue } from '../erp-sync/queue';
import { exportsQueue } from '../exports/queue';
import { maintenanceQueue } from '../maintenance/queue';
import { renewalsQueue } from '../renewals/queue';
import type { AnyJobDefinition, QueueDefinition } from './define';

export const QUEUES: { readonly [Q in QueueName]: QueueDefinition<Q> } = {
  'erp-sync': erpSyncQueue,
  exports: exportsQueue,
  emails: emailsQueue,
  renewals: renewalsQueue,
  maintenance: maintenanceQueue,
};

/** Every job, in queue order. */
export const JOBS: readonly AnyJobDefinition[] = Object.values<QueueDefinition>(QUEUES).flatMap((queue) => queue.jobs);

const duplicate = JOBS.map((job) => job.name).find((name, i, names) => names.indexOf(name) !== i);
if (duplicate) throw new Error(`job "${duplicate}" is defined twice`);
