CREATE TABLE "subscription_consents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"terms_version" text NOT NULL,
	"terms_text" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"interval" "subscription_interval" NOT NULL,
	"interval_count" integer NOT NULL,
	"agreed_at" timestamp with time zone NOT NULL,
	"shipping_address" jsonb,
	"user_agent" text,
	"ip_address" text,
	"anonymised_at" timestamp with time zone,
	CONSTRAINT "subscription_consents_subscriptionId_unique" UNIQUE("subscription_id")
);
--> statement-breakpoint
CREATE TABLE "subscription_price_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"from_amount" numeric(10, 2) NOT NULL,
	"to_amount" numeric(10, 2) NOT NULL,
	"first_charge_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "agreed_amount" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "agreed_amount_from" date;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "prior_agreed_amount" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "subscription_consents" ADD CONSTRAINT "subscription_consents_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_price_notices" ADD CONSTRAINT "subscription_price_notices_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_price_notices_subscription_id_index" ON "subscription_price_notices" USING btree ("subscription_id");