CREATE TYPE "public"."shopper_token_purpose" AS ENUM('password_reset', 'order_access');--> statement-breakpoint
CREATE TABLE "shopper_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" "shopper_token_purpose" NOT NULL,
	"email" text NOT NULL,
	"user_id" uuid,
	"order_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shopper_tokens_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "shopper_tokens" ADD CONSTRAINT "shopper_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopper_tokens" ADD CONSTRAINT "shopper_tokens_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shopper_tokens_user" ON "shopper_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "shopper_tokens_order" ON "shopper_tokens" USING btree ("order_id");--> statement-breakpoint
-- Hand-written: ending every session of a shopper (password reset) finds them by the user id in the session JSON.
CREATE INDEX "sessions_user_id" ON "sessions" USING btree (("sess"->>'userId'));
