/**
 * Order and subscription CSV exports (`exports`, `kind` says which): the API's request (who asked, with which filters), its status and
 * history reads; the export worker's status writes (running with the total, progress as it goes,
 * completed with the file's size and its expiry, failed); and housekeeping's deletion of files past
 * their expiry. The rows themselves stay (the history); only the file goes, marked by file_deleted_at.
 *
 * The progress write runs every few thousand rows of a million-row export: a named `pg` statement,
 * prepared once per connection. The rest uses drizzle's builder.
 */
import type pg from 'pg';
import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { ExportFilters } from '@nh/shared/contracts/exports';
import type { Db, DbOrTx } from '../db/client';
import { exports } from '../db/schema';

export type ExportRow = typeof exports.$inferSelect;

/** What an export writes: the orders (the first export) or the plans (issue 21). */
export type ExportKind = 'orders' | 'subscriptions';

/** queued | running | completed | failed */
export type ExportRowStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface NewExport {
  storeCode: string;
  staffId: string | null;
  staffEmail: string;
  /** Only the filters given (an empty object: every order, or every plan, of the store). */
  filters: ExportFilters | Record<string, unknown>;
  /** Orders when not given. */
  kind?: ExportKind;
}

/** A queued export (the caller writes its `export.requested` outbox row in the same transaction). */
export async function insertExport(tx: DbOrTx, input: NewExport): Promise<{ id: string; status: ExportRowStatus }> {
  const [row] = await tx
    .insert(exports)
    .values({ storeCode: input.storeCode, kind: input.kind ?? 'orders', staffId: input.staffId, staffEmail: input.staffEmail, filters: { ...input.filters } })
    .returning({ id: exports.id, status: exports.status });
  return { id: row!.id, status: row!.status as ExportRowStatus };
}

/** One export of a store (of `kind`), or undefined. */
export async function findExport(db: Db, storeCode: string, exportId: string, kind: ExportKind = 'orders'): Promise<ExportRow | undefined> {
  const [row] = await db.select().from(exports).where(and(eq(exports.id, exportId), eq(exports.storeCode, storeCode), eq(exports.kind, kind)));
  return row;
}

/** The store's newest exports of `kind` (the history), newest first. */
export async function listExports(db: Db, storeCode: string, limit: number, kind: ExportKind = 'orders'): Promise<ExportRow[]> {
  return db.select().from(exports).where(and(eq(exports.storeCode, storeCode), eq(exports.kind, kind))).orderBy(desc(exports.createdAt), desc(exports.id)).limit(limit);
}

/** The export a job was asked for (any store), or undefined. */
export async function loadExport(db: Db, exportId: string): Promise<ExportRow | undefined> {
  const [row] = await db.select().from(exports).where(eq(exports.id, exportId));
  return row;
}

/** The worker starts: running, nothing done yet, `rowsTotal` rows to go (counted first). */
export async function markExportRunning(db: Db, exportId: string, rowsTotal: number): Promise<void> {
  await db
    .update(exports)
    .set({ status: 'running', startedAt: new Date(), rowsDone: 0, rowsTotal, error: null, sizeBytes: null, expiresAt: null, fileDeletedAt: null })
    .where(eq(exports.id, exportId));
}

const SET_PROGRESS = { name: 'export-progress', text: `update exports set rows_done = $2 where id = $1 and status = 'running'` };

/** Rows written so far (the live progress bar reads it through the status call). */
export async function setExportProgress(pool: pg.Pool, exportId: string, rowsDone: number): Promise<void> {
  await pool.query({ ...SET_PROGRESS, values: [exportId, rowsDone] });
}

/** The storage key of an export's file (@nh/server storage: EXPORTS_DIR, or the bucket's `exports/` prefix). */
export const exportFileKey = (exportId: string): string => `${exportId}.csv`;

/**
 * The storage key a row's file_path names. It holds the key (`<id>.csv`); rows written before the
 * storage interface hold the file's absolute path in EXPORTS_DIR, whose last segment is that key.
 */
export const storedExportKey = (filePath: string): string => filePath.slice(filePath.lastIndexOf('/') + 1);

export interface CompletedExport {
  rows: number;
  fileName: string;
  /** The file's storage key (exportFileKey), kept in file_path. */
  fileKey: string;
  sizeBytes: number;
  /** The file is kept this long after now, then deleted by housekeeping. */
  retentionHours: number;
}

/** The finished file is in place: completed, with its row count, size and expiry. */
export async function markExportCompleted(db: Db, exportId: string, done: CompletedExport): Promise<void> {
  await db
    .update(exports)
    .set({
      status: 'completed',
      rowsDone: done.rows,
      rowsTotal: done.rows,
      fileName: done.fileName,
      filePath: done.fileKey,
      sizeBytes: done.sizeBytes,
      finishedAt: sql`now()`,
      expiresAt: sql`now() + make_interval(hours => ${done.retentionHours})`,
    })
    .where(eq(exports.id, exportId));
}

/** The export failed: the words staff see (never a database error's own message). */
export async function markExportFailed(db: Db, exportId: string, error: string): Promise<void> {
  await db.update(exports).set({ status: 'failed', error, finishedAt: new Date() }).where(eq(exports.id, exportId));
}

/** Housekeeping: up to `limit` exports whose file is past its expiry and not yet deleted, with the file's storage key. */
export async function expiredExportFiles(db: Db, limit: number): Promise<Array<{ id: string; fileKey: string }>> {
  const rows = await db
    .select({ id: exports.id, filePath: exports.filePath })
    .from(exports)
    .where(and(lt(exports.expiresAt, sql`now()`), isNull(exports.fileDeletedAt), isNotNull(exports.filePath)))
    .orderBy(exports.expiresAt)
    .limit(limit);
  return rows.map((r) => ({ id: r.id, fileKey: storedExportKey(r.filePath!) }));
}

/** Housekeeping: these exports' files are gone (their downloads answer 410 from now on). */
export async function markExportFilesDeleted(db: Db, exportIds: readonly string[]): Promise<void> {
  if (exportIds.length === 0) return;
  await db.update(exports).set({ fileDeletedAt: sql`now()` }).where(inArray(exports.id, [...exportIds]));
}
