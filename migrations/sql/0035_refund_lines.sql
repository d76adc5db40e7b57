ALTER TABLE "payment_transactions" ADD COLUMN "refund_lines" jsonb;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "refund_shipping" numeric(10, 2) DEFAULT 0 NOT NULL;