/**
 * Idempotency keys (one per shopper request; the checkout's reservation in orders.ts claims one, the
 * outcome statements of payments.ts store its answer): the API's read of a taken key and its stored
 * refusals (api/src/lib/idempotency.ts waits and replays), and the reads and deletes the workers make.
 */
import type pg from 'pg';
import type { ErrorCode } from '@nh/shared/contracts/errors';

/** A taken key: the fingerprint of the request that took it, and its answer once there is one. */
export interface IdempotencyKeyRow {
  requestHash: string;
  statusCode: number | null;
  response: unknown;
}

export async function findIdempotencyKey(pool: pg.Pool, scope: string, key: string): Promise<IdempotencyKeyRow | null> {
  const { rows } = await pool.query<{ request_hash: string; status_code: number | null; response: unknown }>({
    name: 'idem_read',
    text: 'select request_hash, status_code, response from idempotency_keys where scope = $1 and key = $2',
    values: [scope, key],
  });
  const row = rows[0];
  return row ? { requestHash: row.request_hash, statusCode: row.status_code, response: row.response } : null;
}

/** Takes a free key with its answer already stored (a refusal, no side effects); false when the key is taken. */
export async function insertAnsweredIdempotencyKey(pool: pg.Pool, k: { scope: string; key: string; requestHash: string; status: number; body: unknown }): Promise<boolean> {
  const inserted = await pool.query({
    name: 'idem_store',
    text: `insert into idempotency_keys (scope, key, request_hash, status_code, response, completed_at) values ($1, $2, $3, $4, $5, now())
      on conflict do nothing`,
    values: [k.scope, k.key, k.requestHash, k.status, JSON.stringify(k.body)],
  });
  return inserted.rowCount === 1;
}

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
