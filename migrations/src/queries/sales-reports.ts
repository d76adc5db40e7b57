/**
 * The sales reports (issue 23): each reads a range and the period before it in one pass over the store's
 * orders by date (`orders (store_code, created_at)`), grouped by which of the two an order falls in.
 * What was given back comes from the approved refunds and voids (the partial index
 * `payment_transactions_given_back`, a few rows per refunded order), joined by order, not looked up per
 * order. Money comes back as integer cents (the columns are two-decimal numerics).
 */
import type pg from 'pg';

/** Orders that took money: paid and not cancelled (the dashboard's rule). */
const PAID = `o.status in ('processing', 'shipped', 'delivered')`;

export interface Periods {
  storeCode: string;
  /** yyyy-mm-dd, UTC: the previous period's first day, the range's first and last days. */
  previousFrom: string;
  from: string;
  to: string;
}

/**
 * The paid orders of both periods as `counted` (cur: in the range, not the previous period; total and
 * given back in cents; kept: not given back in full), for the report's own select to read.
 */
const COUNTED = `
  bounds as (select $2::date::timestamptz as lo_prev, $3::date::timestamptz as lo, ($4::date + 1)::timestamptz as hi),
  back as (
    select p.order_id, sum(p.amount) as amount
    from payment_transactions p join orders o on o.id = p.order_id, bounds b
    where p.kind in ('refund', 'void') and p.status = 'approved'
      and o.store_code = $1 and o.created_at >= b.lo_prev and o.created_at < b.hi
    group by p.order_id),
  counted as (
    select o.id, o.created_at >= b.lo as cur, o.created_at, o.items, o.customer_id, o.subscription_id,
           (o.total * 100)::bigint as total, (least(coalesce(back.amount, 0), o.total) * 100)::bigint as given
    from orders o cross join bounds b left join back on back.order_id = o.id
    where o.store_code = $1 and ${PAID} and o.created_at >= b.lo_prev and o.created_at < b.hi)`;

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
  const { rows } = await pool.query<SalesRow>({
    name: 'report_sales',
    text: `with ${COUNTED}
      select cur, sum(total)::float8 as sales, count(*) filter (where total > given)::int as orders,
             coalesce(sum((select sum((i ->> 'quantity')::int) from jsonb_array_elements(items) i)) filter (where total > given), 0)::int as units,
             sum(given)::float8 as refunds
      from counted group by cur`,
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

/** Lines of the orders kept, by product: units and line sales (price × quantity) in each period; top `limit` by the range's units. */
export async function topProducts(pool: pg.Pool, p: Periods, limit: number): Promise<TopProductRow[]> {
  const { rows } = await pool.query<TopProductRow>({
    name: 'report_top_products',
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

export interface CustomerRow {
  cur: boolean;
  is_new: boolean;
  customers: number;
  orders: number;
  revenue: number;
}

/**
 * Customers with a kept order in each period, new (their first paid order, `customers.first_order_at`,
 * placed in that period) or returning (before it), with their orders and net revenue.
 */
export async function customerFigures(pool: pg.Pool, p: Periods): Promise<CustomerRow[]> {
  const { rows } = await pool.query<CustomerRow>({
    name: 'report_customers',
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

export interface RevenueMixRow {
  cur: boolean;
  subscription: boolean;
  orders: number;
  revenue: number;
}

/** Kept orders and their net revenue in each period, of a plan (first delivery and renewals) or one-time. */
export async function revenueMix(pool: pg.Pool, p: Periods): Promise<RevenueMixRow[]> {
  const { rows } = await pool.query<RevenueMixRow>({
    name: 'report_revenue_mix',
    text: `with ${COUNTED}
      select cur, subscription_id is not null as subscription, count(*)::int as orders, sum(total - given)::float8 as revenue
      from counted where total > given group by 1, 2`,
    values: values(p),
  });
  return rows;
}
