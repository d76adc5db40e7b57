ALTER TABLE "orders" ADD COLUMN "subscribe_discount" numeric(10, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_discount" numeric(10, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_parts" CHECK ("orders"."subscribe_discount" >= 0 and "orders"."promo_discount" >= 0 and "orders"."subscribe_discount" + "orders"."promo_discount" <= "orders"."discount");--> statement-breakpoint
-- Each order's discount in its two parts, so each is shown on its own line (issue 19). Orders placed
-- before this migration are split where the checkout's pricing rule (shared/src/pricing.ts) gives back
-- their discount exactly from their subtotal and the promo code's terms (promo codes are never edited):
-- the Subscribe & Save part is 15% of the subtotal (rounded half away from zero) or nothing, and the
-- promo part is the code's percentage of what is left, or its fixed dollars, never more than what is
-- left. When both readings fit (a 100% code), the order's plan decides. An order neither reading fits
-- (a code since deleted, a discount no rule gives) keeps both parts 0, and its discount is shown as one
-- "Discount" line, as before.
UPDATE "orders" o SET "subscribe_discount" = split.subscribe_part, "promo_discount" = o.discount - split.subscribe_part
FROM (
  SELECT DISTINCT ON (o2.id) o2.id, c.subscribe_part
  FROM "orders" o2
  LEFT JOIN "promo_codes" pc ON pc.code = o2.promo_code
  CROSS JOIN LATERAL (VALUES (round(o2.subtotal * 0.15, 2)), (0::numeric)) AS c(subscribe_part)
  WHERE o2.discount > 0 AND c.subscribe_part <= o2.discount
    AND o2.discount - c.subscribe_part = CASE
      WHEN o2.promo_code IS NULL THEN 0
      WHEN pc.discount_type = 'percentage' THEN least(round((o2.subtotal - c.subscribe_part) * least(pc.discount_value, 100) / 100.0, 2), o2.subtotal - c.subscribe_part)
      WHEN pc.discount_type = 'fixed' THEN least(pc.discount_value::numeric, o2.subtotal - c.subscribe_part)
    END
  ORDER BY o2.id, ((c.subscribe_part > 0) = (o2.subscription_id IS NOT NULL)) DESC
) split
WHERE o.id = split.id;
