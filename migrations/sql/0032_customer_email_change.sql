ALTER TYPE "public"."shopper_token_purpose" ADD VALUE 'email_change';--> statement-breakpoint
ALTER TABLE "shopper_tokens" ADD COLUMN "previous_email" text;