CREATE TABLE "customer_report_days" (
	"customer_id" uuid NOT NULL,
	"store_code" text NOT NULL,
	"day" date NOT NULL,
	"first_day" date NOT NULL,
	"prev_day" date NOT NULL,
	"orders" integer NOT NULL,
	"revenue_cents" bigint NOT NULL,
	CONSTRAINT "customer_report_days_customer_id_store_code_day_pk" PRIMARY KEY("customer_id","store_code","day")
);
--> statement-breakpoint
CREATE TABLE "order_daily_customers" (
	"store_code" text NOT NULL,
	"day" date NOT NULL,
	"first_day" date NOT NULL,
	"prev_day" date NOT NULL,
	"customers" integer NOT NULL,
	"orders" integer NOT NULL,
	"revenue_cents" bigint NOT NULL,
	CONSTRAINT "order_daily_customers_store_code_day_first_day_prev_day_pk" PRIMARY KEY("store_code","day","first_day","prev_day")
);
--> statement-breakpoint
CREATE TABLE "order_daily_facts" (
	"store_code" text NOT NULL,
	"day" date NOT NULL,
	"subscription" boolean NOT NULL,
	"sales_cents" bigint NOT NULL,
	"given_cents" bigint NOT NULL,
	"orders" integer NOT NULL,
	"units" integer NOT NULL,
	CONSTRAINT "order_daily_facts_store_code_day_subscription_pk" PRIMARY KEY("store_code","day","subscription")
);
--> statement-breakpoint
CREATE TABLE "order_daily_products" (
	"store_code" text NOT NULL,
	"day" date NOT NULL,
	"product_id" integer NOT NULL,
	"units" integer NOT NULL,
	"sales_cents" bigint NOT NULL,
	"name" text,
	"name_at" timestamp with time zone,
	CONSTRAINT "order_daily_products_store_code_day_product_id_pk" PRIMARY KEY("store_code","day","product_id")
);
--> statement-breakpoint
CREATE TABLE "order_report_facts" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"store_code" text NOT NULL,
	"day" date NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"customer_id" uuid,
	"subscription" boolean NOT NULL,
	"total_cents" bigint NOT NULL,
	"given_cents" bigint NOT NULL,
	"units" integer NOT NULL,
	"lines" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_report_facts_day" ON "order_report_facts" USING btree ("store_code","day");--> statement-breakpoint
