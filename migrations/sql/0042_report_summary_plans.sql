-- Issue 26 (docs/decisions/checkout.md, "The reports' summary, planned once" and "… without a queue"):
-- the daily summary's functions (0036, 0039) cost ~4 ms of Postgres CPU per paid order on the bench host,
-- four times the order's own statements, because their statements were planned again on every call:
-- - report_order_facts_of returned ROW(...)::order_report_facts, so it could not be inlined, and
--   PostgreSQL plans a SQL function that is not inlined on every call (so did report_refresh_given_back);
-- - the statements of report_refresh_orders and report_refresh_customers take arrays of ids, whose length
--   a generic plan cannot know, so the plan cache kept making a custom plan per call. Rightly so for one
--   of them: its generic plan joined the customers by hashing a scan of all of them.
-- Now the facts' query returns columns (inlined into its caller's plan), the customer's first day is a
-- lookup by key, the repair of a product's name visits its (store, day, product) rows by key, and the two
-- functions run on generic plans (plan_cache_mode = force_generic_plan): planned once per connection.
--
-- And every paid order of a day added to the same row of order_daily_facts (and of order_daily_products,
-- order_daily_customers), holding its lock until commit, so concurrent checkouts queued there. The daily
-- rows now have a slot: a transaction adds to the rows of the lowest slot no other transaction holds
-- (report_summary_slot: a transaction-level advisory lock per slot, tried in turn), so writers never wait
-- on each other's rows, and a shop without concurrent orders writes slot 0 only. The reports already sum
-- their rows, so they read the same figures. Repairing a product's name (an order that named it stops
-- counting) updates that day's rows of every slot, the only write to another slot's rows, so a call that
-- repairs locks all the product rows it will write first, in key order (no two repairs hold a row each
-- that the other wants).
ALTER TABLE "order_daily_customers" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_daily_facts" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_daily_products" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_daily_customers" DROP CONSTRAINT "order_daily_customers_store_code_day_first_day_prev_day_pk";--> statement-breakpoint
ALTER TABLE "order_daily_customers" ADD CONSTRAINT "order_daily_customers_store_code_day_first_day_prev_day_slot_pk" PRIMARY KEY("store_code","day","first_day","prev_day","slot");--> statement-breakpoint
ALTER TABLE "order_daily_facts" DROP CONSTRAINT "order_daily_facts_store_code_day_subscription_pk";--> statement-breakpoint
ALTER TABLE "order_daily_facts" ADD CONSTRAINT "order_daily_facts_store_code_day_subscription_slot_pk" PRIMARY KEY("store_code","day","subscription","slot");--> statement-breakpoint
ALTER TABLE "order_daily_products" DROP CONSTRAINT "order_daily_products_store_code_day_product_id_pk";--> statement-breakpoint
ALTER TABLE "order_daily_products" ADD CONSTRAINT "order_daily_products_store_code_day_product_id_slot_pk" PRIMARY KEY("store_code","day","product_id","slot");--> statement-breakpoint
CREATE FUNCTION report_summary_slot() RETURNS smallint LANGUAGE plpgsql AS $$
DECLARE
  v_slot int := nullif(current_setting('nh.report_slot', true), '')::int;
