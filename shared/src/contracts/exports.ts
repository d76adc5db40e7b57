/**
 * Admin CSV export of orders: POST /api/admin/orders/export starts it (answers at once), then
 * …/export/{id}/status reports progress and …/export/{id}/download streams the finished file
 * (nh-orders-{yyyy-MM-dd}.csv). All three carry the store code in the body; the staff session authenticates.
 */
import { z } from 'zod';
import { STORE_CODE, STORE_CODE_MAX_LENGTH } from '../constants';
import { textField } from './fields';

export const EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const EXPORT_MESSAGES = {
  notFound: 'Export not found',
  notReady: 'The export is not finished yet.',
  failed: 'Export failed',
  fileGone: 'The export file is no longer available. Please export again.',
  storeCode: 'Please enter a valid store code.',
} as const;

/** The body of every export call: the store code. */
export const adminExportRequestSchema = z.object({
  storeCode: textField({ max: STORE_CODE_MAX_LENGTH, required: EXPORT_MESSAGES.storeCode, tooLong: EXPORT_MESSAGES.storeCode }).min(1, EXPORT_MESSAGES.storeCode).default(STORE_CODE),
});
export type AdminExportRequest = z.input<typeof adminExportRequestSchema>;

export const exportStartedSchema = z.object({ exportId: z.string().uuid(), status: z.enum(EXPORT_STATUSES) });
export type ExportStarted = z.infer<typeof exportStartedSchema>;

export const exportStatusSchema = z.object({
  exportId: z.string().uuid(),
  storeCode: z.string(),
  status: z.enum(EXPORT_STATUSES),
  rowsDone: z.number().int(),
  rowsTotal: z.number().int().nullable(),
  /** Why a failed export failed; null otherwise. */
  error: z.string().nullable(),
  /** The download's file name once completed. */
  fileName: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ExportStatusResponse = z.infer<typeof exportStatusSchema>;
