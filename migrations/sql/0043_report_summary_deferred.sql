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
