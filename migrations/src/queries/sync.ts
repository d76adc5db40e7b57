/**
 * The NetSuite sync status of orders: what the erp-sync worker reads of an order and writes back
 * (synced, not configured, failed for good, the last retry's error), the NetSuite ledger (every request
 * of every sync attempt, `netsuite_sync_attempts`) with its reads and its retention, the failed list,
 * and the safety net that asks again for orders pending too long.
 *
 * An order is `synced` when NetSuite has its sales order and every approved refund and void of its
 * charge (`payment_transactions.netsuite_record_id`): a refund or void the gateway approved makes a
 * synced order pending again, with its `order.refunded` outbox row (`requestRefundSync`, in the
 * refund's own transaction), until the sync has carried it.
 *
 * The two statements every sync runs (the read and "synced", which also writes the attempt's ledger
 * rows) and "not configured" are named `pg` statements, prepared once per connection: no query
 * building per job (the sync benchmark). Money comes back as the column's own two-decimal text, the
 * order date as the UTC day. The rarer writes use drizzle's builder.
 */
import type pg from 'pg';
import { and, asc, count, desc, eq, inArray, min, ne, sql } from 'drizzle-orm';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { Db, DbOrTx } from '../db/client';
import { failedSyncOrders, netsuiteSyncAttempts, orders, type OrderRow, type RefundLinePart } from '../db/schema';
import { recordOutbox } from './outbox';

/** The values of orders.netsuite_sync_status. */
export const SYNC_STATUS = { pending: 'pending', synced: 'synced', failed: 'failed', notConfigured: 'not_configured' } as const;

/** An approved refund or void of the order's charge, as the sync sends it. */
export interface SyncRefund {
  /** The payment row's id (the credit memo's external id is made from it). */
  id: string;
  kind: 'refund' | 'void';
  /** Two-decimal string. */
  amount: string;
  reason: string | null;
  /** yyyy-MM-dd (UTC) of the refund. */
  tranDate: string;
  /** Set once NetSuite has it (its credit memo, or the sales order a void closed). */
  netsuiteRecordId: string | null;
  /** A refund by line's parts (issue 23; null for a refund by amount or a void): its credit memo's tax part is worked out from them. */
  lines: RefundLinePart[] | null;
  /** The shipping (with any tax on it) a refund by line gave back, two-decimal string. */
  shipping: string;
}

/** What a sync needs of an order. */
export interface SyncOrder extends Pick<OrderRow, 'id' | 'customerEmail' | 'customerName' | 'customerPhone' | 'items' | 'promoCode' | 'status' | 'shippingAddress' | 'taxSource'> {
  /** Two-decimal strings. */
  shipping: string;
  discount: string;
  tax: string;
  /** The part of `tax` due on shipping (issue 25). */
  shippingTax: string;
  total: string;
  /** yyyy-MM-dd (UTC) of created_at. */
  tranDate: string;
  syncStatus: OrderRow['netsuiteSyncStatus'];
  /** The sales order's internal id once an earlier sync made it. */
  netsuiteOrderId: string | null;
  /** The approved charge's amount (two-decimal string), "0.00" without one. */
  captured: string;
  /** Store credit (issue 23): the part of the total paid with credit (two-decimal string), "0.00" without. */
  creditApplied: string;
  /** The approved refunds and voids of that charge, oldest first. */
  refunds: SyncRefund[];
  /** Staff's address corrections of the order, and how many of them the sales order in NetSuite carries (issue 23). */
  addressRevision: number;
  netsuiteAddressRevision: number;
  /** A damage claim's $0 replacement (issue 23): the id of the order it replaces; null for any other order. */
  replacementOf: string | null;
}

