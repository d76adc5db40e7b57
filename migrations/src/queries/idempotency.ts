/**
 * Idempotency keys of the checkout (one per shopper request; the reservation in orders.ts claims one,
 * the outcome statements of payments.ts store its answer): the reads and deletes the workers make.
 * The API's own key handling (waiting for a stored answer) is still in api/src/lib/idempotency.ts.
 */
import type pg from 'pg';
import type { ErrorCode } from '@nh/shared/contracts/errors';

/** The code of the checkout's stored answer when the charge's outcome was not known (502). */
const OUTCOME_UNKNOWN_CODE: ErrorCode = 'PAYMENT_OUTCOME_UNKNOWN';

/**
 * The idempotency key that reserved this order and still awaits the charge's outcome, if any: unfinished
 * (its checkout never answered), or answered with the 502 of an unknown outcome ("We could not confirm
 * your payment"). Either gets the final answer in the reconciliation's commit. Locked (FOR UPDATE) in
 * the caller's transaction; a key with any other answer is left as it is.
 */
export async function findCheckoutKeyAwaitingOutcome(client: pg.PoolClient, orderId: string): Promise<{ scope: string; key: string } | null> {
  const { rows } = await client.query<{ scope: string; key: string }>(
    `select scope, key from idempotency_keys
     where order_id = $1 and (status_code is null or (status_code = 502 and response->>'code' = $2))
     for update`,
    [orderId, OUTCOME_UNKNOWN_CODE],
  );
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
