/**
 * Order and subscription CSV exports (one of each `ExportKindSpec`): the API records the request (an exports row with who asked and the filters, and an
 * `export.requested` outbox row, in one transaction) and answers at once; a worker writes the file and
 * its progress. Only a completed export's finished file is ever served, and only until it expires
 * (housekeeping deletes it then). Statements: @nh/server queries/exports.ts.
 */
import { findExport as findStoreExport, insertExport, listExports, storedExportKey, type ExportKind, type ExportRow } from '@nh/server/queries/exports';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { recordOutbox } from '@nh/server/queries/outbox';
import type { Db } from '@nh/server/db/client';
import { CSV_CONTENT_TYPE, type DownloadAnswer, type FileStorage } from '@nh/server/storage';
import {
  EXPORT_MESSAGES,
  exportFiltersSchema,
  type ExportFilters,
  type ExportFiltersView,
  type ExportStarted,
  type ExportStatus,
  type ExportStatusResponse,
} from '@nh/shared/contracts/exports';
import { AppError } from '../../../lib/errors';

/** What differs between the kinds of export: the rows' kind, the outbox topic its worker job comes from, its filters as shown. */
export interface ExportKindSpec<View> {
  kind: ExportKind;
  topic: typeof OUTBOX_TOPICS.exportRequested | typeof OUTBOX_TOPICS.subscriptionExportRequested;
  /** The filters as the status answer shows them, from the stored row (every key present). */
  filtersView: (stored: unknown) => View;
}

/** The order export: filters as stored; a row from before filters existed (null) was every order of the store. */
export const ORDER_EXPORTS: ExportKindSpec<ExportFiltersView> = {
  kind: 'orders',
  topic: OUTBOX_TOPICS.exportRequested,
  filtersView: (stored) => {
    const parsed = exportFiltersSchema.safeParse(stored ?? {});
    const filters = parsed.success ? parsed.data : {};
    return {
      from: filters.from ?? null,
      to: filters.to ?? null,
      status: filters.status ?? null,
      search: filters.search ?? null,
      netsuiteStatus: filters.netsuiteStatus ?? null,
      promo: filters.promo ?? null,
      paymentState: filters.paymentState ?? null,
    };
  },
};

/** An export's status answer, its filters as its kind shows them. */
export type ExportView<View> = Omit<ExportStatusResponse, 'filters'> & { filters: View };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only the filters given, so the stored row and the audit say what was asked. */
const givenFilters = <F extends Record<string, unknown>>(filters: F): Partial<F> => Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as Partial<F>;

export async function startExport<View>(
  db: Db,
  storeCode: string,
  filters: ExportFilters | Record<string, unknown>,
  actor: AuditActor,
  spec: ExportKindSpec<View> = ORDER_EXPORTS as ExportKindSpec<never>,
): Promise<ExportStarted> {
  const asked = givenFilters(filters);
  return db.transaction(async (tx) => {
    const row = await insertExport(tx, { storeCode, kind: spec.kind, staffId: actor.staffId, staffEmail: actor.email, filters: asked });
    await recordOutbox(tx, spec.topic, { exportId: row.id });
    const kind = spec.kind === 'orders' ? {} : { kind: spec.kind };
    await recordAudit(tx, actor, { action: 'export.started', entityType: 'export', entityId: row.id, before: null, after: { storeCode, ...kind, filters: asked } });
    return { exportId: row.id, status: row.status };
  });
}

async function findExport(db: Db, storeCode: string, exportId: string, kind: ExportKind): Promise<ExportRow> {
  if (!UUID.test(exportId)) throw new AppError('NOT_FOUND', EXPORT_MESSAGES.notFound);
  const row = await findStoreExport(db, storeCode, exportId, kind);
  if (!row) throw new AppError('NOT_FOUND', EXPORT_MESSAGES.notFound);
  return row;
}

/** The file is past its expiry, or housekeeping has deleted it. */
const fileGone = (row: ExportRow, now: number) => row.fileDeletedAt !== null || (row.expiresAt !== null && row.expiresAt.getTime() <= now);

/** What staff see of an export (the status call and each history entry). */
function exportView<View>(row: ExportRow, spec: ExportKindSpec<View>, now = Date.now()): ExportView<View> {
  const completed = row.status === 'completed';
  return {
    exportId: row.id,
    storeCode: row.storeCode,
    status: row.status as ExportStatus,
    rowsDone: row.rowsDone,
    rowsTotal: row.rowsTotal,
    error: row.error,
    fileName: completed ? row.fileName : null,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    staffEmail: row.staffEmail,
    filters: spec.filtersView(row.filters),
    sizeBytes: row.sizeBytes,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    fileDeletedAt: row.fileDeletedAt?.toISOString() ?? null,
    downloadable: completed && row.filePath !== null && !fileGone(row, now),
  };
}

export async function exportStatus<View = ExportFiltersView>(
  db: Db,
  storeCode: string,
  exportId: string,
  spec: ExportKindSpec<View> = ORDER_EXPORTS as ExportKindSpec<never>,
): Promise<ExportView<View>> {
  return exportView(await findExport(db, storeCode, exportId, spec.kind), spec);
}

/** The store's newest exports of the kind, newest first: who, when, filters, rows, size, status, download until. */
export async function exportHistory<View = ExportFiltersView>(
  db: Db,
  storeCode: string,
  limit: number,
  spec: ExportKindSpec<View> = ORDER_EXPORTS as ExportKindSpec<never>,
): Promise<{ exports: Array<ExportView<View>> }> {
  const rows = await listExports(db, storeCode, limit, spec.kind);
  const now = Date.now();
  return { exports: rows.map((row) => exportView(row, spec, now)) };
}

/**
 * The finished file (streamed through the API, or a signed URL of the bucket: the storage's download
 * answer), or a 409 (not finished / failed) or 410 (expired, or the file removed since).
 */
export async function exportDownload(
  db: Db,
  files: FileStorage,
  storeCode: string,
  exportId: string,
  actor: AuditActor,
  kind: ExportKind = 'orders',
): Promise<{ fileName: string; answer: DownloadAnswer }> {
  const row = await findExport(db, storeCode, exportId, kind);
  if (row.status === 'failed') throw new AppError('EXPORT_FAILED', EXPORT_MESSAGES.failed, { status: row.status, error: row.error });
  if (row.status !== 'completed' || !row.filePath || !row.fileName) throw new AppError('EXPORT_NOT_READY', EXPORT_MESSAGES.notReady, { status: row.status });
  if (fileGone(row, Date.now())) throw new AppError('EXPORT_FILE_GONE', EXPORT_MESSAGES.fileGone);
  const answer = await files.download(storedExportKey(row.filePath), { fileName: row.fileName, contentType: CSV_CONTENT_TYPE });
  if (!answer) throw new AppError('EXPORT_FILE_GONE', EXPORT_MESSAGES.fileGone);
  try {
    await recordAudit(db, actor, { action: 'export.downloaded', entityType: 'export', entityId: row.id, after: { fileName: row.fileName, rows: row.rowsTotal } });
  } catch (error) {
    if (answer.kind === 'stream') answer.file.body.destroy();
    throw error;
  }
  return { fileName: row.fileName, answer };
}