// The order with its captured charge and that charge's approved refunds and voids: one primary-key
// lookup and two on payment_transactions' parent index.
const SELECT_ORDER = {
  name: 'erp-sync-order',
  text: `select o.id, o.customer_email as "customerEmail", o.customer_name as "customerName", o.customer_phone as "customerPhone", o.items,
           o.shipping::text as shipping, o.discount::text as discount, o.tax::text as tax, o.shipping_tax::text as "shippingTax", o.tax_source as "taxSource", o.total::text as total, o.credit_applied::text as "creditApplied", o.promo_code as "promoCode", o.shipping_address as "shippingAddress",
           to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD') as "tranDate", o.netsuite_sync_status as "syncStatus", o.status,
           o.netsuite_order_id as "netsuiteOrderId", coalesce(c.amount, 0)::text as captured,
           o.address_revision as "addressRevision", o.netsuite_address_revision as "netsuiteAddressRevision", o.replacement_of_order_id as "replacementOf",
           coalesce((
             select json_agg(json_build_object('id', r.id, 'kind', r.kind, 'amount', r.amount::text, 'reason', r.reason,
                 'tranDate', to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD'), 'netsuiteRecordId', r.netsuite_record_id,
                 'lines', r.refund_lines, 'shipping', r.refund_shipping::text)
               order by r.created_at, r.id)
             from payment_transactions r where r.parent_id = c.id and r.kind in ('refund', 'void') and r.status = 'approved'), '[]'::json) as refunds
         from orders o
         left join lateral (
           select p.id, p.amount from payment_transactions p where p.order_id = o.id and p.kind = 'charge' and p.status = 'approved'
           order by p.created_at desc limit 1) c on true
         where o.id = $1`,
};

/**
 * One request to NetSuite as the ledger keeps it (`netsuite_sync_attempts`), the one type of the NetSuite
 * client's entries and the ledger's rows: when it started (epoch ms), the record (`customer` |
 * `salesOrder` | `creditMemo`), `ok` | `failed`, the HTTP status (null without an answer: timeout,
 * network), NetSuite's error code and detail, and its duration. The client pushes one per request to
 * the array its caller passes; the sync writes them (one insert per sync).
 */
export interface SyncAttemptEntry {
  at: number;
  record: string;
  outcome: 'ok' | 'failed';
  httpStatus: number | null;
  errorCode: string | null;
  errorDetail: string | null;
  durationMs: number;
}

// The attempt's requests arrive as one JSON array (one parameter), inserted as one multi-row insert.
const LEDGER_ROWS = `jsonb_to_recordset($LEDGER::jsonb) as l(at float8, record text, outcome text, "httpStatus" int, "errorCode" text, "errorDetail" text, "durationMs" int)`;
const LEDGER_INSERT = `insert into netsuite_sync_attempts (order_id, at, record, outcome, http_status, error_code, error_detail, duration_ms)`;
const LEDGER_VALUES = `to_timestamp(l.at / 1000.0), l.record, l.outcome, l."httpStatus", l."errorCode", l."errorDetail", l."durationMs"`;

// One statement (atomic, one round trip): the refunds and voids NetSuite now has get its record ids,
// the order is synced (or pending again when an approved refund or void it did not carry is still
// outstanding, or an address corrected after the one sent: either came while this sync ran), the
// address revision the sales order carries ($6) is kept, any failed-sync row goes, and the attempt's
// requests join the ledger (only when the order still exists: the update found it).
const MARK_SYNCED = {
  name: 'erp-sync-synced',
  text: `with credited as (
           update payment_transactions p set netsuite_record_id = c."recordId"
           from jsonb_to_recordset($5::jsonb) as c(id uuid, "recordId" text)
           where p.id = c.id and p.order_id = $1 returning p.id),
         synced as (
           update orders set netsuite_customer_id = $2, netsuite_order_id = $3, netsuite_sync_error = null, netsuite_synced_at = now(), updated_at = now(),
             netsuite_address_revision = greatest(netsuite_address_revision, $6::int),
             netsuite_sync_status = case when address_revision > $6::int or exists (
               select 1 from payment_transactions r
               where r.order_id = $1 and r.kind in ('refund', 'void') and r.status = 'approved' and r.netsuite_record_id is null
                 and r.id not in (select id from credited)) then 'pending' else 'synced' end
           where id = $1 returning id),
         ledger as (
           ${LEDGER_INSERT}
           select s.id, ${LEDGER_VALUES} from synced s cross join ${LEDGER_ROWS.replace('$LEDGER', '$4')})
         delete from netsuite_failed_syncs where order_id = $1`,
};

