/**
 * The sales reports counted live from the orders (issue 23): the queries the reports ran before the daily
 * summary (migration report_summary), with refunds to store credit counted as given back. Kept as the
 * summary's check: api/test/admin-reports.test.ts compares the two on the same data, and bench:admin
 * times both in one run. Not used by the API.
 */
import type pg from 'pg';
import type { CustomerRow, Periods, RevenueMixRow, SalesRow, TopProductRow } from '../queries/sales-reports';

/** Orders that took money: paid and not cancelled (the dashboard's rule). */
const PAID = `o.status in ('processing', 'shipped', 'delivered')`;


/**
 * The paid orders of both periods as `counted` (cur: in the range, not the previous period; total and
 * given back in cents; kept: not given back in full), for the report's own select to read.
 */
const COUNTED = `
  bounds as (select $2::date::timestamptz as lo_prev, $3::date::timestamptz as lo, ($4::date + 1)::timestamptz as hi),
  back as (
    select g.order_id, sum(g.amount) as amount
    from (select p.order_id, p.amount from payment_transactions p where p.kind in ('refund', 'void') and p.status = 'approved'
          union all
          select e.order_id, e.amount_cents / 100.0 from store_credit_entries e where e.kind = 'refund') g
      join orders o on o.id = g.order_id, bounds b
    where o.store_code = $1 and o.created_at >= b.lo_prev and o.created_at < b.hi
    group by g.order_id),
  counted as (
    select o.id, o.created_at >= b.lo as cur, o.created_at, o.items, o.customer_id, o.subscription_id,
           (o.total * 100)::bigint as total, (least(coalesce(back.amount, 0), o.total) * 100)::bigint as given
    from orders o cross join bounds b left join back on back.order_id = o.id
    where o.store_code = $1 and ${PAID} and o.created_at >= b.lo_prev and o.created_at < b.hi)`;

const values = (p: Periods) => [p.storeCode, p.previousFrom, p.from, p.to];


/** Per period: gross sales, orders kept, units of those orders, given back (cents). */
export async function liveSalesFigures(pool: pg.Pool, p: Periods): Promise<SalesRow[]> {
  const { rows } = await pool.query<SalesRow>({
    name: 'live_report_sales',
    text: `with ${COUNTED}
      select cur, sum(total)::float8 as sales, count(*) filter (where total > given)::int as orders,
             coalesce(sum((select sum((i ->> 'quantity')::int) from jsonb_array_elements(items) i)) filter (where total > given), 0)::int as units,
             sum(given)::float8 as refunds
      from counted group by cur`,
    values: values(p),
  });
  return rows;
}


/** Lines of the orders kept, by product: units and line sales (price × quantity) in each period; top `limit` by the range's units. */
export async function liveTopProducts(pool: pg.Pool, p: Periods, limit: number): Promise<TopProductRow[]> {
  const { rows } = await pool.query<TopProductRow>({
    name: 'live_report_top_products',
    text: `with ${COUNTED},
      lines as (
        select c.cur, c.created_at, (i ->> 'productId')::int as product_id, i ->> 'productName' as name,
               (i ->> 'quantity')::int as quantity, round((i ->> 'price')::numeric * 100 * (i ->> 'quantity')::int)::bigint as sales
        from counted c cross join jsonb_array_elements(c.items) i
        where c.total > c.given and i ? 'productId')
      select product_id, (array_agg(name order by created_at desc))[1] as name,
             coalesce(sum(quantity) filter (where cur), 0)::int as units, coalesce(sum(sales) filter (where cur), 0)::float8 as sales,
             coalesce(sum(quantity) filter (where not cur), 0)::int as previous_units, coalesce(sum(sales) filter (where not cur), 0)::float8 as previous_sales
      from lines group by product_id
      having sum(quantity) filter (where cur) > 0
      order by units desc, sales desc, product_id limit $5`,
    values: [...values(p), limit],
  });
  return rows;
}


/**
 * Customers with a kept order in each period, new (their first paid order, `customers.first_order_at`,
 * placed in that period) or returning (before it), with their orders and net revenue.
 */
export async function liveCustomerFigures(pool: pg.Pool, p: Periods): Promise<CustomerRow[]> {
  const { rows } = await pool.query<CustomerRow>({
    name: 'live_report_customers',
    text: `with ${COUNTED}
      select c.cur, cu.first_order_at >= (case when c.cur then b.lo else b.lo_prev end) as is_new,
             count(distinct c.customer_id)::int as customers, count(*)::int as orders, sum(c.total - c.given)::float8 as revenue
      from counted c join customers cu on cu.id = c.customer_id cross join bounds b
      where c.total > c.given
      group by 1, 2`,
    values: values(p),
  });
  return rows;
}


/** Kept orders and their net revenue in each period, of a plan (first delivery and renewals) or one-time. */
export async function liveRevenueMix(pool: pg.Pool, p: Periods): Promise<RevenueMixRow[]> {
  const { rows } = await pool.query<RevenueMixRow>({
    name: 'live_report_revenue_mix',
    text: `with ${COUNTED}
      select cur, subscription_id is not null as subscription, count(*)::int as orders, sum(total - given)::float8 as revenue
      from counted where total > given group by 1, 2`,
    values: values(p),
  });
  return rows;
}

/**
 * Rows in a form to compare the summary's with the live ones: all-zero groups left out (the summary keeps
 * a day whose orders were all given back or cancelled, the live count has no row for it), keys and rows
 * in a fixed order.
 */
export const comparableRows = <T extends object>(rows: T[]): string[] =>
  rows
    .filter((r) => Object.values(r).some((v) => typeof v === 'number' && v !== 0))
    .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))))
    .sort();
