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
ALTER TABLE "store_credit_netsuite_syncs" ADD CONSTRAINT "store_credit_netsuite_syncs_entry_id_store_credit_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."store_credit_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
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