const RECORD_ATTEMPTS = {
  name: 'erp-sync-ledger',
  text: `${LEDGER_INSERT} select $1, ${LEDGER_VALUES} from ${LEDGER_ROWS.replace('$LEDGER', '$2')}`,
};

// One sync of an order at a time: a transaction-level advisory lock (so it works through a pooler in
// transaction mode) keyed by the order's id (a hash: two orders sharing one only take turns). The
// transaction is opened by the same message.
const TRY_LOCK_ORDER = (orderIdLiteral: string) => `begin; select pg_try_advisory_xact_lock(hashtextextended('erp-sync-order:' || ${orderIdLiteral}::text, 0)) as locked`;

/**
 * Takes the order's sync lock without waiting: the release function, or null when another sync of the
 * order holds it. Held on a connection of its own for the whole sync (the read, the NetSuite requests,
 * "synced"), so two syncs of one order (say the order.placed and the order.refunded jobs) never read
 * and write NetSuite at once: the second reads the order only after the first recorded its outcome.
 *
 * The lock is a transaction's (`pg_try_advisory_xact_lock` in a transaction left open until the
 * release), not a session's: behind PgBouncer in transaction mode a session lock could be taken on one
 * server connection and "released" on another, and stay held for ever; a transaction keeps its server
 * connection. The open transaction has no snapshot between statements (read committed, nothing written),
 * so it holds back no vacuum. A worker that dies holding it drops its connection, and the transaction
 * and the lock end with it. The release commits and gives the connection back; a connection that cannot
 * commit is closed instead.
 */
export async function tryLockOrderSync(pool: pg.Pool, orderId: string): Promise<(() => Promise<void>) | null> {
  const client = await pool.connect();
  let locked = false;
  try {
    // `begin` and the try-lock travel in one message (one round trip, not two). A simple query takes no
    // parameters, so the id goes in as an escaped literal.
    const [, lock] = (await client.query(TRY_LOCK_ORDER(client.escapeLiteral(orderId)))) as unknown as [pg.QueryResult, pg.QueryResult<{ locked: boolean }>];
    locked = lock?.rows[0]?.locked === true;
    if (!locked) await client.query('rollback');
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  if (!locked) {
    client.release();
    return null;
  }
  return async () => {
    try {
      await client.query('commit');
      client.release();
    } catch (error) {
      client.release(error as Error);
    }
  };
}

export async function loadSyncOrder(pool: pg.Pool, orderId: string): Promise<SyncOrder | undefined> {
  const { rows } = await pool.query<SyncOrder>({ ...SELECT_ORDER, values: [orderId] });
  return rows[0];
}

/** A refund or void NetSuite now has: its payment row and the record that carries it. */
export interface SyncedRefund {
  id: string;
  recordId: string;
}

/**
 * The order is synced (its failed-sync row goes; pending again if an approved refund or void is still
 * outstanding, or the address was corrected again after `addressRevision`, the one this sync read), the
 * refunds and voids carried get their record ids, and this attempt's requests join the ledger, in one
 * statement.
 */
export async function markSynced(
  pool: pg.Pool,
  orderId: string,
  customerId: string,
  salesOrderId: string,
  ledger: readonly SyncAttemptEntry[] = [],
  refunds: readonly SyncedRefund[] = [],
  addressRevision = 0,
): Promise<void> {
  await pool.query({ ...MARK_SYNCED, values: [orderId, customerId, salesOrderId, JSON.stringify(ledger), JSON.stringify(refunds), addressRevision] });
}

/**
 * Staff corrected the shipping address of an unshipped order (issue 23), in the transaction that writes
 * it: NetSuite's sales order must carry it, so an order already synced is pending again until the sync has
 * sent the sales order with it (the `order.address-corrected` outbox row, written by the caller, asks for
 * that sync and the corrected confirmation email).
 */
export async function requestAddressSync(tx: DbOrTx, orderId: string): Promise<void> {
  await tx
    .update(orders)
    .set({ netsuiteSyncStatus: SYNC_STATUS.pending, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), eq(orders.netsuiteSyncStatus, SYNC_STATUS.synced)));
}

