import { z } from 'zod';
import { requestStaleSyncs } from '@nh/server/queries/sync';
import { defineJob } from '../jobs/define';

/** Every 10 minutes: orders pending too long get a fresh sync request (a job lost with Redis data). */
export const reconcileSyncJob = defineJob({
  name: 'reconcile-sync',
  queue: 'erp-sync',
  payload: z.object({}).passthrough(),
  schedule: { id: 'erp-sync-reconcile', pattern: '*/10 * * * *' },
  handler: ({ db, log, config }) =>
    async function reconcileSync(job): Promise<{ outcome: 'reconciled'; requested: number }> {
      const requested = await requestStaleSyncs(db, config.ERP_SYNC_STALE_MINUTES);
      if (requested > 0) log.warn({ jobId: job.id, queue: 'erp-sync', requested }, 'orders pending too long: sync requested again');
      return { outcome: 'reconciled', requested };
    },
});
