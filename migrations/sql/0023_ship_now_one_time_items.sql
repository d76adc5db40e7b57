CREATE TABLE "subscription_ship_nows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"billing_period" text NOT NULL,
	"key_hash" text NOT NULL,
	"requested_by_user_id" uuid,
	"requested_by_staff_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "one_time_items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_ship_nows" ADD CONSTRAINT "subscription_ship_nows_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_ship_nows_period" ON "subscription_ship_nows" USING btree ("subscription_id","billing_period");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_ship_nows_key" ON "subscription_ship_nows" USING btree ("subscription_id","key_hash");