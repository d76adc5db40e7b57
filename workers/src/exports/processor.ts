/**
 * exports: the orders of a store (or its plans: ./subscriptions.ts, the same file, progress and row) (narrowed by the export's filters: UTC days from/to, a status) to a
 * CSV file. Rows stream from Postgres (a cursor, @nh/server queries/order-export.ts) through the shop's
 * one CSV writer (@nh/server/csv: cells quoted, formulas neutralised) into the file storage's streaming write
 * (EXPORTS_DIR, or the S3 bucket of STORAGE_URL), which stores nothing under the key unless every byte
 * arrived, so a failed or interrupted export never leaves a file that could be served. Progress (rows
 * done of the total counted first) is written every `progressEvery` rows; the completed row records
 * the file's size and when it expires (`retentionHours` later, when housekeeping deletes it).
 * Statements: @nh/server queries/order-export.ts (the rows) and queries/exports.ts (the export's row).
 * Name, payload, options and topic: @nh/server/jobs/export-orders (the API may add it too).
 */
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Job } from 'bullmq';
import { exportFileName } from '@nh/shared';
import type { Db } from '@nh/server/db/client';
import { caughtUpReplica } from '@nh/server/queries/replica';
import { orderStatus } from '@nh/server/db/schema';
import { postgresErrorOf, type Logger } from '@nh/server/observability/logger';
import { exportFileKey, loadExport, markExportCompleted, markExportFailed, markExportRunning, setExportProgress, type ExportRow } from '@nh/server/queries/exports';
import { countOrderExport, EXPORT_COLUMNS, streamOrderExport, type ExportQueryFilters } from '@nh/server/queries/order-export';
import { exportOrdersContract } from '@nh/server/jobs/export-orders';
import { csvWriter, type CsvRow } from '@nh/server/csv';
import { CSV_CONTENT_TYPE, type FileStorage } from '@nh/server/storage';
import { defineJob } from '../jobs/define';
import { exportFiltersOf } from './filters';

/** What the file is written in: the CSV's rows joined into chunks of this size (the last one smaller). */
const CHUNK_BYTES = 64 * 1024;
/**
 * The joined chunks waiting for the file's write: two. Kept small on purpose (issue 26): the rows made
 * between two young-generation collections come to ~300 KB of CSV, and a chunk that waits behind more
 * than that (1 MB did, whenever the disk or the upload was the slower side) is promoted and, dead,
 * holds its memory until a full collection, which V8 lets reach ~64 MB of such buffers.
 */
const BUFFER_BYTES = 2 * CHUNK_BYTES;

/**
 * The CSV's bytes joined into chunks of `chunkBytes` (issue 26). The CSV writer pushes each row as its
 * own small Buffer, a slice of an 8 KB slab Node shares between small Buffers; a row that waited in a
 * buffer long enough to be promoted to the old generation kept its whole slab alive until a full
 * collection, so a slow disk or upload left tens of MB of dead slabs behind. Joined at once, the slices
 * die young, and what waits for the file (up to BUFFER_BYTES) is two unshared 64 KB chunks.
 */
export function chunkJoiner(chunkBytes: number = CHUNK_BYTES, highWaterMark: number = BUFFER_BYTES): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flushPending = (stream: Transform) => {
    if (pendingBytes === 0) return;
    stream.push(Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
  };
  return new Transform({
    // The large buffer is the joined chunks' side; rows waiting to be joined stay few (the default 16 KB).
    readableHighWaterMark: highWaterMark,
    transform(chunk: Buffer, _encoding, done) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= chunkBytes) flushPending(this);
      done();
    },
    flush(done) {
      flushPending(this);
      done();
    },
  });
}

export interface ExportDeps {
  db: Db;
  /**
   * Where the rows are read: DATABASE_READ_URL's replica once it has replayed what the primary had
   * written when the job started (so every order before the request is in the file), else the primary
   * (`caughtUpReplica`). Omitted: the primary.
   */
  readDb?: Db;
  log: Logger;
  /** Where the file is written (the local folder or the bucket). */
  files: FileStorage;
  progressEvery: number;
  /** A finished file is kept this long (hours), then deleted by housekeeping. */
  retentionHours: number;
}

export type ExportResult =
  { outcome: 'completed'; rows: number; fileKey: string; sizeBytes: number } | { outcome: 'skipped'; reason: string };

/** Streams the orders of `storeCode` (narrowed by `filters`) as CSV into `target`; calls `onProgress` every `every` rows. Returns the row count. */
export async function writeOrdersCsv(
  db: Db,
  storeCode: string,
  target: Writable,
  every: number,
  onProgress: (rows: number) => void,
  filters: ExportQueryFilters = {},
): Promise<number> {
  return streamOrderExport(db, storeCode, filters, async (query) => {
    let rows = 0;
    // The shop's one CSV writer: every cell quoted as needed and neutralised against formulas. Its
    // output (a small Buffer per row) is joined into chunks as it comes (`target`, chunkJoiner), so it
    // keeps the default small buffer: the large one is the joined chunks'.
    const csv = csvWriter({ columns: EXPORT_COLUMNS.map((c) => c.header) });
    // The 'record' event fires synchronously as a row is stringified: counting there saves a stream
    // stage per row.
    csv.on('record', (_row: CsvRow) => {
      rows++;
      if (rows % every === 0) onProgress(rows);
    });
    await pipeline(query, csv, target);
    return rows;
  });
}

