CREATE TABLE "subscription_movements" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"plans" integer NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "subscription_movements_day_kind_pk" PRIMARY KEY("day","kind"),
	CONSTRAINT "subscription_movements_kind" CHECK ("subscription_movements"."kind" in ('mrr', 'new', 'expansion', 'contraction', 'churned', 'reactivated'))
);
--> statement-breakpoint
-- Issue 23: the subscriptions report sums each day's stored movement instead of comparing two whole
-- snapshot days per request (docs/decisions/admin.md, "Subscriptions: snapshot, MRR, movement, churn, save
-- rate"). One day's rows, counted again from the day's snapshot and the previous snapshot day's (the latest
-- earlier day with snapshot rows or an `mrr` row: a day without plans has only that row). Per plan, MRR on
-- the previous day (m1) and on this day (m2), 0 without a row: churned (m1 > 0, m2 = 0), expansion and
-- contraction (both earning, more or less), new (no row the previous day and made after that day's
-- snapshot was taken), reactivated (0 the previous day, paused or not open, earning now); no change is not
-- stored. The MRR of every plan adds up: previous mrr + the day's movement = this day's mrr.
CREATE FUNCTION subscription_movements_of_day(p_day date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_prev date;
BEGIN
  DELETE FROM subscription_movements WHERE day = p_day;
  v_prev := greatest((SELECT max(day) FROM subscription_snapshots WHERE day < p_day),
                     (SELECT max(day) FROM subscription_movements WHERE day < p_day AND kind = 'mrr'));
  INSERT INTO subscription_movements (day, kind, plans, cents)
  SELECT p_day, 'mrr', count(*) FILTER (WHERE mrr_cents > 0)::int, coalesce(sum(mrr_cents), 0)::bigint
  FROM subscription_snapshots WHERE day = p_day;
  IF v_prev IS NULL THEN RETURN; END IF; -- the first day: nothing to compare with
  INSERT INTO subscription_movements (day, kind, plans, cents)
  WITH a AS (SELECT subscription_id, mrr_cents, created_at FROM subscription_snapshots WHERE day = v_prev),
       b AS (SELECT subscription_id, mrr_cents FROM subscription_snapshots WHERE day = p_day),
       taken AS (SELECT coalesce(max(created_at), v_prev::timestamptz) AS at FROM a),
       both_days AS (
         SELECT coalesce(a.subscription_id, b.subscription_id) AS id, a.subscription_id IS NOT NULL AS had_row,
                coalesce(a.mrr_cents, 0) AS m1, coalesce(b.mrr_cents, 0) AS m2
         FROM a FULL JOIN b ON b.subscription_id = a.subscription_id),
       kinds AS (
         SELECT d.m1, d.m2, CASE
           WHEN d.m1 > 0 AND d.m2 = 0 THEN 'churned'
           WHEN d.m1 > 0 AND d.m2 > d.m1 THEN 'expansion'
           WHEN d.m1 > 0 AND d.m2 < d.m1 THEN 'contraction'
           WHEN d.m1 > 0 OR d.m2 = 0 THEN NULL
           WHEN NOT d.had_row AND coalesce(s.created_at > (SELECT at FROM taken), true) THEN 'new'
           ELSE 'reactivated' END AS kind
         FROM both_days d LEFT JOIN subscriptions s ON s.id = d.id AND NOT d.had_row)
  SELECT p_day, k.kind, count(*)::int, sum(k.m2 - k.m1)::bigint FROM kinds k WHERE k.kind IS NOT NULL GROUP BY k.kind;
END $$;
--> statement-breakpoint
-- Writes the movement of p_day and of every earlier snapshot day after the last day done that has none (a
-- day an older release snapshotted during a rolling deploy), in day order, each against the day before it;
-- a day done already is left as it is, so a second call writes nothing. A day written before a later day
-- that is done (out of order) makes that later day count again against it. One writer at a time (the
-- snapshot writer's advisory lock, also taken by writeSubscriptionSnapshot before it writes the day's
-- snapshot). Answers the days written.
CREATE FUNCTION write_subscription_movements(p_day date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_after date;
  v_day date;
  v_next date;
  v_written integer := 0;
BEGIN
  IF p_day IS NULL THEN RETURN 0; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('subscription_snapshots'));
  v_after := coalesce((SELECT max(day) FROM subscription_movements WHERE kind = 'mrr' AND day < p_day), '-infinity'::date);
  FOR v_day IN
    -- The snapshot days after v_after up to p_day, one index probe per day (not a scan of their rows).
    WITH RECURSIVE days(day) AS (
      SELECT (SELECT min(s.day) FROM subscription_snapshots s WHERE s.day > v_after AND s.day <= p_day)
      UNION ALL
      SELECT (SELECT min(s.day) FROM subscription_snapshots s WHERE s.day > days.day AND s.day <= p_day) FROM days WHERE days.day IS NOT NULL)
    SELECT days.day FROM days WHERE days.day IS NOT NULL UNION SELECT p_day ORDER BY 1
  LOOP
    IF NOT EXISTS (SELECT 1 FROM subscription_movements WHERE day = v_day AND kind = 'mrr') THEN
      PERFORM subscription_movements_of_day(v_day);
      v_written := v_written + 1;
    END IF;
  END LOOP;
  IF v_written > 0 THEN
    v_next := (SELECT min(day) FROM subscription_movements WHERE kind = 'mrr' AND day > p_day);
    IF v_next IS NOT NULL THEN PERFORM subscription_movements_of_day(v_next); END IF;
  END IF;
  RETURN v_written;
END $$;
--> statement-breakpoint
-- Backfill: the snapshot days kept before this release, in this migration's transaction. It writes only
-- the new table (a few rows a day) and reads the snapshots (no lock that stops a writer); one full join of
-- two days per day kept (about a quarter of a second per day at 100,000 plans).
SELECT write_subscription_movements((SELECT max(day) FROM subscription_snapshots));
