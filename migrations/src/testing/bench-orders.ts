/**
 * A million-order table for the benchmarks that need one (bench:export, bench:admin): seeded once per
 * bench database in SQL (generate_series), a mix of statuses, NetSuite statuses, promo codes, carriers,
 * one- and two-line orders, one order per second back from now. Status (g mod 5), NetSuite status
 * (g mod 3) and promo code (g mod 7) vary independently, so combined filters match as real ones do.
 */
import type { Db } from '../db/client';

const LINE_A = `{"productId":1,"productName":"Flush Probiotic Toilet Cleaner","variantSku":"NH-FLU-24","sku":"NH-FLU-24","itemNumber":"NH1001","quantity":2,"price":"12.99"}`;
const LINE_B = `{"productId":2,"productName":"Dish Pods, Lemon","variantSku":null,"sku":"NH-DSH-30","itemNumber":"NH1002","quantity":1,"price":"14.99"}`;

/** Makes store NH hold exactly `rows` bench orders (truncating and seeding when it does not). Answers whether it seeded. */
export async function seedBenchOrders(db: Db, rows: number): Promise<boolean> {
  const {
    rows: [{ n } = { n: 0 }],
  } = await db.$client.query<{ n: number }>(`select count(*)::int as n from orders where store_code = 'NH'`);
  if (n === rows) return false;
  // Only when there is something to clear: the cascade reaches store_credit_entries, whose trigger refuses
  // TRUNCATE (append-only), so a fresh bench database must not truncate at all.
  if (n > 0) await db.$client.query('truncate orders cascade');
  await db.$client.query(
    `insert into orders (store_code, customer_email, customer_name, customer_phone, shipping_address, items,
                         subtotal, shipping, tax, total, promo_code, status, carrier, tracking_number, created_at, netsuite_sync_status)
     select 'NH', 'customer' || g || '@example.com',
            (array['Alice','Bob','Carol','=Dan'])[1 + g % 4] || ' Shopper ' || g,
            case when g % 3 = 0 then null else '+1 555 ' || lpad((g % 10000)::text, 4, '0') end,
            '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}'::jsonb,
            case when g % 2 = 0 then '[${LINE_A}]'::jsonb else '[${LINE_A},${LINE_B}]'::jsonb end,
            case when g % 2 = 0 then 25.98 else 40.97 end, 9.99, 2.08, case when g % 2 = 0 then 38.05 else 53.04 end,
            case when g % 7 = 0 then 'WELCOME10' end,
            (array['pending','processing','shipped','delivered','cancelled']::order_status[])[1 + g % 5],
            case when g % 4 = 0 then 'UPS' end, case when g % 4 = 0 then '1Z' || g end,
            now() - make_interval(secs => g), (array['synced','pending','failed'])[1 + g % 3]
     from generate_series(1, $1::int) g`,
    [rows],
  );
  // Settled before measuring: the visibility map and statistics current, the trigram index's pending list merged.
  await db.$client.query('vacuum analyze orders');
  return true;
}
