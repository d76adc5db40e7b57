/**
 * The two statements every sync runs, as named (prepared once per connection) `pg` queries: no query
 * building per job. Money comes back as the column's own two-decimal text, the order date as the UTC day.
 */
import type { Db, LineItem } from '@nh/server';

type Pool = Db['$client'];

/** What a sync needs of an order. */
export interface SyncOrder {
  id: string;
  customerEmail: string;
  customerName: string;
  customerPhone: string | null;
  items: LineItem[];
  /** Two-decimal strings. */
  shipping: string;
  discount: string;
  tax: string;
  total: string;
  promoCode: string | null;
  /** yyyy-MM-dd (UTC) of created_at. */
  tranDate: string;
  syncStatus: string;
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

export async function loadSyncOrder(pool: Pool, orderId: string): Promise<SyncOrder | undefined> {
  const { rows } = await pool.query<SyncOrder>({ ...SELECT_ORDER, values: [orderId] });
  return rows[0];
}

export async function markSynced(pool: Pool, orderId: string, customerId: string, salesOrderId: string): Promise<void> {
  await pool.query({ ...MARK_SYNCED, values: [orderId, customerId, salesOrderId] });
}

const MARK_NOT_CONFIGURED = {
  name: 'erp-sync-not-configured',
  text: `update orders set netsuite_sync_status = 'not_configured', netsuite_sync_error = null where id = $1 and netsuite_sync_status <> 'synced'`,
};

/** With NetSuite not set up, the order says so (staff see it in the sync summary). */
export async function markNotConfigured(pool: Pool, orderId: string): Promise<void> {
  await pool.query({ ...MARK_NOT_CONFIGURED, values: [orderId] });
}
