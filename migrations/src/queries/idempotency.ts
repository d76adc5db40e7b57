/**
 * Idempotency keys of the checkout (one per shopper request; the reservation in orders.ts claims one,
 * the outcome statements of payments.ts store its answer): the reads and deletes the workers make.
 * The API's own key handling (waiting for a stored answer) is still in api/src/lib/idempotency.ts.
 */
import type pg from 'pg';

/** The unfinished idempotency key that reserved this order (its checkout never answered), if any. */
export async function findUnfinishedCheckoutKey(client: pg.PoolClient, orderId: string): Promise<{ scope: string; key: string } | null> {
  const { rows } = await client.query<{ scope: string; key: string }>(`select scope, key from idempotency_keys where order_id = $1 and status_code is null`, [orderId]);
  return rows[0] ?? null;
}

/**
 * Housekeeping: deletes up to `batch` keys older than `olderThanDays` (a key only has to outlive a
 * shopper's retries), finished or not, and answers how many went; the caller repeats while a full
 * batch went.
 */
export async function deleteOldIdempotencyKeys(pool: pg.Pool, olderThanDays: number, batch: number): Promise<number> {
  if (!Number.isSafeInteger(batch)) throw new TypeError('batch: integers only');
  const { rowCount } = await pool.query(
    `delete from idempotency_keys where (scope, key) in (
      select scope, key from idempotency_keys where coalesce(completed_at, created_at) < now() - make_interval(days => $1) limit ${batch})`,
    [olderThanDays],
  );
  return rowCount ?? 0;
}

/** VACUUM (ANALYZE) of the queue-like idempotency keys; outside any transaction. */
export async function vacuumIdempotencyKeys(pool: pg.Pool): Promise<void> {
  await pool.query('vacuum (analyze) idempotency_keys');
}
