-- Issue 23: the sales summary's triggers on what was given back (approved card refunds and voids in
-- payment_transactions, refunds to store credit in store_credit_entries) repeated, per table and per
-- operation, the same step: the orders those rows name, each once, in key order (the lock order), counted
-- again with their lock (report_refresh_orders). It is one function now; the triggers only say which rows
-- are given back. Same triggers, same behaviour (CREATE OR REPLACE: nothing waits on this migration).
CREATE OR REPLACE FUNCTION report_refresh_given_back(p_order_ids uuid[]) RETURNS void LANGUAGE sql AS $$
  SELECT report_refresh_orders(array(SELECT DISTINCT x FROM unnest(p_order_ids) x WHERE x IS NOT NULL ORDER BY 1), true);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payments_report_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[] := '{}';
BEGIN
  -- The transition tables the operation has: new rows (insert, update), old rows (update, delete).
  IF TG_OP IN ('INSERT', 'UPDATE') THEN v_ids := v_ids || array(SELECT order_id FROM report_new WHERE kind IN ('refund', 'void')); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN v_ids := v_ids || array(SELECT order_id FROM report_old WHERE kind IN ('refund', 'void')); END IF;
  PERFORM report_refresh_given_back(v_ids);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION store_credit_report_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_refresh_given_back(array(SELECT order_id FROM report_new WHERE kind = 'refund'));
  RETURN NULL;
END $$;