BEGIN
  -- Once per transaction (remembered in a transaction-local setting): the lowest slot whose lock is free.
  IF v_slot IS NOT NULL THEN RETURN v_slot; END IF;
  FOR s IN 0 .. 31 LOOP
    IF pg_try_advisory_xact_lock(hashtext('report_summary_slot'), s) THEN v_slot := s; EXIT; END IF;
  END LOOP;
  -- More than 32 writers at once: wait for one slot (a transaction holds none while it waits, so no cycle).
  IF v_slot IS NULL THEN
    v_slot := floor(random() * 32)::int;
    PERFORM pg_advisory_xact_lock(hashtext('report_summary_slot'), v_slot);
  END IF;
  PERFORM set_config('nh.report_slot', v_slot::text, true);
  RETURN v_slot;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_order_facts_of(p_ids uuid[]) RETURNS SETOF order_report_facts LANGUAGE sql STABLE AS $$
  SELECT o.id, o.store_code::text, (o.created_at AT TIME ZONE 'UTC')::date, o.created_at, o.customer_id, o.subscription_id IS NOT NULL,
    round(o.total * 100)::bigint,
    least(coalesce(g.cents, 0) + coalesce(s.cents, 0), round(o.total * 100))::bigint,
    coalesce((SELECT sum((i ->> 'quantity')::int) FROM jsonb_array_elements(o.items) i), 0)::int,
    coalesce((SELECT jsonb_agg(jsonb_build_object('p', (i ->> 'productId')::int, 'n', i ->> 'productName', 'q', (i ->> 'quantity')::int,
        's', round((i ->> 'price')::numeric * 100 * (i ->> 'quantity')::int)::bigint))
      FROM jsonb_array_elements(o.items) i WHERE i ->> 'productId' IS NOT NULL), '[]'::jsonb)
  FROM orders o
  LEFT JOIN LATERAL (SELECT round(sum(p.amount) * 100) AS cents FROM payment_transactions p
    WHERE p.order_id = o.id AND p.kind IN ('refund', 'void') AND p.status = 'approved') g ON true
  LEFT JOIN LATERAL (SELECT sum(e.amount_cents) AS cents FROM store_credit_entries e
    WHERE e.order_id = o.id AND e.kind = 'refund') s ON true
  WHERE o.id = ANY(p_ids) AND o.status IN ('processing', 'shipped', 'delivered')
  ORDER BY o.id
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_refresh_customers(p_ids uuid[])
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode = force_generic_plan
AS $function$
DECLARE
  v_old customer_report_days[];
  v_new customer_report_days[];
  v_slot smallint;
