/**
 * Every queue this program runs, each with its jobs (its own `queue.ts`): the one list the runtime,
 * the relay and the schedules are built from, and the context the runtime gives their handlers.
 */
import type { QueueName } from '@nh/server/runtime/queues';
import { emailsQueue } from '../emails/queue';
import type { EmailJobContext } from '../emails/job';
import { erpSyncQueue } from '../erp-sync/queue';
import type { SyncJobContext } from '../erp-sync/processor';
import { exportsQueue } from '../exports/queue';
import { maintenanceQueue } from '../maintenance/queue';
import { renewalsQueue } from '../renewals/queue';
import type { AnyJobDefinition, QueueDefinition } from '../jobs/define';

/** What every job gets and what each queue adds: the context runtime.ts makes, checked against every queue below. */
export type WorkerContext = EmailJobContext & SyncJobContext;

export const QUEUES: { readonly [Q in QueueName]: QueueDefinition<Q, WorkerContext> } = {
  'erp-sync': erpSyncQueue,
  exports: exportsQueue,
  emails: emailsQueue,
  renewals: renewalsQueue,
  maintenance: maintenanceQueue,
};

/** Every job, in queue order. */
export const JOBS: readonly AnyJobDefinition[] = Object.values<QueueDefinition<QueueName, WorkerContext>>(QUEUES).flatMap((queue) => queue.jobs);

const duplicate = JOBS.map((job) => job.name).find((name, i, names) => names.indexOf(name) !== i);
if (duplicate) throw new Error(`job "${duplicate}" is defined twice`);
