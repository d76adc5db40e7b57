/**
 * maintenance: the hourly housekeeping of the tables the order write path fills without end.
 *
 * - Published outbox rows older than RETENTION_DAYS go (the relay never needs them again; the jobs
 *   they made are in BullMQ, and the facts they announced are in their own tables).
 * - Idempotency keys older than RETENTION_DAYS go (a key only has to outlive a shopper's retries),
 *   finished or not: an unfinished one marks a request whose outcome was never recorded, and the
 *   payment reconciliation settles (or flags for staff) its order within a day, so after
 *   RETENTION_DAYS it only takes space.
 * - NetSuite ledger rows (`netsuite_sync_attempts`, every request of every sync attempt) older than
 *   NETSUITE_LEDGER_RETENTION_DAYS (default 90) go.
 * - Shoppers' emailed links (`shopper_tokens`: password resets, guests' order links) and staff's
 *   (`staff_tokens`: invitations, password resets), plans' card-update links (`plan_card_links`) and the
 *   one-click action links of plan emails (`email_action_tokens`) and shoppers' sign-in codes (`sign_in_codes`) that expired more than RETENTION_DAYS ago go: spent
 *   or not, they open nothing. Staff sessions go as soon as they expire (they sign nobody in).
 * - Export files past their expiry (EXPORT_RETENTION_HOURS after they finished, default 24) are
 *   deleted and their rows marked (file_deleted_at): the history keeps the row, a download answers 410.
 *   The file goes first, then the mark, so a crash in between only means deleting it again next hour.
 * - Claims' photos no claim names, uploaded more than CLAIM_PHOTO_UNATTACHED_HOURS (a day) ago, are
 *   deleted: a shopper or staff member uploads the photo, then sends the claim naming it within
 *   seconds; one never named (the form abandoned) is a private picture kept for nothing.
 * - The outbox and the idempotency keys are then vacuumed. They are queue-like (every outbox row is
 *   updated once and later deleted), and the relay's query walks the partial index of unpublished
 *   rows: dead entries there slow every relay pass. Autovacuum normally keeps up, but it may be off
 *   or behind (it is off on our build machines, where the relay's query was seen to take 24 ms
 *   instead of under 1 ms).
 *
 * Deletes run in batches, so no single statement holds many row locks or a long transaction. The
 * statements are @nh/server's (queries/outbox.ts, queries/idempotency.ts, queries/sync.ts,
 * queries/exports.ts, queries/shopper-self-service.ts, queries/staff.ts).
 */
import type { Job } from 'bullmq';
import { z } from 'zod';
import { deleteOldIdempotencyKeys, vacuumIdempotencyKeys } from '@nh/server/queries/idempotency';
import { deleteOldSingleUseLinks, type SingleUseLinkTable } from '@nh/server/queries/single-use-tokens';
import { deleteExpiredStaffSessions } from '@nh/server/queries/staff';
import { deleteOldSyncAttempts } from '@nh/server/queries/sync';
import { deletePublishedOutbox, vacuumOutbox } from '@nh/server/queries/outbox';
import { expiredExportFiles, markExportFilesDeleted } from '@nh/server/queries/exports';
import { claimedPhotoKeys } from '@nh/server/queries/claims';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import type { FileStorage } from '@nh/server/storage';
import { defineJob } from '../jobs/define';

/** Rows deleted per statement. */
const BATCH = 10_000;
/** Export files deleted per round (each a file system call or an object store request). */
const FILE_BATCH = 100;
/** A claim photo no claim names is deleted this long after its upload. */
export const CLAIM_PHOTO_UNATTACHED_HOURS = 24;
/** Listed photos checked against the claims per statement. */
const PHOTO_BATCH = 500;

export interface HousekeepingResult {
  outboxDeleted: number;
  idempotencyKeysDeleted: number;
  ledgerRowsDeleted: number;
  shopperTokensDeleted: number;
  staffSessionsDeleted: number;
  staffTokensDeleted: number;
  planCardLinksDeleted: number;
  emailActionTokensDeleted: number;
  signInCodesDeleted: number;
  exportFilesDeleted: number;
  claimPhotosDeleted: number;
}

export interface HousekeepingDeps {
  db: Db;
  log: Logger;
  /** Outbox rows and idempotency keys. */
  retentionDays: number;
  /** NetSuite ledger rows. */
  ledgerRetentionDays: number;
  /** Where the export files are (the local folder or the bucket). */
  exportFiles: FileStorage;
  /** The claims' photos (the runtime always passes them; a test of other tables may leave them out). */
  claimPhotos?: FileStorage;
  /** The clock (tests). */
  now?: () => Date;
}

