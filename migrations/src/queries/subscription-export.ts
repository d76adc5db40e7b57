/**
 * The subscriptions export's rows (issue 21; workers exports/subscriptions.ts writes the file): every plan,
 * or those of one status, oldest first, streamed from a cursor on one pooled connection as the order
 * export's (order-export.ts). Values are text as stored (the worker puts the status and cadence into
 * words); items are summarised "2 x Name; 1 x Other", the skipped periods "2026-03-01; 2026-04-01".
 * Plans belong to the one store: the export's store code does not narrow them.
 */
import type { Readable } from 'node:stream';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import type { Db } from '../db/client';
import { EXPORT_FETCH_ROWS } from './order-export';

/** One plan as the export reads it. */
export interface SubscriptionExportRow {
  id: string;
  status: string;
  interval: string;
  interval_count: number;
  /** yyyy-mm-dd (UTC) */
  next_billing_date: string;
  items: string | null;
  /** numeric(10,2) as text */
  amount: string;
  customer_name: string;
  customer_email: string;
  /** yyyy-mm-dd hh:mm:ss (UTC) */
  created_at: string;
  cancelled_at: string | null;
  skipped_periods: string | null;
  /** Consent on record (issue 22), null for plans from before it: yyyy-mm-dd hh:mm:ss (UTC), the version, cents. */
  consent_at: string | null;
  terms_version: string | null;
  agreed_amount_cents: number | null;
}

const UTC_TIME = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;

const SELECT = `select s.id::text as id, s.status::text as status, s.interval::text as interval, s.interval_count,
  to_char(s.next_billing_date at time zone 'UTC', 'YYYY-MM-DD') as next_billing_date,
  (select string_agg((e.line->>'quantity') || ' x ' || coalesce(e.line->>'productName', 'Product'), '; ') from jsonb_array_elements(s.items) as e(line)) as items,
  s.amount::text as amount, s.customer_name, s.customer_email, ${UTC_TIME('s.created_at')} as created_at, ${UTC_TIME('s.cancelled_at')} as cancelled_at,
  (select string_agg(k.billing_period, '; ' order by k.billing_period) from subscription_skipped_periods k where k.subscription_id = s.id) as skipped_periods,
  ${UTC_TIME('c.agreed_at')} as consent_at, c.terms_version, c.amount_cents as agreed_amount_cents
from subscriptions s left join subscription_consents c on c.subscription_id = s.id`;

export interface SubscriptionExportFilters {
  status?: string;
}

function exportQuery(filters: SubscriptionExportFilters): { where: string; values: string[] } {
  return filters.status ? { where: `where s.status = $1::subscription_status`, values: [filters.status] } : { where: '', values: [] };
}

/** How many plans the export writes. */
export async function countSubscriptionExport(pool: pg.Pool, filters: SubscriptionExportFilters): Promise<number> {
  const { where, values } = exportQuery(filters);
  const { rows } = await pool.query<{ count: number }>(`select count(*)::int as count from subscriptions s ${where}`, values);
  return rows[0]?.count ?? 0;
}

/** The plans (SubscriptionExportRow objects), streamed from a cursor (EXPORT_FETCH_ROWS at a time, as the orders) while `consume` reads them. */
export async function streamSubscriptionExport<T>(db: Db, filters: SubscriptionExportFilters, consume: (rows: Readable) => Promise<T>): Promise<T> {
  const { where, values } = exportQuery(filters);
  const client = await db.$client.connect();
  try {
    return await consume(client.query(new QueryStream(`${SELECT} ${where} order by s.created_at, s.id`, values, { batchSize: EXPORT_FETCH_ROWS })));
  } finally {
    client.release();
  }
}
