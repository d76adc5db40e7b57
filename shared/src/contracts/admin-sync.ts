/**
 * Admin view and control of the NetSuite order sync: POST /api/admin/sync/summary, /failed,
 * /orders/{id}/retry and /retry-failed. Bodies carry the store code; the staff session authenticates.
 */
import { z } from 'zod';
import { STORE_CODE, STORE_CODE_MAX_LENGTH } from '../constants';
import { textField } from './fields';

/** orders.netsuiteSyncStatus values. */
export const SYNC_STATUSES = ['pending', 'synced', 'failed', 'not_configured'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

export const ADMIN_SYNC_MESSAGES = {
  orderNotFound: 'Order not found',
  alreadySynced: 'This order is already synced to NetSuite.',
  storeCode: 'Please enter a valid store code.',
} as const;

export const adminSyncRequestSchema = z.object({
  storeCode: textField({ max: STORE_CODE_MAX_LENGTH, required: ADMIN_SYNC_MESSAGES.storeCode, tooLong: ADMIN_SYNC_MESSAGES.storeCode }).min(1, ADMIN_SYNC_MESSAGES.storeCode).default(STORE_CODE),
});
export type AdminSyncRequest = z.input<typeof adminSyncRequestSchema>;

/** POST /api/admin/sync/retry-failed: every failed order of the store, or only these (bulk retry of a selection). */
export const retryFailedRequestSchema = adminSyncRequestSchema.extend({
  orderIds: z
    .array(z.string().uuid('Order ids must be order ids from the table'), { error: 'orderIds must be a list of order ids' })
    .min(1, 'Select at least one order')
    .max(500, 'Retry at most 500 orders at once')
    .optional(),
});

export const queueCountsSchema = z.object({
  waiting: z.number().int(),
  active: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int(),
});

export const syncSummarySchema = z.object({
  storeCode: z.string(),
  counts: z.object({ pending: z.number().int(), synced: z.number().int(), failed: z.number().int(), not_configured: z.number().int() }),
  /** When the oldest order still waiting for its sync was placed (ISO), or null. */
  oldestPendingAt: z.string().nullable(),
  /** Rows in the failed-sync table (orders whose last attempt failed; removed when a retry succeeds). */
  failedSyncRows: z.number().int(),
  /** The erp-sync queue in Redis; null when Redis cannot be reached. */
  queue: queueCountsSchema.nullable(),
});
export type SyncSummary = z.infer<typeof syncSummarySchema>;

export const failedSyncSchema = z.object({
  orderId: z.string().uuid(),
  customerName: z.string(),
  customerEmail: z.string(),
  /** Two-decimal string. */
  total: z.string(),
  orderCreatedAt: z.string(),
  netsuiteSyncStatus: z.string(),
  errorMessage: z.string().nullable(),
  attempts: z.number().int(),
  lastAttemptAt: z.string().nullable(),
});
export type FailedSync = z.infer<typeof failedSyncSchema>;
export const failedSyncListSchema = z.object({ failed: z.array(failedSyncSchema) });

export const syncRetrySchema = z.object({ orderId: z.string().uuid(), netsuiteSyncStatus: z.literal('pending') });
export const syncRetryAllSchema = z.object({ retried: z.number().int() });