export function createHousekeepingProcessor({ db, log, retentionDays, ledgerRetentionDays, exportFiles, claimPhotos, now = () => new Date() }: HousekeepingDeps) {
  const purge = async (deleteBatch: (pool: Db['$client'], olderThanDays: number, batch: number) => Promise<number>, days: number): Promise<number> => {
    let total = 0;
    for (;;) {
      const deleted = await deleteBatch(db.$client, days, BATCH);
      total += deleted;
      if (deleted < BATCH) return total;
    }
  };

  const purgeLinks = (table: SingleUseLinkTable) => purge((pool, days, batch) => deleteOldSingleUseLinks(pool, table, days, batch), retentionDays);

  /** Files past their expiry: each deleted (already gone is fine), then the rows marked. */
  const deleteExpiredExportFiles = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const expired = await expiredExportFiles(db, FILE_BATCH);
      const deleted: string[] = [];
      for (const { id, fileKey } of expired) {
        try {
          await exportFiles.delete(fileKey);
          deleted.push(id);
        } catch (err) {
          // Left unmarked: tried again next hour; the rest go on.
          log.warn({ err, exportId: id }, 'export file could not be deleted');
        }
      }
      await markExportFilesDeleted(db, deleted);
      total += deleted.length;
      if (expired.length < FILE_BATCH || deleted.length === 0) return total;
    }
  };

  /** Photos older than a day that no claim names: listed, checked a batch at a time, deleted. */
  const deleteUnattachedClaimPhotos = async (): Promise<number> => {
    if (!claimPhotos) return 0;
    const before = now().getTime() - CLAIM_PHOTO_UNATTACHED_HOURS * 3_600_000;
    let total = 0;
    const sweep = async (keys: string[]) => {
      const claimed = await claimedPhotoKeys(db, keys);
      for (const key of keys) {
        if (claimed.has(key)) continue;
        try {
          await claimPhotos.delete(key);
          total += 1;
        } catch (err) {
          log.warn({ err, key }, 'claim photo could not be deleted'); // tried again next hour
        }
      }
    };
    let batch: string[] = [];
    for await (const file of claimPhotos.list()) {
      if (file.lastModified.getTime() >= before) continue;
      batch.push(file.key);
      if (batch.length === PHOTO_BATCH) {
        await sweep(batch);
        batch = [];
      }
    }
    await sweep(batch);
    return total;
  };

  return async function housekeeping(job: Job): Promise<HousekeepingResult> {
    const result = {
      outboxDeleted: await purge(deletePublishedOutbox, retentionDays),
      idempotencyKeysDeleted: await purge(deleteOldIdempotencyKeys, retentionDays),
      ledgerRowsDeleted: await purge(deleteOldSyncAttempts, ledgerRetentionDays),
      shopperTokensDeleted: await purgeLinks('shopper_tokens'),
      staffSessionsDeleted: await purge((_pool, _days, batch) => deleteExpiredStaffSessions(db, batch), 0),
      staffTokensDeleted: await purgeLinks('staff_tokens'),
      planCardLinksDeleted: await purgeLinks('plan_card_links'),
      emailActionTokensDeleted: await purgeLinks('email_action_tokens'),
      signInCodesDeleted: await purgeLinks('sign_in_codes'),
      exportFilesDeleted: await deleteExpiredExportFiles(),
      claimPhotosDeleted: await deleteUnattachedClaimPhotos(),
    };
    // VACUUM cannot run inside a transaction: each is a statement of its own.
    await vacuumOutbox(db.$client);
    await vacuumIdempotencyKeys(db.$client);
    log.info({ jobId: job.id, queue: 'maintenance', retentionDays, ledgerRetentionDays, ...result }, 'housekeeping done');
    return result;
  };
}

/** Hourly: old outbox rows, idempotency keys and ledger rows go, expired export files and unattached claim photos are deleted, and the two busy tables are vacuumed. */
export const housekeepingJob = defineJob({
  name: 'housekeeping',
  queue: 'maintenance',
  payload: z.object({}).passthrough(),
  schedule: { id: 'maintenance-hourly', pattern: '17 * * * *' },
  handler: ({ db, log, config, exportFiles, claimPhotos }) =>
    createHousekeepingProcessor({ db, log, retentionDays: config.RETENTION_DAYS, ledgerRetentionDays: config.NETSUITE_LEDGER_RETENTION_DAYS, exportFiles, claimPhotos }),
});
