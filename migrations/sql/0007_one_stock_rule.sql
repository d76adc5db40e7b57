-- One stock-taking rule for every order, checkout and renewal alike: rows locked in id order (so two
-- orders never deadlock), each line taken only while the product is active and has the quantity, all
-- lines or none (SQLSTATE NH409). A checkout also passes the prices and variants it was priced with,
-- and is refused when either changed; a renewal charges the plan's agreed amount and passes none.
CREATE OR REPLACE FUNCTION reserve_order_stock(p_ids integer[], p_quantities integer[], p_prices numeric[], p_variants jsonb[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  taken integer;
BEGIN
  PERFORM 1 FROM products WHERE id = ANY(p_ids) ORDER BY id FOR UPDATE;
  UPDATE products p SET inventory = p.inventory - w.quantity, updated_at = now()
    FROM unnest(p_ids, p_quantities, coalesce(p_prices, array_fill(NULL::numeric, ARRAY[cardinality(p_ids)])),
                coalesce(p_variants, array_fill(NULL::jsonb, ARRAY[cardinality(p_ids)]))) AS w(id, quantity, price, variants)
    WHERE p.id = w.id AND p.status = 'active' AND p.inventory >= w.quantity
      AND (p_prices IS NULL OR (p.price = w.price AND p.variants = w.variants));
  GET DIAGNOSTICS taken = ROW_COUNT;
  IF taken < cardinality(p_ids) THEN
    RAISE EXCEPTION 'stock or price of a product changed for this order' USING ERRCODE = 'NH409';
  END IF;
END $$;
