/**
 * The plans' daily snapshot and what is read from it (issue 23): MRR now, and its movement between two
 * snapshot days (new, expansion, contraction, churned, reactivated), summed from each day's movement
 * stored with the day's snapshot (subscription_movements).
 *
 * A plan's MRR: its amount per delivery divided by the months between deliveries (a plan every 2 months
 * counts half, a quarterly plan a third), in cents, rounded half away from zero to the cent per plan (SQL
 * `round` of a numeric), and only while it is active (a paused plan brings in nothing). The snapshot keeps
 * the plans that are active or paused on the day; a plan missing from a day was not (not yet made, or
 * cancelled or expired), so cancelled plans do not fill the table day after day.
 */
import type pg from 'pg';
import type { Db } from '../db/client';
import { inPoolTransaction } from './transaction';
import { MONTHS_SQL } from './reports';

const MRR_CENTS = `(case when status = 'active' then round(amount * 100 / ${MONTHS_SQL}) else 0 end)::bigint`;

/** Whether the day's snapshot and movement are written (its `mrr` row marks the day done). */
export async function snapshotDayDone(client: Pick<pg.PoolClient, 'query'>, day: string): Promise<boolean> {
  const { rowCount } = await client.query(`select 1 from subscription_movements where day = $1::date and kind = 'mrr'`, [day]);
  return Boolean(rowCount);
}

/**
 * Writes the day's snapshot (yyyy-mm-dd, UTC) and its movement since the previous snapshot day
 * (`write_subscription_movements`, migration subscription_movements) in one transaction, unless the day
 * is done: the first run of the day records the plans as they are then, a later run writes nothing. Runs
 * take turns (an advisory lock held to the commit), so two at once write the day once; rows an older
 * release wrote for the day stand and get their movement. Answers the snapshot rows written.
 */
export async function writeSubscriptionSnapshot(db: Db, day: string): Promise<number> {
  return inPoolTransaction(db, async (client) => {
    await client.query(`select pg_advisory_xact_lock(hashtext('subscription_snapshots'))`);
    if (await snapshotDayDone(client, day)) return 0;
    const { rowCount } = await client.query(
      `insert into subscription_snapshots (day, subscription_id, status, mrr_cents)
       select $1::date, id, status, ${MRR_CENTS}
       from subscriptions
       where status in ('active', 'paused') and not exists (select 1 from subscription_snapshots where day = $1::date)`,
      [day],
    );
    await client.query('select write_subscription_movements($1::date)', [day]);
    return rowCount ?? 0;
  });
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

/** Read from the days' `mrr` rows (one per snapshot day), not from the snapshots' rows. */
export async function snapshotDays(pool: pg.Pool, from: string, to: string): Promise<SnapshotDays> {
  const { rows } = await pool.query<SnapshotDays>(
    `with d as (select day from subscription_movements where kind = 'mrr')
     select to_char((select min(day) from d), 'YYYY-MM-DD') as first,
            to_char(coalesce((select max(day) from d where day <= $1::date),
                             (select min(day) from d where day > $1::date and day <= $2::date)), 'YYYY-MM-DD') as start,
            to_char((select max(day) from d where day <= $2::date), 'YYYY-MM-DD') as "end"`,
    [from, to],
  );
  return rows[0]!;
}

export type MovementKind = 'new' | 'expansion' | 'contraction' | 'churned' | 'reactivated';

export interface MrrMovementSums {
  /** MRR (cents) and plans earning on the start and end days. */
  start: { plans: number; cents: number };
  end: { plans: number; cents: number };
  /** Each kind summed over the days after `start` up to `end`: plan movements and the change in MRR (cents; churned and contraction negative). */
  kinds: Record<MovementKind, { plans: number; cents: number }>;
}

/**
 * The movement from the `start` snapshot day to the `end` day: the sum of each day's stored movement
 * (start < day <= end), so a plan that churned and came back in between counts once as churned and once
 * as reactivated. start MRR + every kind's cents = end MRR.
 */
export async function mrrMovement(pool: pg.Pool, start: string, end: string): Promise<MrrMovementSums> {
  const { rows } = await pool.query<{ kind: string; plans: number; cents: number }>(
    `select kind, sum(plans)::int as plans, sum(cents)::float8 as cents from subscription_movements
     where day > $1::date and day <= $2::date and kind <> 'mrr' group by kind
     union all
     select case when day = $1::date then 'start' else 'end' end, plans, cents::float8 from subscription_movements
     where day in ($1::date, $2::date) and kind = 'mrr'`,
    [start, end],
  );
  const of = (kind: string) => {
    const row = rows.find((r) => r.kind === kind);
    return { plans: row?.plans ?? 0, cents: row?.cents ?? 0 };
  };
  return {
    start: of('start'),
    end: of('end'),
    kinds: { new: of('new'), expansion: of('expansion'), contraction: of('contraction'), churned: of('churned'), reactivated: of('reactivated') },
  };
}
