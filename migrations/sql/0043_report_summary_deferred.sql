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
CREATE OR REPLACE FUNCTION orders_report_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_defer(array(
    SELECT n.id FROM report_new n JOIN report_old o ON o.id = n.id
    WHERE (o.status IN ('processing', 'shipped', 'delivered') OR n.status IN ('processing', 'shipped', 'delivered'))
      AND ((o.status IN ('processing', 'shipped', 'delivered')) IS DISTINCT FROM (n.status IN ('processing', 'shipped', 'delivered'))
        OR o.total IS DISTINCT FROM n.total OR o.items IS DISTINCT FROM n.items OR o.customer_id IS DISTINCT FROM n.customer_id
        OR o.created_at IS DISTINCT FROM n.created_at OR o.subscription_id IS DISTINCT FROM n.subscription_id OR o.store_code IS DISTINCT FROM n.store_code)), null);
  RETURN NULL;
END $$;
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
CREATE OR REPLACE FUNCTION payments_report_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[] := '{}';
BEGIN
  -- The transition tables the operation has: new rows (insert, update), old rows (update, delete).
  IF TG_OP IN ('INSERT', 'UPDATE') THEN v_ids := v_ids || array(SELECT order_id FROM report_new WHERE kind IN ('refund', 'void')); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN v_ids := v_ids || array(SELECT order_id FROM report_old WHERE kind IN ('refund', 'void')); END IF;
  PERFORM report_defer(v_ids, null);
  RETURN NULL;
END $$;
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
-- Folds up to p_limit noted rows into the summary, oldest first, and answers how many it took. p_wait: a
-- reader's call, which waits for the rows another catch-up holds (gone once it commits); otherwise those
-- rows are skipped (the worker's call: several workers share the backlog). The orders first (which also
-- recount their customers' days), then the customers noted alone. On a replica (DATABASE_READ_URL), or in
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
  PERFORM report_refresh_orders(v_orders, true);
  PERFORM report_refresh_customers(v_customers);
  RETURN cardinality(v_taken);
END $$;
