/**
 * Reporting reads of the back office's dashboard: sales per UTC day, the plans' recurring revenue and
 * what is due, NetSuite's backlog. Aggregates in SQL (one pass each over the index range they need).
 */
import { toCents } from '@nh/shared/money';
import { INTERVAL_MONTHS } from '@nh/shared/contracts/subscriptions';
import type { Db } from '../db/client';

/** Orders that took money: paid and not cancelled. */
const PAID = `status in ('processing', 'shipped', 'delivered')`;

export interface DailySales {
  day: string;
  /** Paid orders of the day that kept some of their money (an order refunded or voided in full is not a sale). */
  orders: number;
  /** Cents, net: the orders' totals less what was given back of them (approved refunds and voids). */
  revenue: number;
  /** Cents given back of the day's paid orders (approved refunds and voids), whenever it was given back. */
  refunded: number;
}

/**
 * Paid orders and their totals per UTC day, for the `days` days ending today (days without sales
 * included). Revenue is net: each order counts its total less its approved refunds and voids (by the
 * order's day), so a partial refund lowers it by the amount refunded and an order voided or refunded in
 * full drops out, from the count of orders too. What was given back is reported beside it.
 */
export async function salesByDay(db: Db, storeCode: string, days: number): Promise<DailySales[]> {
  const { rows } = await db.$client.query<{ day: string; orders: number; revenue: string; refunded: string }>({
    name: 'reports_sales_by_day',
    text: `with span as (
        select generate_series(date_trunc('day', now() at time zone 'UTC') - make_interval(days => $2::int - 1), date_trunc('day', now() at time zone 'UTC'), interval '1 day') as day),
      sales as (
        select o.created_at, o.total, least(coalesce(g.amount, 0), o.total) as given_back
        from orders o
        left join lateral (
          select sum(p.amount) as amount from payment_transactions p
          where p.order_id = o.id and p.kind in ('refund', 'void') and p.status = 'approved') g on true
        where o.store_code = $1 and o.${PAID}
          and o.created_at >= (select min(day) from span) at time zone 'UTC')
      select to_char(span.day, 'YYYY-MM-DD') as day,
        count(s.created_at) filter (where s.total > s.given_back)::int as orders,
        round(coalesce(sum(s.total - s.given_back), 0), 2)::text as revenue,
        round(coalesce(sum(s.given_back), 0), 2)::text as refunded
      from span left join sales s
        on s.created_at >= span.day at time zone 'UTC' and s.created_at < (span.day + interval '1 day') at time zone 'UTC'
      group by span.day order by span.day`,
    values: [storeCode, days],
  });
  return rows.map((r) => ({ day: r.day, orders: r.orders, revenue: toCents(r.revenue), refunded: toCents(r.refunded) }));
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
