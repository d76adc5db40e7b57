-- The stored card's expiry (the last day of its expiry month), filled after a card is stored; a plan's orders by index.
ALTER TABLE "subscriptions" ADD COLUMN "card_expires_on" date;--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_subscription_id_index" ON "orders" USING btree ("subscription_id");