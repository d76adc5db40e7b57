ALTER TABLE "promo_codes" ADD COLUMN "issued_for" text;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_issuedFor_unique" UNIQUE("issued_for");