CREATE INDEX "order_report_facts_customer" ON "order_report_facts" USING btree ("customer_id") WHERE "order_report_facts"."customer_id" is not null;--> statement-breakpoint
-- Issue 23: the sales reports' daily summary (docs/decisions/admin.md, "Reports: the daily summary").
-- Kept by statement triggers (transition tables: a bulk write is counted in one pass) in the transaction
-- of the write that changes a figure: an order (insert, paid status, total, lines, customer, day, plan,
-- delete), an approved card refund or void (payment_transactions), a refund to store credit
-- (store_credit_entries) and a customer's first order (customers.first_order_at). Each changed order's
-- facts are counted again from the live rows (report_order_facts_of, the reports' one rule) and the
-- difference with its stored facts is added to the day's rows; a customer's days are counted again the
-- same way. Lock order: the orders, then their customers (the order the refund flows and customer_refresh
-- already take), then the summary rows in key order.
CREATE FUNCTION report_order_facts_of(p_ids uuid[]) RETURNS SETOF order_report_facts LANGUAGE sql STABLE AS $$
  SELECT ROW(o.id, o.store_code, (o.created_at AT TIME ZONE 'UTC')::date, o.created_at, o.customer_id, o.subscription_id IS NOT NULL,
    round(o.total * 100)::bigint,
    least(coalesce(g.cents, 0) + coalesce(s.cents, 0), round(o.total * 100))::bigint,
    coalesce((SELECT sum((i ->> 'quantity')::int) FROM jsonb_array_elements(o.items) i), 0)::int,
    coalesce((SELECT jsonb_agg(jsonb_build_object('p', (i ->> 'productId')::int, 'n', i ->> 'productName', 'q', (i ->> 'quantity')::int,
        's', round((i ->> 'price')::numeric * 100 * (i ->> 'quantity')::int)::bigint))
      FROM jsonb_array_elements(o.items) i WHERE i ->> 'productId' IS NOT NULL), '[]'::jsonb))::order_report_facts
  FROM orders o
  LEFT JOIN LATERAL (SELECT round(sum(p.amount) * 100) AS cents FROM payment_transactions p
    WHERE p.order_id = o.id AND p.kind IN ('refund', 'void') AND p.status = 'approved') g ON true
  LEFT JOIN LATERAL (SELECT sum(e.amount_cents) AS cents FROM store_credit_entries e
    WHERE e.order_id = o.id AND e.kind = 'refund') s ON true
  WHERE o.id = ANY(p_ids) AND o.status IN ('processing', 'shipped', 'delivered')
  ORDER BY o.id
$$;
--> statement-breakpoint
CREATE FUNCTION report_refresh_customers(p_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_old customer_report_days[];
  v_new customer_report_days[];
BEGIN
  IF p_ids IS NULL OR cardinality(p_ids) = 0 THEN RETURN; END IF;
  -- One recount of a customer at a time (customer_refresh's lock); each then reads the other's committed facts.
  PERFORM 1 FROM customers WHERE id = ANY(p_ids) ORDER BY id FOR NO KEY UPDATE;
  SELECT coalesce(array_agg(r ORDER BY r.customer_id, r.store_code, r.day), '{}') INTO v_old FROM customer_report_days r WHERE r.customer_id = ANY(p_ids);
  SELECT coalesce(array_agg(ROW(d.customer_id, d.store_code, d.day, d.first_day, d.prev_day, d.orders, d.revenue)::customer_report_days
      ORDER BY d.customer_id, d.store_code, d.day), '{}') INTO v_new
  FROM (
    SELECT k.customer_id, k.store_code, k.day, coalesce((c.first_order_at AT TIME ZONE 'UTC')::date, 'infinity'::date) AS first_day,
      coalesce(lag(k.day) OVER (PARTITION BY k.customer_id, k.store_code ORDER BY k.day), '-infinity'::date) AS prev_day, k.orders, k.revenue
    FROM (SELECT f.customer_id, f.store_code, f.day, count(*)::int AS orders, sum(f.total_cents - f.given_cents)::bigint AS revenue
          FROM order_report_facts f WHERE f.customer_id = ANY(p_ids) AND f.total_cents > f.given_cents GROUP BY 1, 2, 3) k
    JOIN customers c ON c.id = k.customer_id) d;
  IF v_old = v_new THEN RETURN; END IF;
  INSERT INTO order_daily_customers AS t (store_code, day, first_day, prev_day, customers, orders, revenue_cents)
  SELECT x.store_code, x.day, x.first_day, x.prev_day, sum(x.sg)::int, sum(x.sg * x.orders)::int, sum(x.sg * x.revenue_cents)::bigint
  FROM (SELECT 1 AS sg, n.* FROM unnest(v_new) n UNION ALL SELECT -1, o.* FROM unnest(v_old) o) x
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (store_code, day, first_day, prev_day) DO UPDATE
    SET customers = t.customers + excluded.customers, orders = t.orders + excluded.orders, revenue_cents = t.revenue_cents + excluded.revenue_cents;
  DELETE FROM customer_report_days WHERE customer_id = ANY(p_ids);
  INSERT INTO customer_report_days SELECT * FROM unnest(v_new);
END $$;
--> statement-breakpoint
CREATE FUNCTION report_refresh_orders(p_ids uuid[], p_lock boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_old order_report_facts[];
  v_new order_report_facts[];
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

  INSERT INTO order_daily_facts AS t (store_code, day, subscription, sales_cents, given_cents, orders, units)
  SELECT x.store_code, x.day, x.subscription, sum(x.sg * x.total_cents)::bigint, sum(x.sg * x.given_cents)::bigint,
    sum(CASE WHEN x.total_cents > x.given_cents THEN x.sg ELSE 0 END)::int,
    sum(CASE WHEN x.total_cents > x.given_cents THEN x.sg * x.units ELSE 0 END)::int
  FROM (SELECT 1 AS sg, n.* FROM unnest(v_new) n UNION ALL SELECT -1, o.* FROM unnest(v_old) o) x
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (store_code, day, subscription) DO UPDATE
    SET sales_cents = t.sales_cents + excluded.sales_cents, given_cents = t.given_cents + excluded.given_cents,
        orders = t.orders + excluded.orders, units = t.units + excluded.units;

  INSERT INTO order_daily_products AS t (store_code, day, product_id, units, sales_cents, name, name_at)
  SELECT l.store_code, l.day, l.product_id, sum(l.sg * l.q)::int, sum(l.sg * l.s)::bigint,
    (array_agg(l.name ORDER BY l.at DESC) FILTER (WHERE l.sg = 1))[1], max(l.at) FILTER (WHERE l.sg = 1)
  FROM (SELECT x.sg, x.store_code, x.day, x.at, (j ->> 'p')::int AS product_id, j ->> 'n' AS name, (j ->> 'q')::int AS q, (j ->> 's')::bigint AS s
        FROM (SELECT 1 AS sg, n.* FROM unnest(v_new) n UNION ALL SELECT -1, o.* FROM unnest(v_old) o) x, jsonb_array_elements(x.lines) j
        WHERE x.total_cents > x.given_cents) l
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (store_code, day, product_id) DO UPDATE
    SET units = t.units + excluded.units, sales_cents = t.sales_cents + excluded.sales_cents,
        name = CASE WHEN excluded.name_at IS NOT NULL AND (t.name_at IS NULL OR excluded.name_at >= t.name_at) THEN excluded.name ELSE t.name END,
        name_at = greatest(t.name_at, excluded.name_at);

  DELETE FROM order_report_facts WHERE order_id = ANY(p_ids);
  INSERT INTO order_report_facts SELECT * FROM unnest(v_new);

  -- A kept order that named its product for the day and no longer counts: the day's latest kept line names it again.
  UPDATE order_daily_products t SET (name, name_at) = (
      SELECT j ->> 'n', f.at FROM order_report_facts f, jsonb_array_elements(f.lines) j
      WHERE f.store_code = t.store_code AND f.day = t.day AND f.total_cents > f.given_cents AND (j ->> 'p')::int = t.product_id
      ORDER BY f.at DESC LIMIT 1)
  FROM (SELECT DISTINCT o.store_code, o.day, (j ->> 'p')::int AS product_id, o.at
        FROM unnest(v_old) o, jsonb_array_elements(o.lines) j
        WHERE o.total_cents > o.given_cents
          AND NOT EXISTS (SELECT 1 FROM unnest(v_new) n WHERE n.order_id = o.order_id AND n.total_cents > n.given_cents AND n.day = o.day AND n.lines = o.lines)) gone
  WHERE t.store_code = gone.store_code AND t.day = gone.day AND t.product_id = gone.product_id AND t.name_at <= gone.at;

  PERFORM report_refresh_customers(array(
    SELECT DISTINCT c FROM (SELECT customer_id FROM unnest(v_old) UNION ALL SELECT customer_id FROM unnest(v_new)) x(c) WHERE c IS NOT NULL ORDER BY c));
END $$;
--> statement-breakpoint
CREATE FUNCTION orders_report_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_refresh_orders(array(SELECT id FROM report_new WHERE status IN ('processing', 'shipped', 'delivered')), false);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION orders_report_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_refresh_orders(array(
    SELECT n.id FROM report_new n JOIN report_old o ON o.id = n.id
    WHERE (o.status IN ('processing', 'shipped', 'delivered') OR n.status IN ('processing', 'shipped', 'delivered'))
      AND ((o.status IN ('processing', 'shipped', 'delivered')) IS DISTINCT FROM (n.status IN ('processing', 'shipped', 'delivered'))
        OR o.total IS DISTINCT FROM n.total OR o.items IS DISTINCT FROM n.items OR o.customer_id IS DISTINCT FROM n.customer_id
        OR o.created_at IS DISTINCT FROM n.created_at OR o.subscription_id IS DISTINCT FROM n.subscription_id OR o.store_code IS DISTINCT FROM n.store_code)
    ORDER BY n.id), true);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION orders_report_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_refresh_orders(array(SELECT id FROM report_old WHERE status IN ('processing', 'shipped', 'delivered')), false);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_report_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS report_new FOR EACH STATEMENT EXECUTE FUNCTION orders_report_inserted();
--> statement-breakpoint
CREATE TRIGGER orders_report_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS report_old NEW TABLE AS report_new FOR EACH STATEMENT EXECUTE FUNCTION orders_report_updated();
--> statement-breakpoint
CREATE TRIGGER orders_report_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS report_old FOR EACH STATEMENT EXECUTE FUNCTION orders_report_deleted();
--> statement-breakpoint
-- TRUNCATE fires no delete trigger: the summary of emptied orders is emptied with them.
CREATE FUNCTION orders_report_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE order_report_facts, order_daily_facts, order_daily_products, customer_report_days, order_daily_customers;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_report_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION orders_report_truncated();
--> statement-breakpoint
-- What was given back: approved card refunds and voids (any change to a refund or void row), refunds to store credit.
CREATE FUNCTION payments_report_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM report_refresh_orders(array(SELECT DISTINCT order_id FROM report_new WHERE kind IN ('refund', 'void') AND order_id IS NOT NULL ORDER BY 1), true);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM report_refresh_orders(array(SELECT DISTINCT x.order_id FROM (SELECT order_id, kind FROM report_new UNION ALL SELECT order_id, kind FROM report_old) x
      WHERE x.kind IN ('refund', 'void') AND x.order_id IS NOT NULL ORDER BY 1), true);
  ELSE
    PERFORM report_refresh_orders(array(SELECT DISTINCT order_id FROM report_old WHERE kind IN ('refund', 'void') AND order_id IS NOT NULL ORDER BY 1), true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER payments_report_insert AFTER INSERT ON payment_transactions REFERENCING NEW TABLE AS report_new FOR EACH STATEMENT EXECUTE FUNCTION payments_report_changed();
--> statement-breakpoint
CREATE TRIGGER payments_report_update AFTER UPDATE ON payment_transactions REFERENCING OLD TABLE AS report_old NEW TABLE AS report_new FOR EACH STATEMENT EXECUTE FUNCTION payments_report_changed();
--> statement-breakpoint
CREATE TRIGGER payments_report_delete AFTER DELETE ON payment_transactions REFERENCING OLD TABLE AS report_old FOR EACH STATEMENT EXECUTE FUNCTION payments_report_changed();
--> statement-breakpoint
CREATE FUNCTION store_credit_report_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_refresh_orders(array(SELECT DISTINCT order_id FROM report_new WHERE kind = 'refund' AND order_id IS NOT NULL ORDER BY 1), true);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER store_credit_report_insert AFTER INSERT ON store_credit_entries REFERENCING NEW TABLE AS report_new FOR EACH STATEMENT EXECUTE FUNCTION store_credit_report_changed();
--> statement-breakpoint
-- A customer's first order moves (an order paid or cancelled): their days are new or returning again.
CREATE FUNCTION customers_report_first_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_refresh_customers(ARRAY[NEW.id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER customers_report_first_order AFTER UPDATE OF first_order_at ON customers FOR EACH ROW
  WHEN (OLD.first_order_at IS DISTINCT FROM NEW.first_order_at) EXECUTE FUNCTION customers_report_first_order();
--> statement-breakpoint
-- The orders already paid, counted once.
SELECT report_refresh_orders(array(SELECT id FROM orders WHERE status IN ('processing', 'shipped', 'delivered') ORDER BY id), false);
