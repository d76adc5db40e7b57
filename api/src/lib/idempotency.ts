/**
 * Idempotency keys (table idempotency_keys): one row per (scope, key), claimed by inserting it before
 * any work. The insert is the lock: of two concurrent requests with the same key exactly one inserts;
 * the other waits for the first to finish and replays its stored answer. The same key with a
 * different body is refused. The answer is stored by the caller in the same transaction as its
 * outcome (see `completeStatement`), so an answer exists if and only if the outcome does.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { badRequest, conflict, unprocessable } from './errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,200}$/;

export interface IdempotencyMessages {
  missing: string;
  invalid: string;
  reused: string;
  inProgress: string;
}

export interface StoredAnswer {
  status: number;
  body: unknown;
}

export type Claim = { kind: 'claimed' } | { kind: 'replay'; answer: StoredAnswer };

/** The key from the request header, or a 400 naming what is wrong. */
export function readIdempotencyKey(header: string | string[] | undefined, messages: IdempotencyMessages): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !value.trim()) throw badRequest(messages.missing);
  if (!KEY_PATTERN.test(value.trim())) throw badRequest(messages.invalid);
  return value.trim();
}

/** A fingerprint of the request body (as parsed, so formatting does not matter). */
export const requestHash = (body: unknown): string => createHash('sha256').update(JSON.stringify(body ?? null)).digest('base64url');

const CLAIM = 'insert into idempotency_keys (scope, key, request_hash) values ($1, $2, $3) on conflict do nothing';
const READ = 'select request_hash, status_code, response from idempotency_keys where scope = $1 and key = $2';

/**
 * Claims the key, or answers with the stored result of the request that claimed it first (waiting up
 * to `waitMs` while that request is still running).
 */
export async function claimIdempotencyKey(
  pool: pg.Pool,
  scope: string,
  key: string,
  hash: string,
  messages: IdempotencyMessages,
  waitMs = 10_000,
): Promise<Claim> {
  const inserted = await pool.query({ name: 'idem_claim', text: CLAIM, values: [scope, key, hash] });
  if (inserted.rowCount === 1) return { kind: 'claimed' };
  const deadline = Date.now() + waitMs;
  for (let delay = 25; ; delay = Math.min(delay * 2, 250)) {
    const { rows } = await pool.query<{ request_hash: string; status_code: number | null; response: unknown }>({ name: 'idem_read', text: READ, values: [scope, key] });
    const row = rows[0];
    // Released by a request that failed before doing anything: claim it now.
    if (!row) return claimIdempotencyKey(pool, scope, key, hash, messages, Math.max(0, deadline - Date.now()));
    if (row.request_hash !== hash) throw unprocessable(messages.reused);
    if (row.status_code !== null) return { kind: 'replay', answer: { status: row.status_code, body: row.response } };
    if (Date.now() >= deadline) throw conflict(messages.inProgress);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** The statement that stores the answer; run it inside the transaction that records the outcome. */
export const completeStatement = (scope: string, key: string, answer: StoredAnswer): pg.QueryConfig => ({
  name: 'idem_complete',
  text: 'update idempotency_keys set status_code = $3, response = $4, completed_at = now() where scope = $1 and key = $2',
  values: [scope, key, answer.status, JSON.stringify(answer.body)],
});

/** Gives the key back when the request failed before any side effect (so a retry can run again). */
export async function releaseIdempotencyKey(pool: pg.Pool, scope: string, key: string): Promise<void> {
  await pool.query({ name: 'idem_release', text: 'delete from idempotency_keys where scope = $1 and key = $2 and status_code is null', values: [scope, key] });
}
