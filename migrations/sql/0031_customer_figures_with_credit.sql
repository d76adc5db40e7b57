-- Issue 23: a customer's figures with store credit (docs/decisions/admin.md, "Customers: spend and
-- refunds with store credit"). One rule: lifetime spend is what the paid orders cost, whatever paid
-- them (card and store credit alike: the order's total), less every refund of them, to the card, voided,
-- or to store credit; "refunded" is those refunds (never more than an order's total). A refund to
-- store credit is a `refund` row of store_credit_entries with its order, so the ledger now refreshes the
-- figures as a card refund's payment row does.
--
-- Lock order (docs/decisions/store-credit.md: a ledger write takes the balance row last): a refund to
-- credit takes the balance row, then (this trigger) the customer row. So that no path takes them the
-- other way round, the figures are no longer recounted when an order that was never paid is cancelled
-- (which gives its credit back under the balance's lock): only when an order enters or leaves the paid
-- statuses, or a paid order's total or customer changes. The recount keeps 0029's FOR NO KEY UPDATE
-- lock (an order insert's foreign-key KEY SHARE lock does not block it).
CREATE OR REPLACE FUNCTION customer_refresh(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_id IS NULL THEN RETURN; END IF;
  PERFORM 1 FROM customers WHERE id = p_id FOR NO KEY UPDATE;
  UPDATE customers c SET order_count = a.n, spend_cents = a.spend, refunded_cents = a.refunded,
      first_order_at = a.first_at, last_order_at = a.last_at,
      name = CASE WHEN c.anonymised_at IS NULL THEN coalesce((SELECT o.customer_name FROM orders o WHERE o.customer_id = p_id ORDER BY o.created_at DESC LIMIT 1), c.name) ELSE c.name END
    FROM (
      SELECT count(*)::int AS n,
        coalesce(sum(round(o.total * 100) - least(coalesce(g.cents, 0) + coalesce(s.cents, 0), round(o.total * 100))), 0)::bigint AS spend,
        coalesce(sum(least(coalesce(g.cents, 0) + coalesce(s.cents, 0), round(o.total * 100))), 0)::bigint AS refunded,
        min(o.created_at) AS first_at, max(o.created_at) AS last_at
      FROM orders o
      LEFT JOIN LATERAL (SELECT round(sum(p.amount) * 100) AS cents FROM payment_transactions p
        WHERE p.order_id = o.id AND p.kind IN ('refund', 'void') AND p.status = 'approved') g ON true
      LEFT JOIN LATERAL (SELECT sum(e.amount_cents) AS cents FROM store_credit_entries e
        WHERE e.order_id = o.id AND e.kind = 'refund') s ON true
      WHERE o.customer_id = p_id AND o.status IN ('processing', 'shipped', 'delivered')) a
    WHERE c.id = p_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION store_credit_customer_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM customer_refresh((SELECT customer_id FROM orders WHERE id = NEW.order_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER store_credit_customer_figures AFTER INSERT ON store_credit_entries FOR EACH ROW
  WHEN (NEW.kind = 'refund' AND NEW.order_id IS NOT NULL) EXECUTE FUNCTION store_credit_customer_figures();
--> statement-breakpoint
DROP TRIGGER orders_customer_figures_update ON orders;
--> statement-breakpoint
CREATE TRIGGER orders_customer_figures_update AFTER UPDATE OF status, total, user_id, customer_email ON orders FOR EACH ROW
  WHEN ((OLD.status IN ('processing', 'shipped', 'delivered')) IS DISTINCT FROM (NEW.status IN ('processing', 'shipped', 'delivered'))
    OR (NEW.status IN ('processing', 'shipped', 'delivered') AND OLD.total IS DISTINCT FROM NEW.total)
    OR OLD.customer_id IS DISTINCT FROM NEW.customer_id)
  EXECUTE FUNCTION orders_customer_figures();
--> statement-breakpoint
-- The customers who already have refunds to credit, counted again by the rule.
SELECT customer_refresh(x.customer_id) FROM (SELECT DISTINCT o.customer_id FROM store_credit_entries e JOIN orders o ON o.id = e.order_id WHERE e.kind = 'refund' AND o.customer_id IS NOT NULL) x;
