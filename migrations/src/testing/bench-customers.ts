/**
 * bench:admin's customers (issue 23), over the bench orders (bench-orders.ts: one customer per order
 * email): `plans` accounts, each taking over the guest customer of its email (the database's trigger),
 * with one Subscribe & Save plan each, a staff note on some, and a tag (vip) on 1 in 100 customers. Seeded once per bench
 * database in SQL; answers whether it seeded.
 */
import type { Db } from '../db/client';

const PLAN_ITEMS = `[{"productId":1,"productName":"Flush Probiotic Toilet Cleaner","variantSku":null,"sku":"NH-FLU-24","itemNumber":"NH1001","quantity":2,"price":"12.99"}]`;

export async function seedBenchCustomers(db: Db, plans: number): Promise<boolean> {
  const q = db.$client;
  const {
    rows: [{ n } = { n: 0 }],
  } = await q.query<{ n: number }>(`select count(*)::int as n from subscriptions`);
  if (n === plans) return false;
  // Not TRUNCATE … CASCADE: that would empty the orders (they reference plans) too.
  await q.query('delete from customer_notes');
  await q.query('delete from subscriptions');
  // Accounts are kept from an earlier seed (deleting one sets null on the orders that name it, and no
  // index serves orders.user_id: a scan of every order per account).

  // Customers left from an earlier seed whose orders are gone.
  await q.query(`delete from customers c where not exists (select 1 from orders o where o.customer_id = c.id)`);
  // Accounts for every 10th bench email (customer10, customer20, …): each takes over its guest's row.
  await q.query(
    `insert into users (email, first_name, last_name) select 'customer' || (g * 10) || '@example.com', 'Bench', 'Account ' || g from generate_series(1, $1::int) g
     on conflict (email) do nothing`,
    [plans],
  );
  await q.query(
    `insert into subscriptions (user_id, customer_email, customer_name, items, amount, interval_count, next_billing_date, status, shipping_address)
     select u.id, u.email, 'Bench Account', '${PLAN_ITEMS}'::jsonb, 22.08, 1 + (row_number() over ()) % 3, now() + make_interval(days => ((row_number() over ()) % 30)::int),
       (array['active','active','active','paused','cancelled']::subscription_status[])[1 + (row_number() over ()) % 5],
       '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}'::jsonb
     from users u where u.email like 'customer%@example.com' and u.email ~ '^customer[0-9]+0@' limit $1`,
    [plans],
  );
  await q.query(`update customers set tags = array['vip'] where email ~ '^customer[0-9]*01@'`);
  await q.query(
    `insert into customer_notes (customer_id, body, staff_name, staff_email) select id, 'Called about a leaking refill; reship approved', 'Bench', 'bench@staff.test' from customers where user_id is not null`,
  );
  await q.query('vacuum analyze customers');
  await q.query('vacuum analyze subscriptions');
  return true;
}
