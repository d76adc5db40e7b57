-- Issue 26 (docs/decisions/checkout.md, "The reports' summary, caught up after the checkout"): the
-- triggers of 0036/0039/0042 recounted the summary inside the writing transaction, so every paid checkout
-- spent ~1 ms of Postgres on report_refresh_orders (and the customer's days) while its order and customer
-- rows were locked. Now a trigger only notes which orders (or customers, when a first order moved) the
-- summary must take in again, in report_pending, and report_catch_up folds the noted rows in, in batches:
-- - the worker calls it every REPORT_CATCH_UP_MS, skipping rows another catch-up holds;
-- - every report read calls it first and waits for a catch-up in progress, so a report on the primary
--   still counts every write committed before it, as exactly as before (on a replica, reports lag as every
--   read there may).
-- A catch-up is one transaction: its rows are deleted only with the summary's change, so a catch-up killed
-- halfway leaves them for the next. The recount is the same function as before, state-based (the stored
-- facts against the order as it is now), so a row noted twice, or an order changed again before its
-- catch-up, counts once and right.
CREATE TABLE "report_pending" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid,
	"customer_id" uuid
);--> statement-breakpoint
CREATE FUNCTION report_defer(p_orders uuid[], p_customers uuid[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO report_pending (order_id, customer_id)
  SELECT x, null FROM unnest(p_orders) x WHERE x IS NOT NULL
  UNION ALL SELECT null, y FROM unnest(p_customers) y WHERE y IS NOT NULL;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_report_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_defer(array(SELECT id FROM report_new WHERE status IN ('processing', 'shipped', 'delivered')), null);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update notes an order only when what the summary counts may have changed, decided per row by the
-- trigger's WHEN in the executor: no PL/pgSQL call and no transition tables for the many updates that
-- change nothing counted (the NetSuite sync's marks, an email's, a shipment's), which the statement
-- triggers paid for on every update. (Transition tables allow no column list, hence statement triggers
-- while the refresh itself ran there: it wanted the rows of a statement at once, which the catch-up now
-- gathers.) customer_id also moves by orders_customer_moved when user_id or customer_email is set.
DROP TRIGGER orders_report_update ON orders;
--> statement-breakpoint
DROP FUNCTION orders_report_updated();
--> statement-breakpoint
CREATE FUNCTION orders_report_noted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_pending (order_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_report_update AFTER UPDATE OF status, total, items, customer_id, user_id, customer_email, created_at, subscription_id, store_code ON orders
  FOR EACH ROW
  WHEN ((OLD.status IN ('processing', 'shipped', 'delivered') OR NEW.status IN ('processing', 'shipped', 'delivered'))
    AND ((OLD.status IN ('processing', 'shipped', 'delivered')) IS DISTINCT FROM (NEW.status IN ('processing', 'shipped', 'delivered'))
      OR OLD.total IS DISTINCT FROM NEW.total OR OLD.items IS DISTINCT FROM NEW.items OR OLD.customer_id IS DISTINCT FROM NEW.customer_id
      OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.subscription_id IS DISTINCT FROM NEW.subscription_id OR OLD.store_code IS DISTINCT FROM NEW.store_code))
  EXECUTE FUNCTION orders_report_noted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_report_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_defer(array(SELECT id FROM report_old WHERE status IN ('processing', 'shipped', 'delivered')), null);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_report_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE order_report_facts, order_daily_facts, order_daily_products, customer_report_days, order_daily_customers, report_pending;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Card refunds and voids, the same way: a row is noted when it is (or was) a refund or void and what the
-- summary reads of it (kind, status, amount, order) changed; a charge, the checkout's insert, fires
-- nothing. Deleting payment rows (tests, an erasure) keeps its statement trigger.
CREATE OR REPLACE FUNCTION payments_report_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_defer(array(SELECT order_id FROM report_old WHERE kind IN ('refund', 'void')), null);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION payments_report_noted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.order_id IS DISTINCT FROM NEW.order_id AND OLD.order_id IS NOT NULL THEN
    INSERT INTO report_pending (order_id) VALUES (OLD.order_id);
  END IF;
  IF NEW.order_id IS NOT NULL THEN INSERT INTO report_pending (order_id) VALUES (NEW.order_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER payments_report_insert ON payment_transactions;
--> statement-breakpoint
DROP TRIGGER payments_report_update ON payment_transactions;
--> statement-breakpoint
CREATE TRIGGER payments_report_insert AFTER INSERT ON payment_transactions
  FOR EACH ROW WHEN (NEW.kind IN ('refund', 'void') AND NEW.order_id IS NOT NULL)
  EXECUTE FUNCTION payments_report_noted();
--> statement-breakpoint
CREATE TRIGGER payments_report_update AFTER UPDATE OF kind, status, amount, order_id ON payment_transactions
  FOR EACH ROW
  WHEN ((OLD.kind IN ('refund', 'void') OR NEW.kind IN ('refund', 'void'))
    AND (OLD.kind IS DISTINCT FROM NEW.kind OR OLD.status IS DISTINCT FROM NEW.status OR OLD.amount IS DISTINCT FROM NEW.amount OR OLD.order_id IS DISTINCT FROM NEW.order_id))
  EXECUTE FUNCTION payments_report_noted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION store_credit_report_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_defer(array(SELECT order_id FROM report_new WHERE kind = 'refund'), null);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customers_report_first_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_defer(null, ARRAY[NEW.id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The orders' refresh (0042's) also recounts the customers a catch-up noted (p_customers), with its
-- orders' customers, once: a checkout notes its order and, its first order, its customer, and recounting
-- that customer a second time, with nothing left to change, cost about a third of a batch. The refresh of
-- what was given back is gone: its triggers note instead.
DROP FUNCTION report_refresh_given_back(uuid[]);
--> statement-breakpoint
DROP FUNCTION report_refresh_orders(uuid[], boolean);
--> statement-breakpoint
CREATE FUNCTION report_refresh_orders(p_ids uuid[], p_lock boolean, p_customers uuid[] DEFAULT '{}')
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
  IF p_ids IS NULL OR cardinality(p_ids) = 0 THEN PERFORM report_refresh_customers(p_customers); RETURN; END IF;
  -- A bulk write (a seed, the backfill) in slices of 5,000 orders, so no statement holds a million rows' facts at once.
  IF cardinality(p_ids) > 5000 THEN
    FOR i IN 0 .. (cardinality(p_ids) - 1) / 5000 LOOP
      PERFORM report_refresh_orders(p_ids[i * 5000 + 1 : (i + 1) * 5000], p_lock, CASE WHEN i = 0 THEN p_customers ELSE '{}' END);
    END LOOP;
    RETURN;
  END IF;
  -- Two writers of one order's figures take turns, the second reading the first's committed change
  -- (not needed for orders this statement inserted: no one else sees them yet).
  IF p_lock THEN PERFORM 1 FROM orders WHERE id = ANY(p_ids) ORDER BY id FOR NO KEY UPDATE; END IF;
  SELECT coalesce(array_agg(f ORDER BY f.order_id), '{}') INTO v_old FROM order_report_facts f WHERE f.order_id = ANY(p_ids);
  SELECT coalesce(array_agg(f ORDER BY f.order_id), '{}') INTO v_new FROM report_order_facts_of(p_ids) f;
  IF v_old = v_new THEN PERFORM report_refresh_customers(p_customers); RETURN; END IF;
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
    SELECT DISTINCT c FROM (SELECT customer_id FROM unnest(v_old) UNION ALL SELECT customer_id FROM unnest(v_new) UNION ALL SELECT unnest(p_customers)) x(c)
    WHERE c IS NOT NULL ORDER BY c));
END $function$;
--> statement-breakpoint
-- Folds up to p_limit noted rows into the summary, oldest first, and answers how many it took. p_wait: a
-- reader's call, which waits for the rows another catch-up holds (gone once it commits); otherwise those
-- rows are skipped (the worker's call: several workers share the backlog). One recount of each customer
-- day set: the customers noted go with those of the orders. On a replica (DATABASE_READ_URL), or in
-- a read-only transaction, it takes nothing: the reads there lag the primary anyway, and the primary's
-- worker catches up.
CREATE FUNCTION report_catch_up(p_limit int, p_wait boolean) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  v_taken bigint[];
  v_orders uuid[];
  v_customers uuid[];
BEGIN
  IF pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on' THEN RETURN 0; END IF;
  IF p_wait THEN
    v_taken := array(SELECT id FROM report_pending ORDER BY id LIMIT p_limit FOR UPDATE);
  ELSE
    v_taken := array(SELECT id FROM report_pending ORDER BY id LIMIT p_limit FOR UPDATE SKIP LOCKED);
  END IF;
  IF cardinality(v_taken) = 0 THEN RETURN 0; END IF;
  WITH taken AS (DELETE FROM report_pending WHERE id = ANY(v_taken) RETURNING order_id, customer_id)
  SELECT coalesce(array_agg(DISTINCT order_id ORDER BY order_id) FILTER (WHERE order_id IS NOT NULL), '{}'),
    coalesce(array_agg(DISTINCT customer_id ORDER BY customer_id) FILTER (WHERE customer_id IS NOT NULL), '{}')
  INTO v_orders, v_customers FROM taken;
  PERFORM report_refresh_orders(v_orders, true, v_customers);
  RETURN cardinality(v_taken);
END $$;
