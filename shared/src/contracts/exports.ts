/**
 * Admin CSV export of orders: POST /api/admin/orders/export starts it with optional filters (answers
 * at once), then …/export/{id}/status reports progress (rowsDone of rowsTotal, written by the worker as
 * it goes) and …/export/{id}/download streams the finished file (nh-orders-{yyyy-MM-dd}.csv); the same
 * download is also a plain link, GET …/export/{id}/download?storeCode=NH, so the browser saves the
 * stream itself. POST …/export/history lists the store's exports (who, when, filters, rows, size,
 * status, download until). The POST calls carry the store code in the body; the staff session
 * authenticates. A finished file is kept until `expiresAt` (EXPORT_RETENTION_HOURS after it finished,
 * default 24), then deleted: its download answers 410.
 */
import { z } from 'zod';
import { STORE_CODE, STORE_CODE_MAX_LENGTH } from '../constants';
import { ORDER_STATUSES, orderStatusSchema, PAYMENT_STATE_MESSAGE, PAYMENT_STATES } from './admin';
import { SYNC_STATUSES } from './admin-sync';
import { textField } from './fields';

export const EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const EXPORT_MESSAGES = {
  notFound: 'Export not found',
  notReady: 'The export is not finished yet.',
  failed: 'Export failed',
  fileGone: 'The export file is no longer available. Please export again.',
  storeCode: 'Please enter a valid store code.',
  day: 'Dates must be written as yyyy-mm-dd.',
  range: 'The "from" date must be on or before the "to" date.',
  historyLimit: 'Limit must be a whole number from 1 to 100',
} as const;

/** The body of every export call: the store code. */
export const adminExportRequestSchema = z.object({
  storeCode: textField({ max: STORE_CODE_MAX_LENGTH, required: EXPORT_MESSAGES.storeCode, tooLong: EXPORT_MESSAGES.storeCode }).min(1, EXPORT_MESSAGES.storeCode).default(STORE_CODE),
});
export type AdminExportRequest = z.input<typeof adminExportRequestSchema>;

/** A UTC day, yyyy-mm-dd, that exists (2026-02-30 does not). */
const utcDay = z
  .string({ error: EXPORT_MESSAGES.day })
  .regex(/^\d{4}-\d{2}-\d{2}$/, EXPORT_MESSAGES.day)
  .refine((d) => {
    const ms = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === d;
  }, EXPORT_MESSAGES.day);
const emptyToUndefined = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === 'all' || v === null ? undefined : v), schema.optional());

/** What an export can be narrowed to: orders placed from/to these UTC days (both included), of one status. */
export const exportFiltersShape = {
  /** Placed on or after this UTC day. */
  from: emptyToUndefined(utcDay),
  /** Placed on or before this UTC day. */
  to: emptyToUndefined(utcDay),
  /** One order status; '' or 'all' for every status. */
  status: emptyToUndefined(orderStatusSchema),
  /**
   * Issue 23: the orders table's other filters and its search, so an export is what staff see: part of the
   * name or email, or an order id prefix; a NetSuite status; a promo code; a payment state.
   */
  search: emptyToUndefined(textField({ max: 200, tooLong: 'Search must be at most 200 characters' })),
  netsuiteStatus: emptyToUndefined(z.enum(SYNC_STATUSES, { error: 'NetSuite status must be pending, synced, failed or not configured' })),
  promo: emptyToUndefined(textField({ max: 50, tooLong: 'Promo code must be at most 50 characters' }).toUpperCase()),
  paymentState: emptyToUndefined(z.enum(PAYMENT_STATES, { error: PAYMENT_STATE_MESSAGE })),
};
const fromBeforeTo = (f: { from?: string; to?: string }) => !f.from || !f.to || f.from <= f.to;

export const exportFiltersSchema = z.object(exportFiltersShape).refine(fromBeforeTo, { message: EXPORT_MESSAGES.range, path: ['from'] });
export type ExportFilters = z.infer<typeof exportFiltersSchema>;

/** POST /api/admin/orders/export: the store code and the filters (none: every order of the store). */
export const startExportRequestSchema = adminExportRequestSchema.extend(exportFiltersShape).refine(fromBeforeTo, { message: EXPORT_MESSAGES.range, path: ['from'] });
export type StartExportRequest = z.input<typeof startExportRequestSchema>;

/** POST /api/admin/orders/export/history: the store's newest exports, `limit` of them (default 50). */
export const exportHistoryRequestSchema = adminExportRequestSchema.extend({
  limit: z.number({ error: EXPORT_MESSAGES.historyLimit }).int(EXPORT_MESSAGES.historyLimit).min(1, EXPORT_MESSAGES.historyLimit).max(100, EXPORT_MESSAGES.historyLimit).default(50),
});
export type ExportHistoryRequest = z.input<typeof exportHistoryRequestSchema>;

/** The filters an export was asked with, every key present (null: not filtered by it). */
export const exportFiltersViewSchema = z.object({
  from: z.string().nullable(),
  to: z.string().nullable(),
  status: z.enum(ORDER_STATUSES).nullable(),
  search: z.string().nullable().default(null),
  netsuiteStatus: z.string().nullable().default(null),
  promo: z.string().nullable().default(null),
  paymentState: z.enum(PAYMENT_STATES).nullable().default(null),
});
export type ExportFiltersView = z.infer<typeof exportFiltersViewSchema>;

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
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Who started it (the email at the time; null for exports from before staff accounts). */
  staffEmail: z.string().nullable(),
  filters: exportFiltersViewSchema,
  /** The finished file's size in bytes. */
  sizeBytes: z.number().int().nullable(),
  /** Download until (ISO): the file is deleted after this. */
  expiresAt: z.string().nullable(),
  /** When the file was deleted (retention), or null. */
  fileDeletedAt: z.string().nullable(),
  /** Completed, and the file still there: the download answers 200. */
  downloadable: z.boolean(),
});
export type ExportStatusResponse = z.infer<typeof exportStatusSchema>;

/** POST /api/admin/orders/export/history: newest first; each entry the status answer of that export. */
export const exportHistorySchema = z.object({ exports: z.array(exportStatusSchema) });
export type ExportHistory = z.infer<typeof exportHistorySchema>;
