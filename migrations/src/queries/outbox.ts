/**
 * The outbox: follow-up work recorded in the same transaction as the business write, so it exists if and
 * only if that write does; `pg_notify` (delivered at commit, dropped on rollback) wakes the relay.
 *
 * One way to write it, whatever the statement's shape: the rows are validated `OutboxRecord`s passed as
 * one JSON parameter (`outboxParam`), inserted by `outboxInsert` and announced by `outboxNotify`. A
 * drizzle transaction uses `recordOutbox`; a hand-tuned statement (the checkout's and the renewals'
 * single-statement writes) puts the two fragments in its own CTEs.
 *
 * Each row also remembers the request that wrote it (`request_id`): the `requestId` argument when given,
 * otherwise the request id of the work in progress (`currentRequestId`, request-context.ts: the API
 * request, or the job that carries one), otherwise none. The relay copies it into the row's jobs.
 * With OpenTelemetry tracing on, each row also keeps the `traceparent` of the span active where it was
 * written (`trace_parent`; tracing.ts), and the relay's jobs run as children of that span.
 *
 * The relay's own statements are here too: its claim, its LISTEN connection, and the backlog its
 * metrics read.
 */
import pg from 'pg';
import { outboxPayloads, type OutboxPayload, type OutboxTopic } from '@nh/shared/contracts/outbox';
import { positionalSql, type DbOrTx } from '../db/client';
import { currentRequestId } from '../observability/request-context';
import { currentTraceParent } from '../observability/tracing';

/** Postgres NOTIFY channel the relay listens on, so new rows are moved at once. */
export const OUTBOX_CHANNEL = 'outbox_new';

export interface OutboxRecord {
  topic: OutboxTopic;
  payload: unknown;
}

/**
 * The request a row belongs to: `requestId` when given (null: none), else the one of the work in
 * progress. At most 128 characters, as the API accepts an `x-request-id`.
 */
const requestIdOf = (requestId: string | null | undefined): string | null => (requestId === undefined ? currentRequestId() : requestId)?.slice(0, 128) ?? null;

/**
 * The rows as the one JSON parameter of an outbox-writing statement, each payload checked against its
 * topic's schema, each with its request id (`requestId`, or by default the current one; see above) and,
 * while tracing is on, the current span's `traceParent` (absent when off: the column stays null).
 */
export function outboxParam(records: readonly OutboxRecord[], requestId?: string | null): string {
  const reqId = requestIdOf(requestId);
  const traceParent = currentTraceParent();
  return JSON.stringify(records.map((r) => ({ topic: r.topic, payload: outboxPayloads[r.topic].parse(r.payload), requestId: reqId, ...(traceParent && { traceParent }) })));
}

/**
 * CTE body inserting the rows of `param` (the SQL placeholder of an `outboxParam`) when `condition`
 * (a SQL boolean, e.g. `exists (select 1 from ord)`) holds.
 */
export const outboxInsert = (param: string, condition = 'true'): string =>
  `insert into outbox (topic, payload, request_id, trace_parent) select e->>'topic', e->'payload', e->>'requestId', e->>'traceParent' from jsonb_array_elements(${param}::jsonb) e where ${condition}`;

/** Select expression waking the relay when `condition` held and there were rows; `channel` is the placeholder of OUTBOX_CHANNEL. */
export const outboxNotify = (param: string, channel: string, condition = 'true'): string =>
  `case when ${condition} and jsonb_array_length(${param}::jsonb) > 0 then pg_notify(${channel}, ${param}::jsonb->0->>'topic') end`;

/**
 * Records follow-up work in the caller's drizzle transaction (the same statement shape, one round trip);
 * `requestId` as for `outboxParam` (by default the request id of the work in progress).
 */
export async function recordOutbox<T extends OutboxTopic>(tx: DbOrTx, topic: T, payload: OutboxPayload<T>, requestId?: string | null): Promise<void> {
  await recordOutboxRows(tx, [{ topic, payload }], requestId);
}

