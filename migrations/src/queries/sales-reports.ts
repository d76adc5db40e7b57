/**
 * The sales reports (issue 23), read from the daily summary (migration report_summary; docs/decisions/admin.md
 * "Reports: the daily summary"), caught up with every committed order, refund and store credit write
 * before each read (./report-summary.ts readSummary): a row per day (and plan/one-time, product, or
 * customer first/previous day) and per concurrent catch-up's slot (migration report_summary_plans; the
 * reads sum over slots) of the range and the period before it, instead of every order. What counts is the summary's one rule
 * (`report_order_facts_of`): an order counts on the UTC day it was placed when it took money (processing,
 * shipped, delivered); given back is its approved card refunds and voids and its refunds to store credit,
 * never more than its total; an order given back in full is no order. Money comes back as integer cents.
 * `migrations/src/testing/live-sales-reports.ts` counts the same from the orders, the summary's check.
 */
import type pg from 'pg';
import { readSummary } from './report-summary';

export interface Periods {
  storeCode: string;
  /** yyyy-mm-dd, UTC: the previous period's first day, the range's first and last days. */
  previousFrom: string;
  from: string;
  to: string;
}

/** The summary's days of both periods; `cur`: in the range (not the previous period); `lo`: the first day of the row's period. */
const DAYS = `store_code = $1 and day >= $2::date and day <= $4::date`;
const CUR = `day >= $3::date`;
const LO = `(case when day >= $3::date then $3::date else $2::date end)`;

const values = (p: Periods) => [p.storeCode, p.previousFrom, p.from, p.to];

export interface SalesRow {
  cur: boolean;
  sales: number;
  orders: number;
  units: number;
  refunds: number;
}

/** Per period: gross sales, orders kept, units of those orders, given back (cents). */
export async function salesFigures(pool: pg.Pool, p: Periods): Promise<SalesRow[]> {
  const rows = await readSummary<SalesRow>(pool, {
    name: 'report_sales_daily',
    text: `select ${CUR} as cur, sum(sales_cents)::float8 as sales, sum(orders)::int as orders, sum(units)::int as units, sum(given_cents)::float8 as refunds
      from order_daily_facts where ${DAYS} group by 1`,
    values: values(p),
  });
  return rows;
}

export interface TopProductRow {
  product_id: number;
  name: string;
  units: number;
  sales: number;
  previous_units: number;
  previous_sales: number;
}

/** Lines of the orders kept, by product: units and line sales (price × quantity) in each period, named by the latest line of both; top `limit` by the range's units. */
export async function topProducts(pool: pg.Pool, p: Periods, limit: number): Promise<TopProductRow[]> {
  const rows = await readSummary<TopProductRow>(pool, {
    name: 'report_top_products_daily',
    text: `select product_id, (array_agg(name order by name_at desc) filter (where name_at is not null))[1] as name,
             coalesce(sum(units) filter (where ${CUR}), 0)::int as units, coalesce(sum(sales_cents) filter (where ${CUR}), 0)::float8 as sales,
             coalesce(sum(units) filter (where not ${CUR}), 0)::int as previous_units, coalesce(sum(sales_cents) filter (where not ${CUR}), 0)::float8 as previous_sales
      from order_daily_products where ${DAYS}
      group by product_id
      having sum(units) filter (where ${CUR}) > 0
      order by units desc, sales desc, product_id limit $5`,
    values: [...values(p), limit],
  });
  return rows;
}

export interface CustomerRow {
  cur: boolean;
  is_new: boolean;
  customers: number;
  orders: number;
  revenue: number;
}

/**
 * Customers with a kept order in each period, new (their first paid order, `customers.first_order_at`,
 * placed in that period) or returning (before it), with their orders and net revenue. A customer counts
 * once per period: on their first day in it with a kept order, the day whose previous such day
 * (`prev_day`) is before the period.
 */
export async function customerFigures(pool: pg.Pool, p: Periods): Promise<CustomerRow[]> {
  const rows = await readSummary<CustomerRow>(pool, {
    name: 'report_customers_daily',
    text: `select ${CUR} as cur, first_day >= ${LO} as is_new, coalesce(sum(customers) filter (where prev_day < ${LO}), 0)::int as customers,
             sum(orders)::int as orders, sum(revenue_cents)::float8 as revenue
      from order_daily_customers where ${DAYS} and first_day <> 'infinity'
      group by 1, 2`,
    values: values(p),
  });
  return rows;
}

export interface RevenueMixRow {
  cur: boolean;
  subscription: boolean;
  orders: number;
  revenue: number;
}

/** Kept orders and their net revenue in each period, of a plan (first delivery and renewals) or one-time. */
export async function revenueMix(pool: pg.Pool, p: Periods): Promise<RevenueMixRow[]> {
  const rows = await readSummary<RevenueMixRow>(pool, {
    name: 'report_revenue_mix_daily',
    text: `select ${CUR} as cur, subscription, sum(orders)::int as orders, sum(sales_cents - given_cents)::float8 as revenue
      from order_daily_facts where ${DAYS} group by 1, 2`,
    values: values(p),
  });
  return rows;
}
