CREATE TYPE "public"."store_credit_kind" AS ENUM('grant', 'refund', 'spend', 'reverse', 'expire');--> statement-breakpoint
CREATE TABLE "store_credit_balances" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"balance_cents" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_credit_balance_not_negative" CHECK ("store_credit_balances"."balance_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "store_credit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" "store_credit_kind" NOT NULL,
	"amount_cents" integer NOT NULL,
	"balance_after_cents" integer NOT NULL,
	"reason" text,
	"staff_id" uuid,
	"order_id" uuid,
	"subscription_id" uuid,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_credit_entries_sign" CHECK (("store_credit_entries"."kind" in ('grant', 'refund', 'reverse') and "store_credit_entries"."amount_cents" > 0) or ("store_credit_entries"."kind" in ('spend', 'expire') and "store_credit_entries"."amount_cents" < 0)),
	CONSTRAINT "store_credit_entries_balance" CHECK ("store_credit_entries"."balance_after_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit_applied" numeric(10, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "store_credit_balances" ADD CONSTRAINT "store_credit_balances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_credit_entries_user" ON "store_credit_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "store_credit_entries_order" ON "store_credit_entries" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_credit_entries_reference" ON "store_credit_entries" USING btree ("reference") WHERE "store_credit_entries"."reference" is not null;--> statement-breakpoint
-- The store-credit ledger is append-only: no statement may change or remove a row, whoever runs it.
CREATE FUNCTION store_credit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'store_credit_entries is append-only: % is not allowed', TG_OP USING ERRCODE = 'NH403';
END $$;
--> statement-breakpoint
CREATE TRIGGER store_credit_entries_no_update_delete BEFORE UPDATE OR DELETE ON "store_credit_entries" FOR EACH ROW EXECUTE FUNCTION store_credit_entries_append_only();
--> statement-breakpoint
CREATE TRIGGER store_credit_entries_no_truncate BEFORE TRUNCATE ON "store_credit_entries" FOR EACH STATEMENT EXECUTE FUNCTION store_credit_entries_append_only();
--> statement-breakpoint
-- One movement of exactly p_amount cents (positive; signed here by kind), under the balance row's lock.
-- A reference already used answers its row and moves nothing. Refused (NH409) below zero.
CREATE FUNCTION store_credit_move(p_user uuid, p_kind store_credit_kind, p_amount integer, p_reason text, p_staff uuid, p_order uuid, p_subscription uuid, p_reference text)
RETURNS TABLE (entry_id bigint, amount_cents integer, balance_after_cents integer, replayed boolean) LANGUAGE plpgsql AS $$
DECLARE
  v_balance integer;
  v_signed integer;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'store credit: the amount must be positive cents' USING ERRCODE = '22023';
  END IF;
  INSERT INTO store_credit_balances (user_id) VALUES (p_user) ON CONFLICT (user_id) DO NOTHING;
  SELECT b.balance_cents INTO v_balance FROM store_credit_balances b WHERE b.user_id = p_user FOR UPDATE;
  IF p_reference IS NOT NULL THEN
    RETURN QUERY SELECT e.id, e.amount_cents, e.balance_after_cents, true FROM store_credit_entries e WHERE e.reference = p_reference;
    IF FOUND THEN RETURN; END IF;
  END IF;
  v_signed := CASE WHEN p_kind IN ('spend', 'expire') THEN -p_amount ELSE p_amount END;
  IF v_balance + v_signed < 0 THEN
    RAISE EXCEPTION 'store credit: the balance (% cents) is less than %', v_balance, p_amount USING ERRCODE = 'NH409';
  END IF;
  UPDATE store_credit_balances SET balance_cents = v_balance + v_signed, updated_at = now() WHERE user_id = p_user;
  RETURN QUERY INSERT INTO store_credit_entries AS e (user_id, kind, amount_cents, balance_after_cents, reason, staff_id, order_id, subscription_id, reference)
    VALUES (p_user, p_kind, v_signed, v_balance + v_signed, p_reason, p_staff, p_order, p_subscription, p_reference)
    RETURNING e.id, e.amount_cents, e.balance_after_cents, false;
END $$;
--> statement-breakpoint
-- Spends what the account has, up to p_max cents (credit before the card); answers the cents spent.
-- A reference already used answers what it spent then.
CREATE FUNCTION store_credit_spend_up_to(p_user uuid, p_max integer, p_order uuid, p_subscription uuid, p_reference text)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_balance integer;
  v_spent integer;
BEGIN
  IF p_user IS NULL OR p_max IS NULL OR p_max <= 0 THEN RETURN 0; END IF;
  SELECT b.balance_cents INTO v_balance FROM store_credit_balances b WHERE b.user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN RETURN 0; END IF;
  SELECT -e.amount_cents INTO v_spent FROM store_credit_entries e WHERE e.reference = p_reference;
  IF FOUND THEN RETURN v_spent; END IF;
  v_spent := least(v_balance, p_max);
  IF v_spent <= 0 THEN RETURN 0; END IF;
  UPDATE store_credit_balances SET balance_cents = v_balance - v_spent, updated_at = now() WHERE user_id = p_user;
  INSERT INTO store_credit_entries (user_id, kind, amount_cents, balance_after_cents, reason, order_id, subscription_id, reference)
    VALUES (p_user, 'spend', -v_spent, v_balance - v_spent, null, p_order, p_subscription, p_reference);
  RETURN v_spent;
END $$;
--> statement-breakpoint
-- An order cancelled before it was paid (a declined card, a failed renewal, a charge the reconciliation
-- found never happened, staff cancelling a pending order) gives back the credit it spent, in the
-- statement that cancels it: no process can die between the two.
CREATE FUNCTION store_credit_reverse_unpaid_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_spend record;
BEGIN
  FOR v_spend IN SELECT e.user_id, -sum(e.amount_cents)::integer AS spent FROM store_credit_entries e
      WHERE e.order_id = NEW.id AND e.kind = 'spend' GROUP BY e.user_id LOOP
    IF v_spend.spent > 0 THEN
      PERFORM store_credit_move(v_spend.user_id, 'reverse', v_spend.spent, 'Order not paid', null, NEW.id, null, 'order:' || NEW.id || ':reverse');
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_store_credit_reverse AFTER UPDATE OF status ON "orders" FOR EACH ROW
  WHEN (OLD.status = 'pending' AND NEW.status = 'cancelled' AND NEW.credit_applied > 0)
  EXECUTE FUNCTION store_credit_reverse_unpaid_order();
