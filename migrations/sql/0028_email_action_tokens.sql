CREATE TABLE "email_action_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"subscription_id" uuid NOT NULL,
	"billing_period" date NOT NULL,
	"action" text NOT NULL,
	"interval_count" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_action_tokens_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD COLUMN "via" text;--> statement-breakpoint
ALTER TABLE "email_action_tokens" ADD CONSTRAINT "email_action_tokens_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_action_tokens_purpose" ON "email_action_tokens" USING btree ("subscription_id","billing_period","action","interval_count");--> statement-breakpoint
CREATE INDEX "email_action_tokens_expires_at_index" ON "email_action_tokens" USING btree ("expires_at");