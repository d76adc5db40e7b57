CREATE TABLE "subscription_snapshots" (
	"day" date NOT NULL,
	"subscription_id" uuid NOT NULL,
	"status" "subscription_status" NOT NULL,
	"mrr_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_snapshots_day_subscription_id_pk" PRIMARY KEY("day","subscription_id")
);
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "payment_transactions_given_back" ON "payment_transactions" USING btree ("order_id") WHERE "payment_transactions"."kind" in ('refund', 'void') and "payment_transactions"."status" = 'approved';