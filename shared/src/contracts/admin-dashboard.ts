/**
 * GET /api/admin/dashboard: the back office's first screen. Money as 2-decimal strings like every admin
 * answer; days are UTC (yyyy-mm-dd). Sales are paid orders (processing, shipped, delivered). Revenue is
 * net: each order's total less its approved refunds and voids, counted on the order's day; an order voided
 * or refunded in full is not a sale (nor counted as an order). `refunded` is what was given back of those
 * days' orders, so gross sales are `revenue + refunded`.
 */
import { z } from 'zod';
import { SYNC_STATUSES } from './admin-sync';

export const DASHBOARD_DAYS = 30;

const money = z.string();
const queueDepthSchema = z.object({ waiting: z.number(), active: z.number(), delayed: z.number(), failed: z.number(), oldestWaitingAt: z.string().nullable() });

export const dashboardSchema = z.object({
  generatedAt: z.string(),
  today: z.object({ orders: z.number(), revenue: money, refunded: money }),
  /** `averageOrderValue`: net revenue per order counted. */
  last30Days: z.object({ orders: z.number(), revenue: money, refunded: money, averageOrderValue: money }),
  /** One entry per UTC day, oldest first, DASHBOARD_DAYS of them ending today (days without sales included); revenue net. */
  daily: z.array(z.object({ day: z.string(), orders: z.number(), revenue: money })),
  plans: z.object({
    active: z.number(),
    /** Active plans' amounts as a monthly figure (a quarterly plan counts a third of its amount). */
    monthlyRecurringRevenue: money,
    renewalsDueNext7Days: z.number(),
    renewalsDueNext7DaysAmount: money,
    /** Active plans in dunning (a failed renewal waiting for its retry) and paused plans. */
    inDunning: z.number(),
    paused: z.number(),
  }),
  /**
   * A cadence that learns (issue 21), over the last DASHBOARD_DAYS days: suggestions shown to shoppers (once
   * per plan and billing period, on My Subscriptions or in the renewal reminder), accepted (a change to the
   * suggested cadence followed) and declined.
   */
  cadenceSuggestions: z.object({ shown: z.number(), accepted: z.number(), declined: z.number() }),
  netsuite: z.object({
    counts: z.record(z.enum(SYNC_STATUSES), z.number()),
    oldestPendingAt: z.string().nullable(),
  }),
  /** Per queue; null when Redis did not answer in time. */
  queues: z.record(z.string(), queueDepthSchema.nullable()),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** Staff words for the queues. */
export const QUEUE_LABELS: Record<string, string> = {
  'erp-sync': 'NetSuite sync',
  exports: 'Exports',
  emails: 'Emails',
  renewals: 'Renewals',
  maintenance: 'Maintenance',
};
