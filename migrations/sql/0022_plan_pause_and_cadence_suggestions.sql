CREATE TABLE "subscription_cadence_suggestions" (
	"subscription_id" uuid NOT NULL,
	"billing_period" text NOT NULL,
	"interval_count" integer NOT NULL,
	"shown_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"dismissed_at" timestamp with time zone,
	CONSTRAINT "subscription_cadence_suggestions_subscription_id_billing_period_pk" PRIMARY KEY("subscription_id","billing_period")
);
--> statement-breakpoint
CREATE TABLE "subscription_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"kind" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "resumes_on" date;--> statement-breakpoint
ALTER TABLE "subscription_cadence_suggestions" ADD CONSTRAINT "subscription_cadence_suggestions_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_cadence_suggestions_shown_at_index" ON "subscription_cadence_suggestions" USING btree ("shown_at");--> statement-breakpoint
CREATE INDEX "subscription_changes_subscription_id_at_index" ON "subscription_changes" USING btree ("subscription_id","at");