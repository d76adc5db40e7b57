/**
 * Subscriptions CSV export (issue 21): as the order export (./exports.ts: the same exports queue,
 * progress, history, retention and audit), of the store's plans, narrowed to one status if asked.
 * POST /api/admin/subscriptions/export starts it; …/export/{id}/status, …/export/history and
 * …/export/{id}/download (POST, or GET with `?storeCode=`) as for orders. The file is
 * nh-subscriptions-{yyyy-MM-dd}.csv.
 */
import { z } from 'zod';
import { adminExportRequestSchema, exportStatusSchema } from './exports';
import { SUBSCRIPTION_STATUSES } from './subscriptions';

export const SUBSCRIPTION_EXPORT_MESSAGES = {
  status: 'Status must be active, paused, cancelled or expired',
} as const;

/** The columns of the file, in order (every cell neutralised by the shop's one CSV writer). */
export const SUBSCRIPTION_EXPORT_HEADERS = [
  'Plan ID',
  'Status',
  'Delivery frequency',
  'Next delivery (UTC)',
  'Items',
  'Amount per delivery',
  'Customer name',
  'Email',
  'Created (UTC)',
  'Cancelled (UTC)',
  'Skipped periods',
  // Consent on record (issue 22): blank for plans from before it was kept.
  'Consent given (UTC)',
  'Terms version',
  'Agreed price per delivery',
] as const;

export const subscriptionExportFileName = (date: string) => `nh-subscriptions-${date}.csv`;

const status = z.preprocess((v) => (v === '' || v === 'all' || v === null ? undefined : v), z.enum(SUBSCRIPTION_STATUSES, { error: SUBSCRIPTION_EXPORT_MESSAGES.status }).optional());

/** POST /api/admin/subscriptions/export: the store code and, optionally, one plan status. */
export const startSubscriptionExportRequestSchema = adminExportRequestSchema.extend({ status });
export type StartSubscriptionExportRequest = z.input<typeof startSubscriptionExportRequestSchema>;

/** The filters a subscriptions export was asked with. */
export const subscriptionExportFiltersSchema = z.object({ status });
export const subscriptionExportFiltersViewSchema = z.object({ status: z.enum(SUBSCRIPTION_STATUSES).nullable() });
export type SubscriptionExportFiltersView = z.infer<typeof subscriptionExportFiltersViewSchema>;

export const subscriptionExportStatusSchema = exportStatusSchema.extend({ filters: subscriptionExportFiltersViewSchema });
export type SubscriptionExportStatus = z.infer<typeof subscriptionExportStatusSchema>;

export const subscriptionExportHistorySchema = z.object({ exports: z.array(subscriptionExportStatusSchema) });
export type SubscriptionExportHistory = z.infer<typeof subscriptionExportHistorySchema>;
