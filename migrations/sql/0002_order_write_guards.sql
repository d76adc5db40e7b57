-- Guards of the order write path (api/src/modules/orders). The API sends an order's whole reservation
-- transaction as one round trip (BEGIN; claim; insert order; these guards; COMMIT), so a guard that
-- fails must raise: the error aborts the transaction and nothing of it stays.

-- Takes stock for one order: every product active, with enough stock, and still priced as the API
-- priced the order (price and variants as read). Rows are locked in id order, so two orders sharing
-- products cannot deadlock, and the stock test runs on the locked row, so the last unit goes to
-- exactly one buyer. Raises SQLSTATE NH409 when any product fails; the API then reads why.
CREATE FUNCTION reserve_order_stock(p_ids integer[], p_quantities integer[], p_prices numeric[], p_variants jsonb[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  taken integer;
BEGIN
  PERFORM 1 FROM products WHERE id = ANY(p_ids) ORDER BY id FOR UPDATE;
  UPDATE products p SET inventory = p.inventory - w.quantity, updated_at = now()
    FROM unnest(p_ids, p_quantities, p_prices, p_variants) AS w(id, quantity, price, variants)
    WHERE p.id = w.id AND p.status = 'active' AND p.inventory >= w.quantity AND p.price = w.price AND p.variants = w.variants;
  GET DIAGNOSTICS taken = ROW_COUNT;
  IF taken < cardinality(p_ids) THEN
    RAISE EXCEPTION 'stock or price of a product changed for this order' USING ERRCODE = 'NH409';
  END IF;
END $$;
--> statement-breakpoint

-- Spends a single-use promo code for an order. Raises SQLSTATE NH422 when the code is no longer
-- active or another order spent it first.
CREATE FUNCTION spend_promo_code(p_code_id integer, p_order_id uuid)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE promo_codes SET redeemed_at = now(), redeemed_order_id = p_order_id
    WHERE id = p_code_id AND single_use AND redeemed_at IS NULL AND is_active;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'promo code % is spent or inactive', p_code_id USING ERRCODE = 'NH422';
  END IF;
END $$;
