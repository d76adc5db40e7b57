CREATE TABLE "store_credit_netsuite_syncs" (
	"entry_id" bigint PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"netsuite_customer_id" text,
	"netsuite_records" jsonb,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "store_credit_netsuite_syncs" ADD CONSTRAINT "store_credit_netsuite_syncs_entry_id_store_credit_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."store_credit_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_credit_entries_expiring" ON "store_credit_entries" USING btree ("expires_at") WHERE "store_credit_entries"."expires_at" is not null;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_expiry_on_grants" CHECK ("store_credit_entries"."expires_at" is null or "store_credit_entries"."kind" = 'grant');--> statement-breakpoint
-- Issue 23: every store-credit grant, refund to credit and expiry tells NetSuite, through the outbox, in
-- the transaction that records it (whatever writes it: staff, a claim, the expiry job). One place for
-- the rule; the relay wakes on the notification at commit.
CREATE FUNCTION store_credit_entries_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outbox (topic, payload) VALUES ('store-credit.recorded', jsonb_build_object('entryId', NEW.id::text));
  PERFORM pg_notify('outbox_new', 'store-credit.recorded');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER store_credit_entries_netsuite AFTER INSERT ON "store_credit_entries" FOR EACH ROW
  WHEN (NEW.kind IN ('grant', 'refund', 'expire'))
  EXECUTE FUNCTION store_credit_entries_to_outbox();
--> statement-breakpoint
-- store_credit_move takes a grant's expiry (issue 23: goodwill grants expire, STORE_CREDIT_EXPIRY_DAYS);
-- otherwise as in migration store_credit. The old eight-argument function goes (a call with eight
-- arguments, as the reverse trigger's, now finds this one with its expiry defaulted to none).
DROP FUNCTION store_credit_move(uuid, store_credit_kind, integer, text, uuid, uuid, uuid, text);
--> statement-breakpoint
CREATE FUNCTION store_credit_move(p_user uuid, p_kind store_credit_kind, p_amount integer, p_reason text, p_staff uuid, p_order uuid, p_subscription uuid, p_reference text, p_expires_at timestamptz DEFAULT NULL)
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
  RETURN QUERY INSERT INTO store_credit_entries AS e (user_id, kind, amount_cents, balance_after_cents, reason, staff_id, order_id, subscription_id, reference, expires_at)
    VALUES (p_user, p_kind, v_signed, v_balance + v_signed, p_reason, p_staff, p_order, p_subscription, p_reference, p_expires_at)
    RETURNING e.id, e.amount_cents, e.balance_after_cents, false;
END $$;
