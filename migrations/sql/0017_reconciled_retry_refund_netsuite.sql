DROP INDEX "idempotency_keys_unfinished_order";--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "netsuite_record_id" text;--> statement-breakpoint
CREATE INDEX "idempotency_keys_unsettled_order" ON "idempotency_keys" USING btree ("order_id") WHERE status_code is null or status_code = 502;