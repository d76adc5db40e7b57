-- Issue 26 (docs/decisions/checkout.md, "The customers' figures, caught up with the reports"): a paid
-- checkout recounted its customer's figures (customer_refresh, 0031) inside the payment's statement, the
-- largest work left there (2.6 ms of its 4.7 ms wall time at 130 orders/s on this host), under the
-- customer's row lock. The same writes already note their orders in report_pending for the reports'
-- summary (0043): every write that moved a customer's figures (a paid order inserted; an order's status,
-- total or customer changed; a refund or void row; a refund to store credit) notes its order there. So the
-- catch-up now recounts the figures of its orders' customers too, before the summary (whose new-customer
-- counts read customers.first_order_at), and the staff's customer list and page catch up before they
-- read, as the reports do. The recount is one statement for the whole batch.
--
-- An order moving to another customer (an email change, an account taking a guest's orders) still
-- recounts both at once: rare, and a move of an unpaid order is noted nowhere else (the customer's name
-- comes from their latest order, paid or not). customer_absorb calls customer_refresh as before.

-- The figures of several customers, by 0031's rule, in one statement. The rows are locked first, in id
-- order, and the figures read by a later statement, so a recount counts every order committed before it
-- (0029's reason for the two statements).
CREATE FUNCTION customer_refresh_many(p_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_ids IS NULL OR cardinality(p_ids) = 0 THEN RETURN; END IF;
  PERFORM 1 FROM customers WHERE id = ANY(p_ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE customers c SET order_count = coalesce(a.n, 0), spend_cents = coalesce(a.spend, 0), refunded_cents = coalesce(a.refunded, 0),
      first_order_at = a.first_at, last_order_at = a.last_at,
      name = CASE WHEN c.anonymised_at IS NULL THEN coalesce(l.customer_name, c.name) ELSE c.name END
    FROM (SELECT DISTINCT x AS id FROM unnest(p_ids) x WHERE x IS NOT NULL) k
    LEFT JOIN (
      SELECT o.customer_id, count(*)::int AS n,
        sum(round(o.total * 100) - least(coalesce(g.cents, 0) + coalesce(s.cents, 0), round(o.total * 100)))::bigint AS spend,
        sum(least(coalesce(g.cents, 0) + coalesce(s.cents, 0), round(o.total * 100)))::bigint AS refunded,
        min(o.created_at) AS first_at, max(o.created_at) AS last_at
      FROM orders o
      LEFT JOIN LATERAL (SELECT round(sum(p.amount) * 100) AS cents FROM payment_transactions p
        WHERE p.order_id = o.id AND p.kind IN ('refund', 'void') AND p.status = 'approved') g ON true
      LEFT JOIN LATERAL (SELECT sum(e.amount_cents) AS cents FROM store_credit_entries e
        WHERE e.order_id = o.id AND e.kind = 'refund') s ON true
      WHERE o.customer_id = ANY(p_ids) AND o.status IN ('processing', 'shipped', 'delivered')
      GROUP BY o.customer_id) a ON a.customer_id = k.id
    LEFT JOIN LATERAL (SELECT o.customer_name FROM orders o WHERE o.customer_id = k.id ORDER BY o.created_at DESC LIMIT 1) l ON true
    WHERE c.id = k.id;
END $$;
--> statement-breakpoint
-- One rule: the single recount (customer_absorb, an order's move) is the batch's.
CREATE OR REPLACE FUNCTION customer_refresh(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_id IS NULL THEN RETURN; END IF;
  PERFORM customer_refresh_many(ARRAY[p_id]);
END $$;
--> statement-breakpoint
-- The writes that the catch-up now covers recount nothing themselves.
DROP TRIGGER orders_customer_figures_insert ON orders;
--> statement-breakpoint
DROP TRIGGER payments_customer_figures_insert ON payment_transactions;
--> statement-breakpoint
DROP TRIGGER payments_customer_figures_update ON payment_transactions;
--> statement-breakpoint
DROP FUNCTION payments_customer_figures();
--> statement-breakpoint
DROP TRIGGER store_credit_customer_figures ON store_credit_entries;
--> statement-breakpoint
DROP FUNCTION store_credit_customer_figures();
--> statement-breakpoint
DROP TRIGGER orders_customer_figures_update ON orders;
--> statement-breakpoint
CREATE TRIGGER orders_customer_figures_update AFTER UPDATE OF user_id, customer_email ON orders FOR EACH ROW
  WHEN (OLD.customer_id IS DISTINCT FROM NEW.customer_id)
  EXECUTE FUNCTION orders_customer_figures();
--> statement-breakpoint
-- A first order that moved notes its customer for the summary, unless the catch-up itself moved it: the
-- catch-up recounts those customers' report days in the same transaction.
CREATE OR REPLACE FUNCTION customers_report_first_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('nh.catching_up', true) = 'on' THEN RETURN NULL; END IF;
  PERFORM report_defer(null, ARRAY[NEW.id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- 0043's catch-up, with the customers' figures: the batch's orders are locked first (the lock order of
-- every recount: orders, then customers), then the figures of their customers (as they are now, and as the
-- summary last counted them: a deleted order's, a moved one's), then the summary, which reads the new
-- first orders.
CREATE OR REPLACE FUNCTION report_catch_up(p_limit int, p_wait boolean) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  v_taken bigint[];
  v_orders uuid[];
  v_customers uuid[];
  v_figures uuid[];
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
  PERFORM 1 FROM orders WHERE id = ANY(v_orders) ORDER BY id FOR NO KEY UPDATE;
  v_figures := array(
    SELECT DISTINCT c FROM (SELECT customer_id FROM orders WHERE id = ANY(v_orders)
                            UNION ALL SELECT customer_id FROM order_report_facts WHERE order_id = ANY(v_orders)) x(c)
    WHERE c IS NOT NULL ORDER BY c);
  PERFORM set_config('nh.catching_up', 'on', true);
  PERFORM customer_refresh_many(v_figures);
  PERFORM set_config('nh.catching_up', 'off', true);
  -- The orders are locked already. A first order moved above belongs to an order of the batch whose facts
  -- changed (facts hold every paid order's customer and time), and the summary's refresh recounts the days
  -- of those orders' customers (old and new) itself; one moved by an order outside the batch is recounted
  -- with that order's own note.
  PERFORM report_refresh_orders(v_orders, false, v_customers);
  RETURN cardinality(v_taken);
END $$;
