/**
 * The dashboard: sales today and over 30 days (per day, for the chart; net of refunds and voids, with
 * what was refunded beside it), average order value, the plans' figures (and the cadence suggestions shown and accepted), NetSuite's backlog and the
 * queues' depths. Each part is one query; queue depths give up after a moment (Redis slow or away)
 * rather than hold the screen.
 */
import type { Queue } from 'bullmq';
import { centsToDecimal } from '@nh/shared';
import { planFigures, salesByDay } from '@nh/server/queries/reports';
import { cadenceSuggestionCounts } from '@nh/server/queries/subscriptions/plan-history';
import type { Db } from '@nh/server/db/client';
import { QUEUE_NAMES, readQueueDepth, type QueueName } from '@nh/server/runtime/queues';
import { DASHBOARD_DAYS, type Dashboard } from '@nh/shared/contracts/admin-dashboard';
import { syncSummary } from '../sync/service';

const QUEUE_TIMEOUT_MS = 1500;

export interface DashboardDeps {
  db: Db;
  queue: (name: QueueName) => Queue;
}

async function depth(queue: Queue): Promise<Dashboard['queues'][string]> {
  const read = await readQueueDepth(queue, QUEUE_TIMEOUT_MS);
  return read && { ...read, oldestWaitingAt: read.oldestWaitingAt === null ? null : new Date(read.oldestWaitingAt).toISOString() };
}

export async function dashboard({ db, queue }: DashboardDeps, storeCode: string): Promise<Dashboard> {
  const [daily, plans, suggestions, sync, ...depths] = await Promise.all([
    salesByDay(db, storeCode, DASHBOARD_DAYS),
    planFigures(db),
    cadenceSuggestionCounts(db, new Date(Date.now() - DASHBOARD_DAYS * 86_400_000)),
    syncSummary({ db, erpSyncQueue: () => queue('erp-sync') }, storeCode),
    ...QUEUE_NAMES.map((name) => depth(queue(name))),
  ]);
  const today = daily.at(-1) ?? { orders: 0, revenue: 0, refunded: 0 };
  const orders = daily.reduce((n, d) => n + d.orders, 0);
  const revenue = daily.reduce((n, d) => n + d.revenue, 0);
  const refunded = daily.reduce((n, d) => n + d.refunded, 0);
  return {
    generatedAt: new Date().toISOString(),
    today: { orders: today.orders, revenue: centsToDecimal(today.revenue), refunded: centsToDecimal(today.refunded) },
    last30Days: {
      orders,
      revenue: centsToDecimal(revenue),
      refunded: centsToDecimal(refunded),
      averageOrderValue: centsToDecimal(orders ? Math.round(revenue / orders) : 0),
    },
    daily: daily.map((d) => ({ day: d.day, orders: d.orders, revenue: centsToDecimal(d.revenue) })),
    plans: {
      active: plans.active,
      monthlyRecurringRevenue: centsToDecimal(plans.monthlyRecurringRevenue),
      renewalsDueNext7Days: plans.renewalsDueNext7Days,
      renewalsDueNext7DaysAmount: centsToDecimal(plans.renewalsDueNext7DaysAmount),
      inDunning: plans.inDunning,
      paused: plans.paused,
    },
    cadenceSuggestions: { shown: suggestions.shown, accepted: suggestions.accepted, declined: suggestions.dismissed },
    netsuite: { counts: sync.counts, oldestPendingAt: sync.oldestPendingAt },
    queues: Object.fromEntries(QUEUE_NAMES.map((name, i) => [name, depths[i] ?? null])),
  };
}