export async function recordOutboxRows(tx: DbOrTx, records: readonly OutboxRecord[], requestId?: string | null): Promise<void> {
  await tx.execute(positionalSql(`with ob as (${outboxInsert('$1')}) select ${outboxNotify('$1', '$2')}`, [outboxParam(records, requestId), OUTBOX_CHANNEL]));
}

/**
 * Housekeeping: deletes up to `batch` published rows older than `olderThanDays` (the relay never needs
 * them again) and answers how many went; the caller repeats while a full batch went.
 */
export async function deletePublishedOutbox(pool: pg.Pool, olderThanDays: number, batch: number): Promise<number> {
  if (!Number.isSafeInteger(batch)) throw new TypeError('batch: integers only');
  const { rowCount } = await pool.query(
    `delete from outbox where id in (
      select id from outbox where published_at < now() - make_interval(days => $1) limit ${batch})`,
    [olderThanDays],
  );
  return rowCount ?? 0;
}

/** VACUUM (ANALYZE) of the queue-like outbox, whose dead index entries slow every relay pass; outside any transaction. */
export async function vacuumOutbox(pool: pg.Pool): Promise<void> {
  await pool.query('vacuum (analyze) outbox');
}

// ---- The relay (workers relay/relay.ts) ----

/** An outbox row as the relay claims it. */
export interface ClaimedOutboxRow {
  id: number;
  topic: string;
  payload: unknown;
  /** The API request that wrote the row, if any. */
  request_id?: string | null;
  /** The span that wrote the row (W3C traceparent), when tracing was on. */
  trace_parent?: string | null;
}

/**
 * The relay's claim of up to `batchSize` unpublished rows of `topics` (a relay leaves rows of topics it
 * does not know to a newer one): opens a transaction on the connection and marks the rows published in
 * one message (`FOR UPDATE SKIP LOCKED`, so several relays are safe); the marks stay invisible, and the
 * rows locked, until the caller commits. A simple-protocol message, so its values are literals; the
 * statement is written once per claimer. The rows come back in no particular order.
 */
export function outboxClaimer(topics: readonly string[], batchSize: number): (client: pg.ClientBase) => Promise<ClaimedOutboxRow[]> {
  let statement: string | null = null;
  return async (client) => {
    statement ??= `begin;
      update outbox set published_at = now()
       where id in (select id from outbox
                     where published_at is null and topic in (${topics.map((t) => client.escapeLiteral(t)).join(', ') || 'null'})
                     order by id limit ${batchSize} for update skip locked)
      returning id, topic, payload, request_id, trace_parent`;
    const claimed = (await client.query(statement)) as unknown as [pg.QueryResult, pg.QueryResult<ClaimedOutboxRow>];
    return claimed[1].rows;
  };
}

/** The relay's dedicated connection that LISTENs on OUTBOX_CHANNEL (not the pool's: it stays open). */
export type OutboxListener = pg.Client;

/** A new, unconnected listener connection: the caller attaches its handlers, then `listenToOutbox`. */
export const outboxListener = (databaseUrl: string): OutboxListener => new pg.Client({ connectionString: databaseUrl, application_name: 'nurture-home-relay' });

/** Connects the listener and subscribes it to OUTBOX_CHANNEL: each row written then wakes it (`notification`). */
export async function listenToOutbox(listener: OutboxListener): Promise<void> {
  await listener.connect();
  await listener.query(`listen ${OUTBOX_CHANNEL}`);
}

/** The rows not yet relayed and the age in seconds of the oldest (0 when none waits): the relay's lag, for the metrics. */
export async function outboxBacklog(pool: pg.Pool): Promise<{ waiting: number; oldestAge: number }> {
  const { rows } = await pool.query<{ waiting: string; oldest_age: number | null }>(
    `select count(*) as waiting, extract(epoch from now() - min(created_at))::float8 as oldest_age from outbox where published_at is null`,
  );
  return { waiting: Number(rows[0]?.waiting ?? 0), oldestAge: Math.max(0, rows[0]?.oldest_age ?? 0) };
}
