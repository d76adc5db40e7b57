/**
 * The NetSuite sync status of orders: what the erp-sync worker reads of an order and writes back
 * (synced, not configured, failed for good, the last retry's error), and the safety net that asks
 * again for orders pending too long.
 *
 * The two statements every sync runs (the read and "synced") and "not configured" are named `pg`
 * statements, prepared once per connection: no query building per job (the sync benchmark). Money
 * comes back as the column's own two-decimal text, the order date as the UTC day. The rarer writes use
 * drizzle's builder.
 */
import type pg from 'pg';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { failedSyncOrders, orders, type OrderRow } from '../db/schema';
import { recordOutbox } from './outbox';

/** The values of orders.netsuite_sync_status. */
export const SYNC_STATUS = { pending: 'pending', synced: 'synced', failed: 'failed', notConfigured: 'not_configured' } as const;

/** What a sync needs of an order. */
export interface SyncOrder extends Pick<OrderRow, 'id' | 'customerEmail' | 'customerName' | 'customerPhone' | 'items' | 'promoCode'> {
  /** Two-decimal strings. */
  shipping: string;
  discount: string;
  tax: string;
  total: string;
  /** yyyy-MM-dd (UTC) of created_at. */
  tranDate: string;
  syncStatus: OrderRow['netsuiteSyncStatus'];
}

const SELECT_ORDER = {
  name: 'erp-sync-order',
  text: `select id, customer_email as "customerEmail", customer_name as "customerName", customer_phone as "customerPhone", items,
           shipping::text as shipping, discount::text as discount, tax::text as tax, total::text as total, promo_code as "promoCode",
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as "tranDate", netsuite_sync_status as "syncStatus"
         from orders where id = $1`,
};

// One statement (atomic, one round trip): the order is synced and any failed-sync row goes.
const MARK_SYNCED = {
  name: 'erp-sync-synced',
  text: `with synced as (
           update orders set netsuite_sync_status = 'synced', netsuite_customer_id = $2, netsuite_order_id = $3,
             netsuite_sync_error = null, netsuite_synced_at = now(), updated_at = now()
           where id = $1)
         delete from netsuite_failed_syncs where order_id = $1`,
};

export async function loadSyncOrder(pool: pg.Pool, orderId: string): Promise<SyncOrder | undefined> {
  const { rows } = await pool.query<SyncOrder>({ ...SELECT_ORDER, values: [orderId] });
  return rows[0];
}

export async function markSynced(pool: pg.Pool, orderId: string, customerId: string, salesOrderId: string): Promise<void> {
  await pool.query({ ...MARK_SYNCED, values: [orderId, customerId, salesOrderId] });
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
 * checkout that died before its charge was recorded is for staff to reconcile, never for NetSuite.
 */
export async function requestStaleSyncs(db: Db, staleMinutes: number, limit = 1000): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string }>(sql`
      update orders set updated_at = now()
      where id in (
        select id from orders
        where netsuite_sync_status = 'pending' and payment_transaction_id is not null and status <> 'cancelled'
          and updated_at < now() - make_interval(mins => ${staleMinutes})
        order by created_at limit ${limit} for update skip locked)
      returning id`);
    for (const row of rows) await recordOutbox(tx, 'order.sync-requested', { orderId: row.id });
    return rows.length;
  });
}
