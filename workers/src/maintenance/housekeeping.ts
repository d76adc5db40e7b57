/**
 * maintenance: the hourly housekeeping of the tables the order write path fills without end.
 *
 * - Published outbox rows older than RETENTION_DAYS go (the relay never needs them again; the jobs
 *   they made are in BullMQ, and the facts they announced are in their own tables).
 * - Idempotency keys older than RETENTION_DAYS go (a key only has to outlive a shopper's retries),
 *   finished or not: an unfinished one marks a request whose outcome was never recorded, and the
 *   payment reconciliation settles (or flags for staff) its order within a day, so after
 *   RETENTION_DAYS it only takes space.
 * - Both tables are then vacuumed. They are queue-like (every outbox row is updated once and later
 *   deleted), and the relay's query walks the partial index of unpublished rows: dead entries there
 *   slow every relay pass. Autovacuum normally keeps up, but it may be off or behind (it is off on our
 *   build machines, where the relay's query was seen to take 24 ms instead of under 1 ms).
 *
 * Deletes run in batches, so no single statement holds many row locks or a long transaction. The
 * statements are @nh/server's (queries/outbox.ts, queries/idempotency.ts).
 */
import type { Job } from 'bullmq';
import { z } from 'zod';
import { deleteOldIdempotencyKeys, deletePublishedOutbox, vacuumIdempotencyKeys, vacuumOutbox, type Db, type Logger } from '@nh/server';
import { defineJob } from '../jobs/define';

/** Rows deleted per statement. */
const BATCH = 10_000;

export interface HousekeepingResult {
  outboxDeleted: number;
  idempotencyKeysDeleted: number;
}

export function createHousekeepingProcessor({ db, log, retentionDays }: { db: Db; log: Logger; retentionDays: number }) {
  const purge = async (deleteBatch: (pool: Db['$client'], olderThanDays: number, batch: number) => Promise<number>): Promise<number> => {
    let total = 0;
    for (;;) {
      const deleted = await deleteBatch(db.$client, retentionDays, BATCH);
      total += deleted;
      if (deleted < BATCH) return total;
    }
  };

  return async function housekeeping(job: Job): Promise<HousekeepingResult> {
    const result = { outboxDeleted: await purge(deletePublishedOutbox), idempotencyKeysDeleted: await purge(deleteOldIdempotencyKeys) };
    // VACUUM cannot run inside a transaction: each is a statement of its own.
    await vacuumOutbox(db.$client);
    await vacuumIdempotencyKeys(db.$client);
    log.info({ jobId: job.id, queue: 'maintenance', retentionDays, ...result }, 'housekeeping done');
    return result;
  };
}

/** Hourly: old outbox rows and idempotency keys go, and those two busy tables are vacuumed. */
export const housekeepingJob = defineJob({
  name: 'housekeeping',
  queue: 'maintenance',
  payload: z.object({}).passthrough(),
  schedule: { id: 'maintenance-hourly', pattern: '17 * * * *' },
  handler: ({ db, log, config }) => createHousekeepingProcessor({ db, log, retentionDays: config.RETENTION_DAYS }),
});
