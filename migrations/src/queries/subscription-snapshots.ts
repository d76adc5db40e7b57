/**
 * The plans' daily snapshot and what is read from it (issue 23): MRR now, its movement between two
 * snapshot days (new, expansion, contraction, churned, reactivated) and the plans churned.
 *
 * A plan's MRR: its amount per delivery divided by the months between deliveries (a plan every 2 months
 * counts half, a quarterly plan a third), in cents, rounded half away from zero to the cent per plan (SQL
 * `round` of a numeric), and only while it is active (a paused plan brings in nothing). The snapshot keeps
 * the plans that are active or paused on the day; a plan missing from a day was not (not yet made, or
 * cancelled or expired), so cancelled plans do not fill the table day after day.
 */
import type pg from 'pg';
import { MONTHS_SQL } from './reports';

const MRR_CENTS = `(case when status = 'active' then round(amount * 100 / ${MONTHS_SQL}) else 0 end)::bigint`;

/**
 * Writes the day's snapshot (yyyy-mm-dd, UTC) unless the day has one: the first run of the day records the
 * plans as they are then, a later run of the same day writes nothing. Two runs at once cannot double a
 * row (the primary key; `on conflict do nothing`). Answers the rows written.
 */
export async function writeSubscriptionSnapshot(pool: pg.Pool, day: string): Promise<number> {
  const { rowCount } = await pool.query(
    `insert into subscription_snapshots (day, subscription_id, status, mrr_cents)
     select $1::date, id, status, ${MRR_CENTS}
     from subscriptions
     where status in ('active', 'paused') and not exists (select 1 from subscription_snapshots where day = $1::date)
     on conflict do nothing`,
    [day],
  );
  return rowCount ?? 0;
}

/** MRR now, from the plans themselves (the same rule as the snapshot), and the active plans. */
export async function mrrNow(pool: pg.Pool): Promise<{ mrrCents: number; activePlans: number }> {
  const { rows } = await pool.query<{ mrr: string; active: number }>(
    `select coalesce(sum(${MRR_CENTS}), 0)::text as mrr, count(*) filter (where status = 'active')::int as active from subscriptions where status = 'active'`,
  );
  return { mrrCents: Number(rows[0]!.mrr), activePlans: rows[0]!.active };
}

export interface SnapshotDays {
  /** The first day any snapshot was kept (null: none yet). */
  first: string | null;
  /** The snapshot the range starts from: the latest on or before `from`, else the first after it (up to `to`). */
  start: string | null;
  /** The latest snapshot on or before `to`. */
  end: string | null;
}

export async function snapshotDays(pool: pg.Pool, from: string, to: string): Promise<SnapshotDays> {
  const { rows } = await pool.query<SnapshotDays>(
    `select to_char((select min(day) from subscription_snapshots), 'YYYY-MM-DD') as first,
            to_char(coalesce((select max(day) from subscription_snapshots where day <= $1::date),
                             (select min(day) from subscription_snapshots where day > $1::date and day <= $2::date)), 'YYYY-MM-DD') as start,
            to_char((select max(day) from subscription_snapshots where day <= $2::date), 'YYYY-MM-DD') as "end"`,
    [from, to],
  );
  return rows[0]!;
}

export interface MovementRow {
  kind: 'new' | 'expansion' | 'contraction' | 'churned' | 'reactivated' | 'unchanged';
  plans: number;
  /** The change in MRR (cents; churned and contraction negative). */
  cents: number;
  /** The plans' MRR on the start day (cents). */
  start_cents: number;
}

/**
 * Each plan's MRR on `start` and on `end` (0 when it has no row that day), classified: new (no row on the
 * start day and made after that day's snapshot), reactivated (MRR 0 on the start day, paused, or made
 * before it and cancelled then, and earning on the end day), churned (earning on the start day, nothing on
 * the end day: cancelled, expired or paused), expansion and contraction (earning on both days, more or
 * less), unchanged.
 */
export async function mrrMovement(pool: pg.Pool, start: string, end: string): Promise<MovementRow[]> {
  const { rows } = await pool.query<MovementRow>(
    `with a as (select subscription_id, mrr_cents, created_at from subscription_snapshots where day = $1::date),
          b as (select subscription_id, mrr_cents from subscription_snapshots where day = $2::date),
          taken as (select coalesce(max(created_at), $1::date::timestamptz) as at from a),
          both_days as (
            select coalesce(a.subscription_id, b.subscription_id) as id, a.subscription_id is not null as had_row,
                   coalesce(a.mrr_cents, 0) as m1, coalesce(b.mrr_cents, 0) as m2
            from a full join b on b.subscription_id = a.subscription_id),
          kinds as (
            select d.m1, d.m2, case
              when d.m1 > 0 and d.m2 = 0 then 'churned'
              when d.m1 > 0 and d.m2 > d.m1 then 'expansion'
              when d.m1 > 0 and d.m2 < d.m1 then 'contraction'
              when d.m1 > 0 then 'unchanged'
              when d.m2 = 0 then 'unchanged'
              when not d.had_row and coalesce(s.created_at > (select at from taken), true) then 'new'
              else 'reactivated' end as kind
            from both_days d left join subscriptions s on s.id = d.id)
     select kind, count(*)::int as plans, sum(m2 - m1)::float8 as cents, sum(m1)::float8 as start_cents from kinds group by kind`,
    [start, end],
  );
  return rows;
}
