CREATE TYPE "public"."claim_resolution" AS ENUM('replace', 'refund', 'credit');--> statement-breakpoint
CREATE TYPE "public"."claim_status" AS ENUM('awaiting_review', 'resolved', 'declined');--> statement-breakpoint
CREATE TABLE "claim_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"auto_approve" boolean DEFAULT false NOT NULL,
	"max_amount_cents" integer DEFAULT 2500 NOT NULL,
	"window_months" integer DEFAULT 12 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"source" text NOT NULL,
	"lines" jsonb NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"photo_key" text,
	"status" "claim_status" NOT NULL,
	"resolution" "claim_resolution",
	"amount_cents" integer NOT NULL,
	"replacement_order_id" uuid,
	"staff_id" uuid,
	"decision_note" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "replacement_of_order_id" uuid;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_replacement_order_id_orders_id_fk" FOREIGN KEY ("replacement_order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claims_order_key" ON "claims" USING btree ("order_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "claims_status" ON "claims" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "claims_created" ON "claims" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_replacement_of_order_id_orders_id_fk" FOREIGN KEY ("replacement_of_order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
insert into claim_settings (id) values (1) on conflict do nothing;
