CREATE TABLE "customer_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" uuid,
	"order_id" uuid,
	"body" text NOT NULL,
	"staff_id" uuid,
	"staff_name" text NOT NULL,
	"staff_email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"user_id" uuid,
	"guest_id" uuid,
	"name" text,
	"order_count" integer DEFAULT 0 NOT NULL,
	"spend_cents" bigint DEFAULT 0 NOT NULL,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"first_order_at" timestamp with time zone,
	"last_order_at" timestamp with time zone,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"anonymised_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_email_unique" UNIQUE("email"),
	CONSTRAINT "customers_userId_unique" UNIQUE("user_id"),
	CONSTRAINT "customers_guestId_unique" UNIQUE("guest_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_notes" ADD CONSTRAINT "customer_notes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "customer_notes" ADD CONSTRAINT "customer_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_notes" ADD CONSTRAINT "customer_notes_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_notes_customer" ON "customer_notes" USING btree ("customer_id","at");--> statement-breakpoint
CREATE INDEX "customer_notes_order" ON "customer_notes" USING btree ("order_id","at");--> statement-breakpoint
CREATE INDEX "customers_last_order" ON "customers" USING btree ("last_order_at" desc nulls last,"id");--> statement-breakpoint
CREATE INDEX "customers_spend" ON "customers" USING btree ("spend_cents" desc,"id");--> statement-breakpoint
CREATE INDEX "customers_tags" ON "customers" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "customers_search_trgm" ON "customers" USING gin ((coalesce("name", '') || ' ' || "email") gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "email_log_to_address" ON "email_log" USING btree (lower("to_address"),"created_at");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_customer" ON "orders" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "reviews_customer_email" ON "reviews" USING btree (lower("customer_email"));--> statement-breakpoint
-- Issue 23: customers. One row per normalised email; an account's row has the account's id. The
-- customer of an order and the customer's figures are kept here, by the database, in the transaction of
-- every write of orders, payments and accounts, whichever code writes them (docs/decisions/admin.md, "Customers").
CREATE FUNCTION customer_email_key(p_email text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT lower(btrim(p_email)) $$;
--> statement-breakpoint
-- The account's customer row: made with the account, or the guest row of its email taken over (its id
-- becomes the account's: orders and notes follow through ON UPDATE CASCADE; the old id is kept as guest_id).
CREATE FUNCTION customer_for_account(p_user_id uuid) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  u record;
  guest uuid;
BEGIN
  IF EXISTS (SELECT 1 FROM customers WHERE user_id = p_user_id) THEN RETURN p_user_id; END IF;
  SELECT id, customer_email_key(email) AS key, nullif(btrim(concat_ws(' ', first_name, last_name)), '') AS name INTO u FROM users WHERE id = p_user_id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  SELECT id INTO guest FROM customers WHERE email = u.key AND user_id IS NULL FOR UPDATE;
  IF guest IS NOT NULL THEN
    UPDATE customers SET id = u.id, user_id = u.id, guest_id = guest, name = coalesce(name, u.name) WHERE id = guest;
  ELSE
    INSERT INTO customers (id, email, user_id, name) VALUES (u.id, u.key, u.id, u.name) ON CONFLICT DO NOTHING;
  END IF;
  RETURN (SELECT id FROM customers WHERE user_id = p_user_id);
END $$;
--> statement-breakpoint
-- The customer of an order: the account's when it has one, else the row of its email (made when missing).
CREATE FUNCTION customer_for(p_user_id uuid, p_email text, p_name text) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  cid uuid;
  key text := customer_email_key(p_email);
BEGIN
  IF p_user_id IS NOT NULL THEN
    cid := customer_for_account(p_user_id);
    IF cid IS NOT NULL THEN RETURN cid; END IF;
  END IF;
  SELECT id INTO cid FROM customers WHERE email = key;
  IF cid IS NOT NULL THEN RETURN cid; END IF;
  INSERT INTO customers (email, name) VALUES (key, p_name) ON CONFLICT (email) DO NOTHING RETURNING id INTO cid;
  IF cid IS NULL THEN SELECT id INTO cid FROM customers WHERE email = key; END IF;
  RETURN cid;
END $$;
--> statement-breakpoint
-- The customer's figures, counted again from their orders (a customer has few), under the row's lock:
-- the lock is taken first and the figures read by a later statement, so two transactions writing orders
-- of one customer each count the other's committed order (no drift under concurrency). FOR NO KEY UPDATE,
-- not FOR UPDATE: each order's foreign key holds a KEY SHARE lock on its customer row until commit, so two
-- checkouts of one customer, each refreshing after its own insert, would deadlock on FOR UPDATE.
CREATE FUNCTION customer_refresh(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_id IS NULL THEN RETURN; END IF;
  PERFORM 1 FROM customers WHERE id = p_id FOR NO KEY UPDATE;
  UPDATE customers c SET order_count = a.n, spend_cents = a.spend, refunded_cents = a.refunded,
      first_order_at = a.first_at, last_order_at = a.last_at,
      name = CASE WHEN c.anonymised_at IS NULL THEN coalesce((SELECT o.customer_name FROM orders o WHERE o.customer_id = p_id ORDER BY o.created_at DESC LIMIT 1), c.name) ELSE c.name END
    FROM (
      SELECT count(*)::int AS n,
        coalesce(sum(round((o.total - least(coalesce(g.amount, 0), o.total)) * 100)), 0)::bigint AS spend,
        coalesce(sum(round(least(coalesce(g.amount, 0), o.total) * 100)), 0)::bigint AS refunded,
        min(o.created_at) AS first_at, max(o.created_at) AS last_at
      FROM orders o
      LEFT JOIN LATERAL (SELECT sum(p.amount) AS amount FROM payment_transactions p
        WHERE p.order_id = o.id AND p.kind IN ('refund', 'void') AND p.status = 'approved') g ON true
      WHERE o.customer_id = p_id AND o.status IN ('processing', 'shipped', 'delivered')) a
    WHERE c.id = p_id;
END $$;
--> statement-breakpoint
-- Moves a guest row's orders, notes and tags to another customer (an account taking the guest's email) and removes it.
CREATE FUNCTION customer_absorb(p_from uuid, p_into uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_from IS NULL OR p_into IS NULL OR p_from = p_into THEN RETURN; END IF;
  UPDATE orders SET customer_id = p_into WHERE customer_id = p_from;
  UPDATE customer_notes SET customer_id = p_into WHERE customer_id = p_from;
  UPDATE customers SET tags = ARRAY(SELECT DISTINCT unnest(tags || (SELECT tags FROM customers WHERE id = p_from)) ORDER BY 1) WHERE id = p_into;
  DELETE FROM customers WHERE id = p_from;
  PERFORM customer_refresh(p_into);
END $$;
--> statement-breakpoint
-- Backfill: accounts, then guests by email (the name of their latest order), then newsletter sign-ups.
INSERT INTO customers (id, email, user_id, name, created_at)
  SELECT id, customer_email_key(email), id, nullif(btrim(concat_ws(' ', first_name, last_name)), ''), created_at FROM users
  ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO customers (email, name, created_at)
  SELECT DISTINCT ON (customer_email_key(customer_email)) customer_email_key(customer_email), customer_name, created_at
  FROM orders ORDER BY customer_email_key(customer_email), created_at DESC
  ON CONFLICT (email) DO NOTHING;
--> statement-breakpoint
INSERT INTO customers (email, created_at) SELECT customer_email_key(email), subscribed_at FROM newsletter_subscribers ON CONFLICT (email) DO NOTHING;
--> statement-breakpoint
UPDATE orders o SET customer_id = c.id FROM customers c WHERE c.email = customer_email_key(o.customer_email);
--> statement-breakpoint
UPDATE orders o SET customer_id = c.id FROM customers c WHERE c.user_id = o.user_id AND o.customer_id IS DISTINCT FROM c.id;
--> statement-breakpoint
UPDATE customers c SET order_count = a.n, spend_cents = a.spend, refunded_cents = a.refunded, first_order_at = a.first_at, last_order_at = a.last_at
  FROM (
    SELECT o.customer_id, count(*)::int AS n,
      coalesce(sum(round((o.total - least(coalesce(g.amount, 0), o.total)) * 100)), 0)::bigint AS spend,
      coalesce(sum(round(least(coalesce(g.amount, 0), o.total) * 100)), 0)::bigint AS refunded,
      min(o.created_at) AS first_at, max(o.created_at) AS last_at
    FROM orders o
    LEFT JOIN (SELECT p.order_id, sum(p.amount) AS amount FROM payment_transactions p
      WHERE p.kind IN ('refund', 'void') AND p.status = 'approved' GROUP BY p.order_id) g ON g.order_id = o.id
    WHERE o.status IN ('processing', 'shipped', 'delivered') GROUP BY o.customer_id) a
  WHERE c.id = a.customer_id;
--> statement-breakpoint
CREATE FUNCTION orders_customer_assign() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.customer_id := customer_for(NEW.user_id, NEW.customer_email, NEW.customer_name);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_customer BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION orders_customer_assign();
--> statement-breakpoint
CREATE TRIGGER orders_customer_moved BEFORE UPDATE OF user_id, customer_email ON orders FOR EACH ROW
  WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR customer_email_key(OLD.customer_email) IS DISTINCT FROM customer_email_key(NEW.customer_email))
  EXECUTE FUNCTION orders_customer_assign();
--> statement-breakpoint
CREATE FUNCTION orders_customer_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM customer_refresh(NEW.customer_id);
  IF TG_OP = 'UPDATE' AND OLD.customer_id IS DISTINCT FROM NEW.customer_id THEN PERFORM customer_refresh(OLD.customer_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_customer_figures_insert AFTER INSERT ON orders FOR EACH ROW
  WHEN (NEW.status IN ('processing', 'shipped', 'delivered')) EXECUTE FUNCTION orders_customer_figures();
--> statement-breakpoint
CREATE TRIGGER orders_customer_figures_update AFTER UPDATE OF status, total, user_id, customer_email ON orders FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.total IS DISTINCT FROM NEW.total OR OLD.customer_id IS DISTINCT FROM NEW.customer_id)
  EXECUTE FUNCTION orders_customer_figures();
--> statement-breakpoint
CREATE FUNCTION payments_customer_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM customer_refresh((SELECT customer_id FROM orders WHERE id = NEW.order_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER payments_customer_figures_insert AFTER INSERT ON payment_transactions FOR EACH ROW
  WHEN (NEW.kind <> 'charge' AND NEW.status = 'approved' AND NEW.order_id IS NOT NULL) EXECUTE FUNCTION payments_customer_figures();
--> statement-breakpoint
CREATE TRIGGER payments_customer_figures_update AFTER UPDATE OF status, amount ON payment_transactions FOR EACH ROW
  WHEN (NEW.kind <> 'charge' AND NEW.order_id IS NOT NULL AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.amount IS DISTINCT FROM NEW.amount))
  EXECUTE FUNCTION payments_customer_figures();
--> statement-breakpoint
CREATE FUNCTION users_customer_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  other uuid;
BEGIN
  IF TG_OP = 'UPDATE' AND customer_email_key(OLD.email) IS DISTINCT FROM customer_email_key(NEW.email) THEN
    SELECT id INTO other FROM customers WHERE email = customer_email_key(NEW.email) AND user_id IS NULL FOR UPDATE;
    PERFORM customer_absorb(other, (SELECT id FROM customers WHERE user_id = NEW.id));
    UPDATE customers SET email = customer_email_key(NEW.email) WHERE user_id = NEW.id;
  END IF;
  PERFORM customer_for_account(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_customer AFTER INSERT OR UPDATE OF email ON users FOR EACH ROW EXECUTE FUNCTION users_customer_sync();
--> statement-breakpoint
CREATE FUNCTION newsletter_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customers (email) VALUES (customer_email_key(NEW.email)) ON CONFLICT (email) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER newsletter_customer AFTER INSERT ON newsletter_subscribers FOR EACH ROW EXECUTE FUNCTION newsletter_customer();
--> statement-breakpoint
-- A privacy request (anonymising a customer, issue 23) replaces personal values inside an audit row's
-- before/after, in a transaction that says so (SET LOCAL nh.audit_redaction = 'on'); nothing else of a
-- row may change, and no row may be removed, whoever runs the statement.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('nh.audit_redaction', true) = 'on'
     AND (NEW.id, NEW.at, NEW.actor_id, NEW.actor_email, NEW.actor_role, NEW.action, NEW.entity_type, NEW.entity_id, NEW.ip, NEW.user_agent, NEW.request_id)
       IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_id, OLD.actor_email, OLD.actor_role, OLD.action, OLD.entity_type, OLD.entity_id, OLD.ip, OLD.user_agent, OLD.request_id) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'NH403';
END $$;
