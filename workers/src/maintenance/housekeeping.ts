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
 * Deletes run in batches, so no single statement holds many row locks or a long transaction.
 */
import type { Job } from 'bullmq';
import { z } from 'zod';
import type { Db, Logger } from '@nh/server';
import { defineJob } from '../jobs/define';

const BATCH = 10_000;

const PURGES = {
  outbox: `delete from outbox where id in (
      select id from outbox where published_at < now() - make_interval(days => $1) limit ${BATCH})`,
  idempotencyKeys: `delete from idempotency_keys where (scope, key) in (
      select scope, key from idempotency_keys where coalesce(completed_at, created_at) < now() - make_interval(days => $1) limit ${BATCH})`,
} as const;

export interface HousekeepingResult {
  outboxDeleted: number;
  idempotencyKeysDeleted: number;
}

export function createHousekeepingProcessor({ db, log, retentionDays }: { db: Db; log: Logger; retentionDays: number }) {
  const purge = async (text: string): Promise<number> => {
    let total = 0;
    for (;;) {
      const { rowCount } = await db.$client.query(text, [retentionDays]);
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < BATCH) return total;
    }
  };

  return async function housekeeping(job: Job): Promise<HousekeepingResult> {
    const result = { outboxDeleted: await purge(PURGES.outbox), idempotencyKeysDeleted: await purge(PURGES.idempotencyKeys) };
    // VACUUM cannot run inside a transaction: each is a statement of its own.
    await db.$client.query('vacuum (analyze) outbox');
    await db.$client.query('vacuum (analyze) idempotency_keys');
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