BEGIN
  IF p_ids IS NULL OR cardinality(p_ids) = 0 THEN RETURN; END IF;
  -- One recount of a customer at a time (customer_refresh's lock); each then reads the other's committed facts.
  PERFORM 1 FROM customers WHERE id = ANY(p_ids) ORDER BY id FOR NO KEY UPDATE;
  SELECT coalesce(array_agg(r ORDER BY r.customer_id, r.store_code, r.day), '{}') INTO v_old FROM customer_report_days r WHERE r.customer_id = ANY(p_ids);
  SELECT coalesce(array_agg(ROW(d.customer_id, d.store_code, d.day, d.first_day, d.prev_day, d.orders, d.revenue)::customer_report_days
      ORDER BY d.customer_id, d.store_code, d.day), '{}') INTO v_new
  FROM (
    SELECT k.customer_id, k.store_code, k.day, coalesce(((SELECT c.first_order_at FROM customers c WHERE c.id = k.customer_id) AT TIME ZONE 'UTC')::date, 'infinity'::date) AS first_day,
      coalesce(lag(k.day) OVER (PARTITION BY k.customer_id, k.store_code ORDER BY k.day), '-infinity'::date) AS prev_day, k.orders, k.revenue
    FROM (SELECT f.customer_id, f.store_code, f.day, count(*)::int AS orders, sum(f.total_cents - f.given_cents)::bigint AS revenue
          FROM order_report_facts f WHERE f.customer_id = ANY(p_ids) AND f.total_cents > f.given_cents GROUP BY 1, 2, 3) k) d;
  IF v_old = v_new THEN RETURN; END IF;
  v_slot := report_summary_slot();
  INSERT INTO order_daily_customers AS t (store_code, day, first_day, prev_day, customers, orders, revenue_cents, slot)
  SELECT x.store_code, x.day, x.first_day, x.prev_day, sum(x.sg)::int, sum(x.sg * x.orders)::int, sum(x.sg * x.revenue_cents)::bigint, v_slot
  FROM (SELECT 1 AS sg, n.* FROM unnest(v_new) n UNION ALL SELECT -1, o.* FROM unnest(v_old) o) x
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (store_code, day, first_day, prev_day, slot) DO UPDATE
    SET customers = t.customers + excluded.customers, orders = t.orders + excluded.orders, revenue_cents = t.revenue_cents + excluded.revenue_cents;
  DELETE FROM customer_report_days WHERE customer_id = ANY(p_ids);
  INSERT INTO customer_report_days SELECT * FROM unnest(v_new);
END $function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_refresh_orders(p_ids uuid[], p_lock boolean)
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode = force_generic_plan
AS $function$
DECLARE
  v_old order_report_facts[];
  v_new order_report_facts[];
  v_slot smallint;
  v_key record;
  -- The product days whose name to repair (store, day, product, and the time of the line that stops counting).
  v_fix_store text[];
  v_fix_day date[];
  v_fix_product int[];
  v_fix_at timestamptz[];
BEGIN
  IF p_ids IS NULL OR cardinality(p_ids) = 0 THEN RETURN; END IF;
  -- A bulk write (a seed, the backfill) in slices of 5,000 orders, so no statement holds a million rows' facts at once.
  IF cardinality(p_ids) > 5000 THEN
    FOR i IN 0 .. (cardinality(p_ids) - 1) / 5000 LOOP
      PERFORM report_refresh_orders(p_ids[i * 5000 + 1 : (i + 1) * 5000], p_lock);
    END LOOP;
    RETURN;
  END IF;
  -- Two writers of one order's figures take turns, the second reading the first's committed change
  -- (not needed for orders this statement inserted: no one else sees them yet).
  IF p_lock THEN PERFORM 1 FROM orders WHERE id = ANY(p_ids) ORDER BY id FOR NO KEY UPDATE; END IF;
  SELECT coalesce(array_agg(f ORDER BY f.order_id), '{}') INTO v_old FROM order_report_facts f WHERE f.order_id = ANY(p_ids);
  SELECT coalesce(array_agg(f ORDER BY f.order_id), '{}') INTO v_new FROM report_order_facts_of(p_ids) f;
  IF v_old = v_new THEN RETURN; END IF;
  v_slot := report_summary_slot();
  -- A kept line of an order that no longer counts (or counts with other lines) may have named its product
  -- for the day: the day's latest kept line names it again below, in the day's rows of every slot.
  SELECT coalesce(array_agg(g.store_code ORDER BY g.store_code, g.day, g.product_id, g.at), '{}'), coalesce(array_agg(g.day ORDER BY g.store_code, g.day, g.product_id, g.at), '{}'),
      coalesce(array_agg(g.product_id ORDER BY g.store_code, g.day, g.product_id, g.at), '{}'), coalesce(array_agg(g.at ORDER BY g.store_code, g.day, g.product_id, g.at), '{}')
    INTO v_fix_store, v_fix_day, v_fix_product, v_fix_at
  FROM (SELECT DISTINCT o.store_code, o.day, (j ->> 'p')::int AS product_id, o.at
        FROM unnest(v_old) o, jsonb_array_elements(o.lines) j
        WHERE o.total_cents > o.given_cents
          AND NOT EXISTS (SELECT 1 FROM unnest(v_new) n WHERE n.order_id = o.order_id AND n.total_cents > n.given_cents AND n.day = o.day AND n.lines = o.lines)) g;

  INSERT INTO order_daily_facts AS t (store_code, day, subscription, sales_cents, given_cents, orders, units, slot)
  SELECT x.store_code, x.day, x.subscription, sum(x.sg * x.total_cents)::bigint, sum(x.sg * x.given_cents)::bigint,
    sum(CASE WHEN x.total_cents > x.given_cents THEN x.sg ELSE 0 END)::int,
    sum(CASE WHEN x.total_cents > x.given_cents THEN x.sg * x.units ELSE 0 END)::int, v_slot
  FROM (SELECT 1 AS sg, n.* FROM unnest(v_new) n UNION ALL SELECT -1, o.* FROM unnest(v_old) o) x
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (store_code, day, subscription, slot) DO UPDATE
    SET sales_cents = t.sales_cents + excluded.sales_cents, given_cents = t.given_cents + excluded.given_cents,
        orders = t.orders + excluded.orders, units = t.units + excluded.units;

  -- Other slots' rows are written only by such a repair. So a call that repairs first locks every product
  -- row it will write, its own slot's and the repaired ones of every slot, one key after another in key
  -- order: two calls then wait for each other in one order, never each for a row the other holds.
  IF cardinality(v_fix_product) > 0 THEN
    FOR v_key IN SELECT DISTINCT l.store_code, l.day, (j ->> 'p')::int AS product_id,
          EXISTS (SELECT 1 FROM unnest(v_fix_store, v_fix_day, v_fix_product) f(store_code, day, product_id)
                  WHERE f.store_code = l.store_code AND f.day = l.day AND f.product_id = (j ->> 'p')::int) AS every_slot
        FROM (SELECT * FROM unnest(v_new) UNION ALL SELECT * FROM unnest(v_old)) l, jsonb_array_elements(l.lines) j
        WHERE l.total_cents > l.given_cents
        ORDER BY 1, 2, 3
    LOOP
      PERFORM 1 FROM order_daily_products t
      WHERE t.store_code = v_key.store_code AND t.day = v_key.day AND t.product_id = v_key.product_id AND (v_key.every_slot OR t.slot = v_slot)
      ORDER BY t.slot FOR NO KEY UPDATE;
    END LOOP;
  END IF;

  INSERT INTO order_daily_products AS t (store_code, day, product_id, units, sales_cents, name, name_at, slot)
  SELECT l.store_code, l.day, l.product_id, sum(l.sg * l.q)::int, sum(l.sg * l.s)::bigint,
    (array_agg(l.name ORDER BY l.at DESC) FILTER (WHERE l.sg = 1))[1], max(l.at) FILTER (WHERE l.sg = 1), v_slot
  FROM (SELECT x.sg, x.store_code, x.day, x.at, (j ->> 'p')::int AS product_id, j ->> 'n' AS name, (j ->> 'q')::int AS q, (j ->> 's')::bigint AS s
        FROM (SELECT 1 AS sg, n.* FROM unnest(v_new) n UNION ALL SELECT -1, o.* FROM unnest(v_old) o) x, jsonb_array_elements(x.lines) j
        WHERE x.total_cents > x.given_cents) l
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (store_code, day, product_id, slot) DO UPDATE
    SET units = t.units + excluded.units, sales_cents = t.sales_cents + excluded.sales_cents,
        name = CASE WHEN excluded.name_at IS NOT NULL AND (t.name_at IS NULL OR excluded.name_at >= t.name_at) THEN excluded.name ELSE t.name END,
        name_at = greatest(t.name_at, excluded.name_at);

  DELETE FROM order_report_facts WHERE order_id = ANY(p_ids);
  INSERT INTO order_report_facts SELECT * FROM unnest(v_new);

  -- The repairs: each product day's rows whose name came from a line that no longer counts (all locked above).
  FOR i IN 1 .. cardinality(v_fix_product) LOOP
    UPDATE order_daily_products t SET (name, name_at) = (
        SELECT j ->> 'n', f.at FROM order_report_facts f, jsonb_array_elements(f.lines) j
        WHERE f.store_code = t.store_code AND f.day = t.day AND f.total_cents > f.given_cents AND (j ->> 'p')::int = t.product_id
        ORDER BY f.at DESC LIMIT 1)
    WHERE t.store_code = v_fix_store[i] AND t.day = v_fix_day[i] AND t.product_id = v_fix_product[i] AND t.name_at <= v_fix_at[i];
  END LOOP;

  PERFORM report_refresh_customers(array(
    SELECT DISTINCT c FROM (SELECT customer_id FROM unnest(v_old) UNION ALL SELECT customer_id FROM unnest(v_new)) x(c) WHERE c IS NOT NULL ORDER BY c));
END $function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_refresh_given_back(p_order_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_order_ids IS NULL OR cardinality(p_order_ids) = 0 THEN RETURN; END IF;
  PERFORM report_refresh_orders(array(SELECT DISTINCT x FROM unnest(p_order_ids) x WHERE x IS NOT NULL ORDER BY 1), true);
END $$;
