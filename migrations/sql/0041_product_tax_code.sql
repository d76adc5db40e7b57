ALTER TABLE "products" ADD COLUMN "tax_code" text;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tax_code_format" CHECK ("products"."tax_code" ~ '^[A-Za-z0-9.-]{1,25}$');