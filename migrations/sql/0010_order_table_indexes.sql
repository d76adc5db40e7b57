-- The order table's search uses trigram matching (a substring of the name or email, any case).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_store_total" ON "orders" USING btree ("store_code","total","id");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_search_trgm" ON "orders" USING gin (("customer_name" || ' ' || "customer_email") gin_trgm_ops);