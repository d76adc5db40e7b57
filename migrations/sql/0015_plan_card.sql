ALTER TABLE "subscriptions" ADD COLUMN "card_type" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "card_last_four" text;