ALTER TABLE "orders" ADD COLUMN "address_revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "netsuite_address_revision" integer DEFAULT 0 NOT NULL;