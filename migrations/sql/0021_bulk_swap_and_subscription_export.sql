CREATE TABLE "bulk_swap_plans" (
	"run_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"audit_id" bigint,
	"settled_at" timestamp with time zone,
	CONSTRAINT "bulk_swap_plans_run_id_subscription_id_pk" PRIMARY KEY("run_id","subscription_id")
);
--> statement-breakpoint
CREATE TABLE "bulk_swap_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"from_product_id" integer NOT NULL,
	"from_variant_sku" text,
	"to_product_id" integer NOT NULL,
	"to_variant_sku" text,
	"reason" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer,
	"staff_id" uuid,
	"staff_email" text NOT NULL,
	"staff_role" "staff_role",
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "kind" text DEFAULT 'orders' NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_swap_plans" ADD CONSTRAINT "bulk_swap_plans_run_id_bulk_swap_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bulk_swap_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_swap_plans" ADD CONSTRAINT "bulk_swap_plans_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_swap_runs" ADD CONSTRAINT "bulk_swap_runs_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;