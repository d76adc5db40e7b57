/**
 * Order CSV exports: the API records the request (an exports row and an `export.requested` outbox row
 * in one transaction) and answers at once; a worker writes the file. Only a completed export's
 * finished file is ever served.
 */
import fs from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { recordAudit, recordOutbox, tables, type AuditActor, type Db } from '@nh/server';
import { EXPORT_MESSAGES, type ExportStarted, type ExportStatus, type ExportStatusResponse } from '@nh/shared/contracts/exports';
import { AppError } from '../../../lib/errors';

const { exports } = tables;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startExport(db: Db, storeCode: string, actor: AuditActor): Promise<ExportStarted> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(exports).values({ storeCode }).returning({ id: exports.id, status: exports.status });
    await recordOutbox(tx, 'export.requested', { exportId: row!.id });
    await recordAudit(tx, actor, { action: 'export.started', entityType: 'export', entityId: row!.id, before: null, after: { storeCode } });
    return { exportId: row!.id, status: row!.status as ExportStatus };
  });
}

async function findExport(db: Db, storeCode: string, exportId: string) {
  if (!UUID.test(exportId)) throw new AppError('NOT_FOUND', EXPORT_MESSAGES.notFound);
  const [row] = await db.select().from(exports).where(and(eq(exports.id, exportId), eq(exports.storeCode, storeCode)));
  if (!row) throw new AppError('NOT_FOUND', EXPORT_MESSAGES.notFound);
  return row;
}

export async function exportStatus(db: Db, storeCode: string, exportId: string): Promise<ExportStatusResponse> {
  const row = await findExport(db, storeCode, exportId);
  return {
    exportId: row.id,
    storeCode: row.storeCode,
    status: row.status as ExportStatus,
    rowsDone: row.rowsDone,
    rowsTotal: row.rowsTotal,
    error: row.error,
    fileName: row.status === 'completed' ? row.fileName : null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The finished file to stream, or a 409 (not finished / failed) or 410 (file removed since). */
export async function exportDownload(db: Db, storeCode: string, exportId: string, actor: AuditActor): Promise<{ path: string; fileName: string; size: number }> {
  const row = await findExport(db, storeCode, exportId);
  if (row.status === 'failed') throw new AppError('EXPORT_FAILED', EXPORT_MESSAGES.failed, { status: row.status, error: row.error });
  if (row.status !== 'completed' || !row.filePath || !row.fileName) throw new AppError('EXPORT_NOT_READY', EXPORT_MESSAGES.notReady, { status: row.status });
  try {
    const stat = await fs.promises.stat(row.filePath);
    await recordAudit(db, actor, { action: 'export.downloaded', entityType: 'export', entityId: row.id, after: { fileName: row.fileName, rows: row.rowsTotal } });
    return { path: row.filePath, fileName: row.fileName, size: stat.size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new AppError('EXPORT_FILE_GONE', EXPORT_MESSAGES.fileGone);
  }
}
