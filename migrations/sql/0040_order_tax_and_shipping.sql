ALTER TABLE "orders" ADD COLUMN "shipping_method" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_tax" numeric(10, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_source" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_shipping_method_check" CHECK ("shipping_method" IN ('standard', 'express'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tax_source_check" CHECK ("tax_source" IN ('flat', 'table', 'taxjar', 'table-fallback', 'no-nexus'));
