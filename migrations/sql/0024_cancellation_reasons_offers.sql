CREATE TABLE "subscription_cancel_offers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"kind" text NOT NULL,
	"shown_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscription_cancellations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	"comment" text
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "next_delivery_discount_percent" integer;--> statement-breakpoint
ALTER TABLE "subscription_cancel_offers" ADD CONSTRAINT "subscription_cancel_offers_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_cancellations" ADD CONSTRAINT "subscription_cancellations_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_cancel_offers_shown_at_index" ON "subscription_cancel_offers" USING btree ("shown_at");--> statement-breakpoint
CREATE INDEX "subscription_cancel_offers_subscription_id_kind_index" ON "subscription_cancel_offers" USING btree ("subscription_id","kind");--> statement-breakpoint
CREATE INDEX "subscription_cancellations_at_index" ON "subscription_cancellations" USING btree ("at");--> statement-breakpoint
CREATE INDEX "subscription_cancellations_subscription_id_index" ON "subscription_cancellations" USING btree ("subscription_id");