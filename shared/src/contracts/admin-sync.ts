/**
 * Admin view and control of the NetSuite order sync: POST /api/admin/sync/summary, /failed,
 * /orders/{id}/retry and /retry-failed (permission sync.manage), and the order's NetSuite ledger,
 * /orders/{id}/attempts (orders.view: whoever may see the order sees its ledger). Bodies carry the
 * store code; the staff session authenticates.
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
  creditEntryNotFound: 'Store-credit movement not found',
  creditAlreadySynced: 'This store-credit movement is already in NetSuite.',
  creditNotSynced: 'Store credit spent on an order (or given back) travels to NetSuite with its order: retry the order’s sync instead.',
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
  /** Sync attempts of the failed-sync row: every job's attempts, added up across staff retries. */
  attempts: z.number().int(),
  lastAttemptAt: z.string().nullable(),
  /** NetSuite's error code of the newest failed request in the ledger (e.g. USER_ERROR), or null (none kept, or no code: a timeout). */
  lastErrorCode: z.string().nullable(),
  /** The HTTP status of that request (null: no answer, e.g. a timeout). */
  lastHttpStatus: z.number().int().nullable(),
  /**
   * Attempts the ledger holds for the order (within its retention): each attempt that reached NetSuite
   * ends at its first failed request, so this is the order's failed requests, rate-limited ones (429)
   * included.
   */
  ledgerAttempts: z.number().int(),
});
export type FailedSync = z.infer<typeof failedSyncSchema>;
export const failedSyncListSchema = z.object({ failed: z.array(failedSyncSchema) });

export const syncRetrySchema = z.object({ orderId: z.string().uuid(), netsuiteSyncStatus: z.literal('pending') });
export const syncRetryAllSchema = z.object({ retried: z.number().int() });

/** Ledger records: the NetSuite records a sync writes (a credit memo per refund of the order). */
export const SYNC_RECORDS = ['customer', 'salesOrder', 'creditMemo'] as const;
export type SyncRecord = (typeof SYNC_RECORDS)[number];

/**
 * One NetSuite request of a sync attempt (the ledger, `netsuite_sync_attempts`). An attempt is a
 * customer upsert then a sales-order upsert (each possibly followed by a read of the internal id);
 * it stops at its first failed request. Kept NETSUITE_LEDGER_RETENTION_DAYS (default 90).
 */
export const syncAttemptSchema = z.object({
  id: z.number().int(),
  /** When the request was sent (ISO). */
  at: z.string(),
  record: z.enum(SYNC_RECORDS),
  outcome: z.enum(['ok', 'failed']),
  /** The HTTP status NetSuite answered; null when no answer came (timeout, network error). */
  httpStatus: z.number().int().nullable(),
  /** NetSuite's error code (`o:errorCode`, e.g. USER_ERROR, INVALID_LOGIN, CONCURRENCY_LIMIT_EXCEEDED). */
  errorCode: z.string().nullable(),
  /** NetSuite's error detail, or what went wrong on the way (e.g. "timed out after 15000 ms"). */
  errorDetail: z.string().nullable(),
  durationMs: z.number().int(),
});
export type SyncAttempt = z.infer<typeof syncAttemptSchema>;

/** POST /api/admin/sync/orders/{id}/attempts: the order's sync state and its ledger, newest first (at most 500 requests). */
export const orderSyncAttemptsSchema = z.object({
  orderId: z.string().uuid(),
  netsuiteSyncStatus: z.enum(SYNC_STATUSES),
  /** The last error while pending or failed; null once synced. */
  netsuiteSyncError: z.string().nullable(),
  netsuiteOrderId: z.string().nullable(),
  netsuiteSyncedAt: z.string().nullable(),
  attempts: z.array(syncAttemptSchema),
});
export type OrderSyncAttempts = z.infer<typeof orderSyncAttemptsSchema>;

/**
 * POST /api/admin/sync/store-credit/failed: store-credit movements (grants, refunds to credit, expiries)
 * whose NetSuite sync failed after the job's last attempt; POST /api/admin/sync/store-credit/{entryId}/retry
 * sends one again (sync.manage, audited on the customer). Store credit is shop-wide: no store code.
 */
export const failedCreditSyncSchema = z.object({
  entryId: z.string(),
  kind: z.enum(['grant', 'refund', 'expire']),
  /** Two-decimal string, without sign. */
  amount: z.string(),
  customerId: z.string(),
  customerEmail: z.string(),
  errorMessage: z.string().nullable(),
  attempts: z.number().int(),
  lastAttemptAt: z.string(),
  createdAt: z.string(),
});
export type FailedCreditSync = z.infer<typeof failedCreditSyncSchema>;
export const failedCreditSyncListSchema = z.object({ failed: z.array(failedCreditSyncSchema) });
export const creditSyncRetrySchema = z.object({ entryId: z.string(), status: z.literal('pending') });
