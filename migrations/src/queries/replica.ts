/**
 * Facts about a streaming replica (DATABASE_READ_URL): how far it lags, and whether it has replayed
 * what the primary had written at a given moment. docs/decisions/scale-out.md, "Reads from a replica".
 */
import type { Db } from '../db/client';

/**
 * Seconds the replica's replay is behind: 0 when it has replayed everything it received (an idle
 * primary writes nothing, so the age of the last replayed transaction is not lag), null when the
 * database is not a replica (a primary given as DATABASE_READ_URL, or none set).
 */
export async function replicaLagSeconds(replica: Db): Promise<number | null> {
  const { rows } = await replica.$client.query<{ lag: number | null }>(
    `select case when not pg_is_in_recovery() then null
                 when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
                 else greatest(0, extract(epoch from now() - pg_last_xact_replay_timestamp()))::float8 end as lag`,
  );
  return rows[0]?.lag ?? null;
}

/** The primary's current write position (an LSN as text). */
export async function primaryWritePosition(primary: Db): Promise<string> {
  const { rows } = await primary.$client.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
  return rows[0]!.lsn;
}

/** Whether the replica has replayed the primary's writes up to `lsn` (true for a database that is not a replica). */
export async function replayedUpTo(replica: Db, lsn: string): Promise<boolean> {
  const { rows } = await replica.$client.query<{ done: boolean }>(
    'select (not pg_is_in_recovery()) or coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) as done',
    [lsn],
  );
  return rows[0]?.done ?? false;
}

/**
 * The replica once it has replayed everything the primary had written when this was called (so a job
 * sees the rows written before it was queued), polling every `everyMs`; the primary when `replica` is
 * the primary, or when the replica has not caught up within `timeoutMs` (or cannot be asked: it is down).
 */
export async function caughtUpReplica(primary: Db, replica: Db, { timeoutMs = 10_000, everyMs = 100 } = {}): Promise<Db> {
  if (replica === primary) return primary;
  const lsn = await primaryWritePosition(primary);
  for (const end = Date.now() + timeoutMs; ; ) {
    const replayed = await replayedUpTo(replica, lsn).catch(() => null);
    if (replayed === null) return primary;
    if (replayed) return replica;
    if (Date.now() >= end) return primary;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
