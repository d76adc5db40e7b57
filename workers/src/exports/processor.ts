/**
 * exports: all orders of a store to a CSV file. Rows stream from Postgres (pg-query-stream, a cursor)
 * through csv-stringify to a temporary file that is renamed only when complete, so a failed or
 * interrupted export never leaves a file that could be served. Progress is written as it goes.
 * Name, payload, options and topic: @nh/server/jobs/export-orders (the API may add it too).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import QueryStream from 'pg-query-stream';
import { eq } from 'drizzle-orm';
import type { Job } from 'bullmq';
import { exportFileName } from '@nh/shared';
import { postgresErrorOf, tables, type Db, type Logger } from '@nh/server';
import { exportOrdersContract } from '@nh/server/jobs/export-orders';
import { defineJob } from '../jobs/define';
import { EXPORT_COLUMNS, EXPORT_SQL, neutraliseRow } from './columns';

const BUFFER_BYTES = 1024 * 1024;

export interface ExportDeps {
  db: Db;
  log: Logger;
  exportsDir: string;
  progressEvery: number;
}

export type ExportResult = { outcome: 'completed'; rows: number; filePath: string } | { outcome: 'skipped'; reason: string };

/** Streams the orders of `storeCode` as CSV into `target`; calls `onProgress` every `every` rows. Returns the row count. */
export async function writeOrdersCsv(
  db: Db,
  storeCode: string,
  target: fs.WriteStream,
  every: number,
  onProgress: (rows: number) => void,
): Promise<number> {
  const client = await db.$client.connect();
  try {
    const query = client.query(new QueryStream(EXPORT_SQL, [storeCode], { batchSize: 5000, rowMode: 'array' }));
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

export function createExportProcessor({ db, log, exportsDir, progressEvery }: ExportDeps) {
  const { exports } = tables;

  return async function exportOrders(job: Job, { exportId }: { exportId: string }): Promise<ExportResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'exports', exportId });
    const row = await db.query.exports.findFirst({ where: eq(exports.id, exportId) });
    if (!row) return { outcome: 'skipped', reason: 'export not found' };
    if (row.status === 'completed') return { outcome: 'skipped', reason: 'already completed' };

    const finalPath = path.join(exportsDir, `${exportId}.csv`);
    const tempPath = `${finalPath}.part`;
    let progress: Promise<unknown> = Promise.resolve();
    try {
      const [{ count } = { count: 0 }] = (
        await db.$client.query<{ count: number }>('select count(*)::int as count from orders where store_code = $1', [row.storeCode])
      ).rows;
      await db
        .update(exports)
        .set({ status: 'running', startedAt: new Date(), rowsDone: 0, rowsTotal: count, error: null })
        .where(eq(exports.id, exportId));
      await fsp.mkdir(exportsDir, { recursive: true });
      const target = fs.createWriteStream(tempPath, { highWaterMark: BUFFER_BYTES });
      const rows = await writeOrdersCsv(db, row.storeCode, target, progressEvery, (done) => {
        progress = progress.then(() => db.update(exports).set({ rowsDone: done }).where(eq(exports.id, exportId))).catch(() => {});
        void job.updateProgress({ rowsDone: done, rowsTotal: count }).catch(() => {});
      });
      await progress;
      await fsp.rename(tempPath, finalPath);
      await db
        .update(exports)
        .set({
          status: 'completed',
          rowsDone: rows,
          rowsTotal: rows,
          fileName: exportFileName(row.createdAt.toISOString().slice(0, 10)),
          filePath: finalPath,
          finishedAt: new Date(),
        })
        .where(eq(exports.id, exportId));
      jobLog.info({ rows }, 'export completed');
      return { outcome: 'completed', rows, filePath: finalPath };
    } catch (error) {
      await progress;
      await fsp.rm(tempPath, { force: true }).catch(() => {});
      await db.update(exports).set({ status: 'failed', error: exportFailureMessage(error), finishedAt: new Date() }).where(eq(exports.id, exportId));
      jobLog.error({ err: error }, 'export failed');
      throw error;
    }
  };
}

export const exportOrdersJob = defineJob({
  ...exportOrdersContract,
  handler: ({ db, log, config }) => createExportProcessor({ db, log, exportsDir: config.EXPORTS_DIR, progressEvery: config.EXPORT_PROGRESS_EVERY }),
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
