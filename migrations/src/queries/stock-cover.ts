/**
 * Stock cover (issue 23): per product on sale (active or out of stock), the units the active plans' renewals due in the next 30
 * days take (recurring items, and one-time add-ons riding with them), the units sold in one-time orders
 * over the last 30 days (the sales rate), and the first renewal the stock will not cover: walking the
 * product's due renewals in date order, the units they need so far plus the sales rate until that day
 * exceed the stock. The plans due on or after that day are the ones the shortage reaches (the at-risk list's
 * "stock-short" reason reads the same walk: stockCoverCtes).
 */
import type pg from 'pg';

export interface StockCoverRow {
  product_id: number;
  name: string;
  in_stock: number;
  renewal_units: number;
  add_on_units: number;
  sold: number;
  runs_short_on: string | null;
  plans_short: number;
}

/**
 * The stock cover's walk as SQL common table expressions (the one place of the "runs short" rule), with
 * the statement's own placeholders for the store code and the number of days:
 * - `walk`: each due renewal's line (recurring or add-on) of each product, and whether the stock is short
 *   by then (the units due so far plus the sales rate until that day exceed the stock);
 * - `per_product`: the units due per product and the first day it runs short (`short_at`);
 * - `short_lines`: each plan due on or after its product's `short_at`, once per product, with the
 *   product's name, stock and that day (yyyy-MM-dd): the plans whose next delivery hits the shortage.
 * Used by the stock cover report and the plans' at-risk list (queries/subscriptions/staff.ts).
 */
export function stockCoverCtes(store: string, days: string): string {
  return `due as (
        select s.id, s.next_billing_date, (i ->> 'productId')::int as product_id, (i ->> 'quantity')::int as qty, false as add_on
        from subscriptions s cross join jsonb_array_elements(s.items) i
        where s.status = 'active' and s.next_billing_date < now() + make_interval(days => ${days}::int) and i ? 'productId'
        union all
        select s.id, s.next_billing_date, (i ->> 'productId')::int, (i ->> 'quantity')::int, true
        from subscriptions s cross join jsonb_array_elements(s.one_time_items) i
        where s.status = 'active' and s.next_billing_date < now() + make_interval(days => ${days}::int) and i ? 'productId'),
      sold as (
        select (i ->> 'productId')::int as product_id, sum((i ->> 'quantity')::int)::int as units
        from orders o cross join jsonb_array_elements(o.items) i
        where o.store_code = ${store} and o.status in ('processing', 'shipped', 'delivered') and o.subscription_id is null
          and o.created_at >= now() - make_interval(days => ${days}::int) and i ? 'productId'
        group by 1),
      walk as (
        select d.product_id, d.id, d.next_billing_date, d.qty, d.add_on,
               sum(d.qty) over (partition by d.product_id order by d.next_billing_date, d.id, d.add_on rows unbounded preceding)
                 + coalesce(sold.units, 0)::float8 / ${days} * greatest(0, extract(epoch from d.next_billing_date - now()) / 86400) > p.inventory as short
        from due d join products p on p.id = d.product_id left join sold on sold.product_id = d.product_id),
      per_product as (
        select product_id,
               coalesce(sum(qty) filter (where not add_on), 0)::int as renewal_units,
               coalesce(sum(qty) filter (where add_on), 0)::int as add_on_units,
               min(next_billing_date) filter (where short) as short_at
        from walk group by product_id),
      short_lines as (
        select distinct w.id as subscription_id, w.product_id, p.name, p.inventory as in_stock,
               to_char(pp.short_at at time zone 'UTC', 'YYYY-MM-DD') as runs_short_on
        from walk w join per_product pp on pp.product_id = w.product_id join products p on p.id = w.product_id
        where w.next_billing_date >= pp.short_at)`;
}

export async function stockCover(pool: pg.Pool, storeCode: string, days: number): Promise<StockCoverRow[]> {
  const { rows } = await pool.query<StockCoverRow>({
    name: 'report_stock_cover',
    text: `with ${stockCoverCtes('$1', '$2')}
      select p.id as product_id, p.name, p.inventory as in_stock,
             coalesce(pp.renewal_units, 0) as renewal_units, coalesce(pp.add_on_units, 0) as add_on_units, coalesce(sold.units, 0) as sold,
             to_char(pp.short_at at time zone 'UTC', 'YYYY-MM-DD') as runs_short_on,
             (select count(*) from short_lines sl where sl.product_id = p.id)::int as plans_short
      from products p left join per_product pp on pp.product_id = p.id left join sold on sold.product_id = p.id
      where p.status <> 'inactive'`,
    values: [storeCode, days],
  });
  return rows;
}