/**
 * A refund or void the gateway approved, in the transaction that records it: NetSuite must get its
 * credit memo (or the sales order closed), so an order already synced is pending again until the sync
 * has carried it, and the `order.refunded` outbox row asks for that sync (at least once: a job lost, or a
 * worker killed halfway, is run again; the 10-minute reconcile asks again for orders pending too long).
 */
export async function requestRefundSync(tx: DbOrTx, orderId: string, paymentId: string): Promise<void> {
  await tx
    .update(orders)
    .set({ netsuiteSyncStatus: SYNC_STATUS.pending, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), eq(orders.netsuiteSyncStatus, SYNC_STATUS.synced)));
  await recordOutbox(tx, OUTBOX_TOPICS.orderRefunded, { orderId, paymentId });
}

/** An attempt that did not end synced: its requests join the ledger (one multi-row insert). */
export async function recordSyncAttempts(pool: pg.Pool, orderId: string, ledger: readonly SyncAttemptEntry[]): Promise<void> {
  if (ledger.length === 0) return;
  await pool.query({ ...RECORD_ATTEMPTS, values: [orderId, JSON.stringify(ledger)] });
}

/** A ledger row as staff see it. */
export type SyncAttemptRow = Pick<typeof netsuiteSyncAttempts.$inferSelect, 'id' | 'at' | 'record' | 'outcome' | 'httpStatus' | 'errorCode' | 'errorDetail' | 'durationMs'>;

/** The order's ledger, newest first (at most `limit` rows). */
export async function listSyncAttempts(db: Db, orderId: string, limit = 500): Promise<SyncAttemptRow[]> {
  const a = netsuiteSyncAttempts;
  return db
    .select({ id: a.id, at: a.at, record: a.record, outcome: a.outcome, httpStatus: a.httpStatus, errorCode: a.errorCode, errorDetail: a.errorDetail, durationMs: a.durationMs })
    .from(a)
    .where(eq(a.orderId, orderId))
    .orderBy(desc(a.at), desc(a.id))
    .limit(limit);
}

/** The order's NetSuite sync status in a store, or undefined when the store has no such order. */
export async function findOrderSyncState(db: Db, storeCode: string, orderId: string) {
  const [row] = await db
    .select({ netsuiteSyncStatus: orders.netsuiteSyncStatus, netsuiteSyncError: orders.netsuiteSyncError, netsuiteOrderId: orders.netsuiteOrderId, netsuiteSyncedAt: orders.netsuiteSyncedAt })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.storeCode, storeCode)));
  return row;
}

/**
 * Housekeeping: deletes up to `batch` ledger rows older than `olderThanDays` and answers how many went;
 * the caller repeats while a full batch went.
 */
export async function deleteOldSyncAttempts(pool: pg.Pool, olderThanDays: number, batch: number): Promise<number> {
  if (!Number.isSafeInteger(batch)) throw new TypeError('batch: integers only');
  const { rowCount } = await pool.query(
    `delete from netsuite_sync_attempts where id in (
      select id from netsuite_sync_attempts where at < now() - make_interval(days => $1) limit ${batch})`,
    [olderThanDays],
  );
  return rowCount ?? 0;
}

/** One order of the failed list: the order, the failed-sync row, and the ledger's last error and attempts. */
export interface FailedSyncRow {
  orderId: string;
  customerName: string;
  customerEmail: string;
  /** Cents. */
  total: number;
  orderCreatedAt: Date;
  netsuiteSyncStatus: string;
  errorMessage: string | null;
  attempts: number;
  lastAttemptAt: Date | null;
  lastErrorCode: string | null;
  lastHttpStatus: number | null;
  ledgerAttempts: number;
}

