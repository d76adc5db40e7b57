import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordOutbox, type Db } from '@nh/server';
import { defineJob } from '../jobs/define';

/**
 * Safety net for jobs lost outside our control (Redis restarted without persistence, a job that
 * stalled too often): orders still pending after `staleMinutes` get a fresh `order.sync-requested`
 * outbox row. Their updated_at is touched, so each is re-requested at most once per period; a
 * duplicate sync is harmless (upserts by external id, synced orders are skipped). Only orders whose
 * payment the gateway accepted (they have its transaction id) qualify: an order left `pending` by a
 * checkout that died before its charge was recorded is for staff to reconcile, never for NetSuite.
 */
export async function requestStaleSyncs(db: Db, staleMinutes: number, limit = 1000): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string }>(sql`
      update orders set updated_at = now()
      where id in (
        select id from orders
        where netsuite_sync_status = 'pending' and payment_transaction_id is not null and status <> 'cancelled'
          and updated_at < now() - make_interval(mins => ${staleMinutes})
        order by created_at limit ${limit} for update skip locked)
      returning id`);
    for (const row of rows) await recordOutbox(tx, 'order.sync-requested', { orderId: row.id });
    return rows.length;
  });
}

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
