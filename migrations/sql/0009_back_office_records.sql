CREATE TYPE "public"."payment_kind" AS ENUM('charge', 'refund', 'void');--> statement-breakpoint
CREATE TABLE "inventory_adjustments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"delta" integer NOT NULL,
	"inventory_after" integer NOT NULL,
	"reason" text NOT NULL,
	"staff_id" uuid,
	"staff_email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "netsuite_sync_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"record" text NOT NULL,
	"outcome" text NOT NULL,
	"http_status" integer,
	"error_code" text,
	"error_detail" text,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "staff_id" uuid;--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "staff_email" text;--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "filters" jsonb;--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "size_bytes" bigint;--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "file_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "kind" "payment_kind" DEFAULT 'charge' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "staff_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "restocked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inventory_adjustments" ADD CONSTRAINT "inventory_adjustments_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_adjustments" ADD CONSTRAINT "inventory_adjustments_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "netsuite_sync_attempts" ADD CONSTRAINT "netsuite_sync_attempts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inventory_adjustments_product" ON "inventory_adjustments" USING btree ("product_id","at");--> statement-breakpoint
CREATE INDEX "netsuite_sync_attempts_order" ON "netsuite_sync_attempts" USING btree ("order_id","at");--> statement-breakpoint
CREATE INDEX "netsuite_sync_attempts_at" ON "netsuite_sync_attempts" USING btree ("at");--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD CONSTRAINT "payment_transactions_parent_id_payment_transactions_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."payment_transactions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD CONSTRAINT "payment_transactions_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_store_promo_created" ON "orders" USING btree ("store_code","promo_code","created_at") WHERE "orders"."promo_code" is not null;--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "payment_transactions_parent" ON "payment_transactions" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "payment_transactions_refund_key" ON "payment_transactions" USING btree ("parent_id","idempotency_key") WHERE "payment_transactions"."idempotency_key" is not null;