/**
 * The store's failed syncs, last attempt first (at most `limit`), each with the NetSuite error code and
 * HTTP status of its newest failed request and how many attempts the ledger holds: an attempt stops at
 * its first failed request, so an order that never synced has one failed request per attempt that
 * reached NetSuite (within the ledger's retention).
 */
export async function listFailedSyncs(db: Db, storeCode: string, limit = 1000): Promise<FailedSyncRow[]> {
  const a = netsuiteSyncAttempts;
  // int4 and text arrive as numbers and strings from pg; no mapping needed.
  const lastFailed = <T>(column: typeof a.errorCode | typeof a.httpStatus) =>
    sql<T>`(select ${column} from ${a} where ${a.orderId} = ${failedSyncOrders.orderId} and ${a.outcome} = 'failed' order by ${a.at} desc, ${a.id} desc limit 1)`;
  return db
    .select({
      orderId: failedSyncOrders.orderId,
      customerName: orders.customerName,
      customerEmail: orders.customerEmail,
      total: orders.total,
      orderCreatedAt: orders.createdAt,
      netsuiteSyncStatus: orders.netsuiteSyncStatus,
      errorMessage: failedSyncOrders.errorMessage,
      attempts: failedSyncOrders.attempts,
      lastAttemptAt: failedSyncOrders.lastAttemptAt,
      lastErrorCode: lastFailed<string | null>(a.errorCode),
      lastHttpStatus: lastFailed<number | null>(a.httpStatus),
      ledgerAttempts: sql<number>`(select count(*)::int from ${a} where ${a.orderId} = ${failedSyncOrders.orderId} and ${a.outcome} = 'failed')`,
    })
    .from(failedSyncOrders)
    .innerJoin(orders, eq(orders.id, failedSyncOrders.orderId))
    .where(eq(orders.storeCode, storeCode))
    .orderBy(desc(failedSyncOrders.lastAttemptAt), asc(failedSyncOrders.orderId))
    .limit(limit);
}

const MARK_NOT_CONFIGURED = {
  name: 'erp-sync-not-configured',
  text: `update orders set netsuite_sync_status = 'not_configured', netsuite_sync_error = null where id = $1 and netsuite_sync_status <> 'synced'`,
};

/** With NetSuite not set up, the order says so (staff see it in the sync summary). */
export async function markNotConfigured(pool: pg.Pool, orderId: string): Promise<void> {
  await pool.query({ ...MARK_NOT_CONFIGURED, values: [orderId] });
}

const notSynced = (orderId: string) => and(eq(orders.id, orderId), ne(orders.netsuiteSyncStatus, SYNC_STATUS.synced));

/** A failed attempt that will be retried: the order keeps its status and shows the error (unless it was synced meanwhile). */
export async function noteSyncError(db: Db, orderId: string, message: string): Promise<void> {
  await db.update(orders).set({ netsuiteSyncError: message }).where(notSynced(orderId));
}

/** What the failed-sync table keeps of the last attempt. */
export interface SyncFailure {
  /** What staff need to send it again (the job, its data, NetSuite's external id). */
  payload: unknown;
  message: string;
  /** Attempts made by this job, added to those of earlier ones. */
  attempts: number;
}

/**
 * The last attempt failed: the order is marked failed (unless it was synced meanwhile) and lands in the
 * failed-sync table, one row per order (a later failure adds its attempts), in one transaction.
 */
export async function recordSyncFailure(db: Db, orderId: string, failure: SyncFailure): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(orders).set({ netsuiteSyncStatus: SYNC_STATUS.failed, netsuiteSyncError: failure.message, updatedAt: new Date() }).where(notSynced(orderId));
    await tx
      .insert(failedSyncOrders)
      .values({ orderId, payload: failure.payload, errorMessage: failure.message, attempts: failure.attempts, lastAttemptAt: new Date() })
      .onConflictDoUpdate({
        target: failedSyncOrders.orderId,
        set: {
          payload: sql`excluded.payload`,
          errorMessage: sql`excluded.error_message`,
          attempts: sql`${failedSyncOrders.attempts} + excluded.attempts`,
          lastAttemptAt: sql`excluded.last_attempt_at`,
        },
      });
  });
}

