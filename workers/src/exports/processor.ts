/**
 * exports: the orders of a store (narrowed by the export's filters: UTC days from/to, a status) to a
 * CSV file. Rows stream from Postgres (pg-query-stream, a cursor) through csv-stringify to a temporary
 * file that is renamed only when complete, so a failed or interrupted export never leaves a file that
 * could be served. Progress (rows done of the total counted first) is written every `progressEvery`
 * rows; the completed row records the file's size and when it expires (`retentionHours` later, when
 * housekeeping deletes it). Statements: @nh/server queries/exports.ts.
 * Name, payload, options and topic: @nh/server/jobs/export-orders (the API may add it too).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import QueryStream from 'pg-query-stream';
import type { Job } from 'bullmq';
import { exportFileName } from '@nh/shared';
import { loadExport, markExportCompleted, markExportFailed, markExportRunning, postgresErrorOf, setExportProgress, tables, type Db, type Logger } from '@nh/server';
import { exportOrdersContract } from '@nh/server/jobs/export-orders';
import { defineJob } from '../jobs/define';
import { EXPORT_COLUMNS, exportFiltersOf, exportQuery, neutraliseRow, type ExportQueryFilters } from './columns';

const BUFFER_BYTES = 1024 * 1024;

export interface ExportDeps {
  db: Db;
  log: Logger;
  exportsDir: string;
  progressEvery: number;
  /** A finished file is kept this long (hours), then deleted by housekeeping. */
  retentionHours: number;
}

export type ExportResult = { outcome: 'completed'; rows: number; filePath: string } | { outcome: 'skipped'; reason: string };

/** Streams the orders of `storeCode` (narrowed by `filters`) as CSV into `target`; calls `onProgress` every `every` rows. Returns the row count. */
export async function writeOrdersCsv(
  db: Db,
  storeCode: string,
  target: fs.WriteStream,
  every: number,
  onProgress: (rows: number) => void,
  filters: ExportQueryFilters = {},
): Promise<number> {
  const { text, values } = exportQuery(storeCode, filters);
  const client = await db.$client.connect();
  try {
    const query = client.query(new QueryStream(text, values, { batchSize: 5000, rowMode: 'array' }));
    let rows = 0;
    // Large buffers between the stages: fewer pause/resume cycles for ~200 bytes per row.
    const csv = stringify({ header: true, columns: EXPORT_COLUMNS.map((c) => c.header), readableHighWaterMark: BUFFER_BYTES });
    // The 'record' event fires synchronously before a row is stringified: neutralising and counting
    // there saves a stream stage per row.
    csv.on('record', (row: Array<string | null>) => {
      neutraliseRow(row);
      rows++;
      if (rows % every === 0) onProgress(rows);
    });
    await pipeline(query, csv, target);
    return rows;
  } finally {
    client.release();
  }
}

export function createExportProcessor({ db, log, exportsDir, progressEvery, retentionHours }: ExportDeps) {
  return async function exportOrders(job: Job, { exportId }: { exportId: string }): Promise<ExportResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'exports', exportId });
    const row = await loadExport(db, exportId);
    if (!row) return { outcome: 'skipped', reason: 'export not found' };
    if (row.status === 'completed') return { outcome: 'skipped', reason: 'already completed' };

    const finalPath = path.join(exportsDir, `${exportId}.csv`);
    const tempPath = `${finalPath}.part`;
    let progress: Promise<unknown> = Promise.resolve();
    try {
      const filters = exportFiltersOf(row.filters, tables.orderStatus.enumValues);
      const { countText, values } = exportQuery(row.storeCode, filters);
      const [{ count } = { count: 0 }] = (await db.$client.query<{ count: number }>(countText, values)).rows;
      await markExportRunning(db, exportId, count);
      await fsp.mkdir(exportsDir, { recursive: true });
      const target = fs.createWriteStream(tempPath, { highWaterMark: BUFFER_BYTES });
      const rows = await writeOrdersCsv(
        db,
        row.storeCode,
        target,
        progressEvery,
        (done) => {
          // One write at a time, in order; a failed progress write never fails the export.
          progress = progress.then(() => setExportProgress(db.$client, exportId, done)).catch(() => {});
          void job.updateProgress({ rowsDone: done, rowsTotal: count }).catch(() => {});
        },
        filters,
      );
      await progress;
      await fsp.rename(tempPath, finalPath);
      await markExportCompleted(db, exportId, {
        rows,
        fileName: exportFileName(row.createdAt.toISOString().slice(0, 10)),
        filePath: finalPath,
        sizeBytes: target.bytesWritten,
        retentionHours,
      });
      jobLog.info({ rows, sizeBytes: target.bytesWritten, filters }, 'export completed');
      return { outcome: 'completed', rows, filePath: finalPath };
    } catch (error) {
      await progress;
      await fsp.rm(tempPath, { force: true }).catch(() => {});
      await markExportFailed(db, exportId, exportFailureMessage(error));
      jobLog.error({ err: error }, 'export failed');
      throw error;
    }
  };
}

export const exportOrdersJob = defineJob({
  ...exportOrdersContract,
  handler: ({ db, log, config }) =>
    createExportProcessor({ db, log, exportsDir: config.EXPORTS_DIR, progressEvery: config.EXPORT_PROGRESS_EVERY, retentionHours: config.EXPORT_RETENTION_HOURS }),
});

/**
 * What staff see of a failed export: what went wrong in words and a code to quote, never the error's
 * own message (a database error's carries the query and its values).
 */
export function exportFailureMessage(error: unknown): string {
  const pgError = postgresErrorOf(error);
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const what = pgError
    ? `The orders could not be read from the database (error ${pgError.code}).`
    : typeof code === 'string'
      ? `The export file could not be written (${code}).`
      : 'The export failed.';
  return `${what} Please try again; if it fails again, an operator can find the details in the worker log.`;
}