/**
 * What one kind of export writes (the orders, or the plans: ./subscriptions.ts): how many rows (counted
 * first, for the progress), the rows as CSV into `target`, and the file's name. The file, the progress
 * and the export's row are the same for every kind (createExportProcessor).
 */
export interface ExportSource {
  /** The rows' name in a failure's words ("orders"). */
  rowsName: string;
  count: (db: Db, row: ExportRow) => Promise<number>;
  write: (db: Db, row: ExportRow, target: Writable, every: number, onProgress: (rows: number) => void) => Promise<number>;
  /** The download's file name, from the day the export was asked (yyyy-mm-dd). */
  fileName: (day: string) => string;
}

const ORDERS_SOURCE: ExportSource = {
  rowsName: 'orders',
  count: (db, row) => countOrderExport(db.$client, row.storeCode, exportFiltersOf(row.filters, orderStatus.enumValues)),
  write: (db, row, target, every, onProgress) => writeOrdersCsv(db, row.storeCode, target, every, onProgress, exportFiltersOf(row.filters, orderStatus.enumValues)),
  fileName: exportFileName,
};

export function createExportProcessor({ db, readDb = db, log, files, progressEvery, retentionHours }: ExportDeps, source: ExportSource = ORDERS_SOURCE) {
  return async function exportRows(job: Job, { exportId }: { exportId: string }): Promise<ExportResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'exports', exportId });
    const row = await loadExport(db, exportId);
    if (!row) return { outcome: 'skipped', reason: 'export not found' };
    if (row.status === 'completed') return { outcome: 'skipped', reason: 'already completed' };

    const fileKey = exportFileKey(exportId);
    let progress: Promise<unknown> = Promise.resolve();
    try {
      const rowsDb = await caughtUpReplica(db, readDb);
      if (rowsDb !== readDb) jobLog.warn('the read replica is down or has not caught up with the primary: the export reads the primary');
      const count = await source.count(rowsDb, row);
      await markExportRunning(db, exportId, count);
      // The CSV flows through `body` into the storage's write; a failure on either side fails both
      // (the pipeline destroys `body`, which fails the write; a failed write destroys `body`).
      // `body` joins the CSV's rows into 64 KB chunks (chunkJoiner: bounded memory whatever the size).
      const body = chunkJoiner();
      const storing = files.putStream(fileKey, body, { contentType: CSV_CONTENT_TYPE });
      storing.catch((error: unknown) => body.destroy(error as Error));
      // Both settle before the outcome is written: a failed write has removed what it began by then.
      const [written, stored] = await Promise.allSettled([
        source.write(rowsDb, row, body, progressEvery, (done) => {
          // One write at a time, in order; a failed progress write never fails the export.
          progress = progress.then(() => setExportProgress(db.$client, exportId, done)).catch(() => {});
          void job.updateProgress({ rowsDone: done, rowsTotal: count }).catch(() => {});
        }),
        storing,
      ]);
      // The write's error names the cause either way: its own, or the CSV side's that failed its source.
      if (stored.status === 'rejected') throw stored.reason;
      if (written.status === 'rejected') throw written.reason;
      const rows = written.value;
      const { size } = stored.value;
      await progress;
      await markExportCompleted(db, exportId, {
        rows,
        fileName: source.fileName(row.createdAt.toISOString().slice(0, 10)),
        fileKey,
        sizeBytes: size,
        retentionHours,
      });
      jobLog.info({ rows, sizeBytes: size, kind: row.kind, filters: row.filters, storage: files.location }, 'export completed');
      return { outcome: 'completed', rows, fileKey, sizeBytes: size };
    } catch (error) {
      await progress;
      await markExportFailed(db, exportId, exportFailureMessage(error, source.rowsName));
      jobLog.error({ err: error }, 'export failed');
      throw error;
    }
  };
}

export const exportOrdersJob = defineJob({
  ...exportOrdersContract,
  handler: ({ db, readDb, log, config, exportFiles }) =>
    createExportProcessor({
      db,
      readDb,
      log,
      files: exportFiles,
      progressEvery: config.EXPORT_PROGRESS_EVERY,
      retentionHours: config.EXPORT_RETENTION_HOURS,
    }),
});

/**
 * What staff see of a failed export: what went wrong in words and a code to quote, never the error's
 * own message (a database error's carries the query and its values).
 */
export function exportFailureMessage(error: unknown, rowsName = 'orders'): string {
  const pgError = postgresErrorOf(error);
  const code = (error as NodeJS.ErrnoException | null)?.code;
  // An object store's refusal (S3 SDK errors carry $metadata and the store's error name, e.g. NoSuchBucket).
  const storeError = (error as { $metadata?: unknown; name?: string } | null)?.$metadata ? (error as Error).name : null;
  const what = pgError
    ? `The ${rowsName} could not be read from the database (error ${pgError.code}).`
    : typeof code === 'string' || storeError
      ? `The export file could not be written (${typeof code === 'string' ? code : storeError}).`
      : 'The export failed.';
  return `${what} Please try again; if it fails again, an operator can find the details in the worker log.`;
}