/**
 * Safety net for jobs lost outside our control (Redis restarted without persistence, a job that
 * stalled too often): orders still pending after `staleMinutes` get a fresh `order.sync-requested`
 * outbox row. Their updated_at is touched, so each is re-requested at most once per period; a
 * duplicate sync is harmless (upserts by external id, synced orders are skipped). Only orders whose
 * payment the gateway accepted (they have its transaction id) qualify: an order left `pending` by a
 * checkout that died before its charge was recorded is for staff to reconcile, never for NetSuite. A
 * cancelled order qualifies only when NetSuite has its sales order already (a refund or void of it is
 * outstanding).
 */
export async function requestStaleSyncs(db: Db, staleMinutes: number, limit = 1000): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string }>(sql`
      update orders set updated_at = now()
      where id in (
        select id from orders
        where netsuite_sync_status = 'pending' and payment_transaction_id is not null and (status <> 'cancelled' or netsuite_order_id is not null)
          and updated_at < now() - make_interval(mins => ${staleMinutes})
        order by created_at limit ${limit} for update skip locked)
      returning id`);
    for (const row of rows) await recordOutbox(tx, 'order.sync-requested', { orderId: row.id });
    return rows.length;
  });
}

// ---------------------------------------------------------------- the back office's sync page
export interface SyncCounts {
  /** Orders of the store by netsuite_sync_status (statuses without orders are absent). */
  byStatus: Array<{ status: string; n: number }>;
  /** When the oldest pending order of the store was placed. */
  oldestPendingAt: Date | string | null;
  /** The store's rows in the failed list. */
  failedSyncRows: number;
}

export async function syncCounts(db: Db, storeCode: string): Promise<SyncCounts> {
  const [byStatus, [oldest], [failedRows]] = await Promise.all([
    db.select({ status: orders.netsuiteSyncStatus, n: count() }).from(orders).where(eq(orders.storeCode, storeCode)).groupBy(orders.netsuiteSyncStatus),
    db
      .select({ at: min(orders.createdAt) })
      .from(orders)
      .where(and(eq(orders.storeCode, storeCode), eq(orders.netsuiteSyncStatus, 'pending'))),
    db
      .select({ n: count() })
      .from(failedSyncOrders)
      .innerJoin(orders, eq(orders.id, failedSyncOrders.orderId))
      .where(eq(orders.storeCode, storeCode)),
  ]);
  return { byStatus, oldestPendingAt: oldest?.at ?? null, failedSyncRows: failedRows?.n ?? 0 };
}

/** The order's sync status, its row locked for a retry; null when the store has no such order. */
export async function lockOrderSyncStatus(tx: DbOrTx, storeCode: string, orderId: string): Promise<OrderRow['netsuiteSyncStatus'] | null> {
  const [row] = await tx
    .select({ status: orders.netsuiteSyncStatus })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.storeCode, storeCode)))
    .for('update');
  return row?.status ?? null;
}

/** Back to pending, its last error cleared (a retry; the caller records its outbox row). */
export async function resetOrderSync(tx: DbOrTx, orderId: string): Promise<void> {
  await tx.update(orders).set({ netsuiteSyncStatus: 'pending', netsuiteSyncError: null, updatedAt: new Date() }).where(eq(orders.id, orderId));
}

/** The store's failed orders (all, or those of `orderIds`) back to pending; their ids. */
export async function resetFailedSyncs(tx: DbOrTx, storeCode: string, orderIds?: readonly string[]): Promise<string[]> {
  const rows = await tx
    .update(orders)
    .set({ netsuiteSyncStatus: 'pending', netsuiteSyncError: null, updatedAt: sql`now()` })
    .where(and(eq(orders.storeCode, storeCode), eq(orders.netsuiteSyncStatus, 'failed'), orderIds ? inArray(orders.id, [...orderIds]) : undefined))
    .returning({ id: orders.id });
  return rows.map((r) => r.id);
}
