/**
 * Reporting reads of the back office's dashboard: sales per UTC day, the plans' recurring revenue and
 * what is due, NetSuite's backlog. Aggregates in SQL (one pass each over the index range they need).
 */
import { toCents } from '@nh/shared/money';
import { INTERVAL_MONTHS } from '@nh/shared/contracts/subscriptions';
import type { Db } from '../db/client';
import { readSummary } from './report-summary';

export interface DailySales {
  day: string;
  /** Paid orders of the day that kept some of their money (an order refunded or voided in full is not a sale). */
  orders: number;
  /** Cents, net: the orders' totals less what was given back of them (approved refunds and voids, refunds to store credit). */
  revenue: number;
  /** Cents given back of the day's paid orders (approved refunds and voids, refunds to store credit), whenever it was given back. */
  refunded: number;
}

/**
 * Paid orders and their totals per UTC day, for the `days` days ending today (days without sales
 * included), from the sales reports' daily summary (`order_daily_facts`, the reports' one rule, so the
 * dashboard and the reports never disagree). Revenue is net: each order counts its total less what was
 * given back of it (by the order's day), so a partial refund lowers it by the amount refunded and an order
 * voided or refunded in full drops out, from the count of orders too. What was given back is reported beside it.
 */
export async function salesByDay(db: Db, storeCode: string, days: number): Promise<DailySales[]> {
  const rows = await readSummary<{ day: string; orders: number; revenue: string; refunded: string }>(db.$client, {
    name: 'reports_sales_by_day_summary',
    text: `with span as (
        select d::date as day from generate_series((now() at time zone 'UTC')::date - ($2::int - 1), (now() at time zone 'UTC')::date, interval '1 day') d)
      select to_char(span.day, 'YYYY-MM-DD') as day,
        coalesce(sum(f.orders), 0)::int as orders,
        coalesce(sum(f.sales_cents - f.given_cents), 0)::text as revenue,
        coalesce(sum(f.given_cents), 0)::text as refunded
      from span left join order_daily_facts f on f.store_code = $1 and f.day = span.day
      group by span.day order by span.day`,
    values: [storeCode, days],
  });
  return rows.map((r) => ({ day: r.day, orders: r.orders, revenue: Number(r.revenue), refunded: Number(r.refunded) }));
}

/** Months between a plan's deliveries, in SQL (interval × interval_count). */
export const MONTHS_SQL = `(case "interval" ${Object.entries(INTERVAL_MONTHS)
  .map(([name, months]) => `when '${name}' then ${months}`)
  .join(' ')} end * interval_count)`;

export interface PlanFigures {
  active: number;
  paused: number;
  inDunning: number;
  /** Cents per month. */
  monthlyRecurringRevenue: number;
  renewalsDueNext7Days: number;
  /** Cents. */
  renewalsDueNext7DaysAmount: number;
}

export async function planFigures(db: Db): Promise<PlanFigures> {
  const { rows } = await db.$client.query<{ active: number; paused: number; in_dunning: number; mrr: string; due: number; due_amount: string }>({
    name: 'reports_plan_figures',
    text: `select
        count(*) filter (where status = 'active')::int as active,
        count(*) filter (where status = 'paused')::int as paused,
        count(*) filter (where status = 'active' and failed_attempts > 0)::int as in_dunning,
        round(coalesce(sum(amount / ${MONTHS_SQL}) filter (where status = 'active'), 0), 2)::text as mrr,
        count(*) filter (where status = 'active' and next_billing_date < now() + interval '7 days')::int as due,
        round(coalesce(sum(amount) filter (where status = 'active' and next_billing_date < now() + interval '7 days'), 0), 2)::text as due_amount
      from subscriptions`,
  });
  const r = rows[0]!;
  return { active: r.active, paused: r.paused, inDunning: r.in_dunning, monthlyRecurringRevenue: toCents(r.mrr), renewalsDueNext7Days: r.due, renewalsDueNext7DaysAmount: toCents(r.due_amount) };
}
