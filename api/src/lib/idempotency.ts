/**
 * Idempotency keys (table idempotency_keys): one row per (scope, key). The caller inserts the row in
 * the same transaction as its first side effect (the primary key is the lock: of two concurrent
 * requests with the same key exactly one inserts; the other's insert waits for the first
 * transaction, then fails), and stores the answer in the same transaction as the outcome, so an
 * answer exists if and only if the outcome does. A request that finds the key taken replays the
 * stored answer (`awaitStoredAnswer`). The same key with a different body is refused.
 */
import { createHash } from 'node:crypto';
import type { Db } from '@nh/server/db/client';
import { findIdempotencyKey, insertAnsweredIdempotencyKey } from '@nh/server/queries/idempotency';
import { AppError } from './errors';

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

/** The key from the request header, or a 400 naming what is wrong. */
export function readIdempotencyKey(header: string | string[] | undefined, messages: IdempotencyMessages): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !value.trim()) throw new AppError('IDEMPOTENCY_KEY_MISSING', messages.missing);
  if (!KEY_PATTERN.test(value.trim())) throw new AppError('IDEMPOTENCY_KEY_INVALID', messages.invalid);
  return value.trim();
}

/** JSON with every object's keys in sorted order, so two spellings of one request read the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A fingerprint of the request body over canonical JSON: formatting and key order do not matter. */
export const requestHash = (body: unknown): string => createHash('sha256').update(canonicalJson(body)).digest('base64url');

/** `released`: the request that took the key rolled back without an outcome, so the key is free again. */
export type Stored = { kind: 'replay'; answer: StoredAnswer } | { kind: 'released' };

/**
 * The stored answer for a taken key, waiting up to `waitMs` while the request that took it is still
 * running. Refuses a different body (422) and a wait that runs out (409).
 */
export async function awaitStoredAnswer(pool: Db['$client'], scope: string, key: string, hash: string, messages: IdempotencyMessages, waitMs = 10_000): Promise<Stored> {
  const deadline = Date.now() + waitMs;
  for (let delay = 25; ; delay = Math.min(delay * 2, 250)) {
    const row = await findIdempotencyKey(pool, scope, key);
    if (!row) return { kind: 'released' };
    if (row.requestHash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED', messages.reused);
    if (row.statusCode !== null) return { kind: 'replay', answer: { status: row.statusCode, body: row.response } };
    if (Date.now() >= deadline) throw new AppError('IDEMPOTENCY_IN_PROGRESS', messages.inProgress);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Stores the answer of a request that ended without side effects (a refusal), so a retry with the
 * same key gets the same answer. When the key is taken meanwhile, that request's answer wins.
 */
export async function storeAnswer(pool: Db['$client'], scope: string, key: string, hash: string, answer: StoredAnswer, messages: IdempotencyMessages): Promise<Stored | { kind: 'stored' }> {
  if (await insertAnsweredIdempotencyKey(pool, { scope, key, requestHash: hash, status: answer.status, body: answer.body })) return { kind: 'stored' };
  return awaitStoredAnswer(pool, scope, key, hash, messages);
}
