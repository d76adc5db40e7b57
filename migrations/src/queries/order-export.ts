/**
 * The order export's columns and the one query that produces them (workers exports/processor.ts writes
 * the file). Values are computed in SQL as text (money stays exact numeric(10,2) text, items are
 * summarised as "2 x Name; 1 x Other"), so the worker only writes them through the shop's one CSV writer
 * (@nh/server/csv: quoted, formulas neutralised). The rows stream from a cursor (pg-query-stream) on one
 * pooled connection; the export's status rows are exports.ts's.
 */
import type { Readable } from 'node:stream';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import type { Db } from '../db/client';
import { paymentStateFilterSql, paymentStateWordsSql, refundedDollarsSql, type PaymentState } from './payment-state';
import { escapeLike } from './search';

export const EXPORT_COLUMNS = [
  { header: 'Order ID', sql: `o.id::text` },
  { header: 'Date (UTC)', sql: `to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')` },
  { header: 'Customer Name', sql: `o.customer_name` },
  { header: 'Email', sql: `o.customer_email` },
  { header: 'Phone', sql: `o.customer_phone` },
  { header: 'Status', sql: `o.status::text` },
  {
    header: 'Items',
    // jsonb_array_elements yields the lines in array order; no per-row sort (it cost a third of the query).
    sql: `(select string_agg((e.line->>'quantity') || ' x ' || coalesce(e.line->>'productName', 'Product'), '; ')
             from jsonb_array_elements(o.items) as e(line))`,
  },
  { header: 'Subtotal', sql: `o.subtotal::text` },
  { header: 'Discount', sql: `o.discount::text` },
  { header: 'Shipping', sql: `o.shipping::text` },
  { header: 'Tax', sql: `o.tax::text` },
  { header: 'Total', sql: `o.total::text` },
  { header: 'Promo Code', sql: `o.promo_code` },
  { header: 'Carrier', sql: `o.carrier` },
  { header: 'Tracking Number', sql: `o.tracking_number` },
  { header: 'NetSuite Sync Status', sql: `o.netsuite_sync_status` },
  // Issue 23: what happened to the money, in staff's words, and what was given back (card and store credit).
  {
    header: 'Payment',
    sql: paymentStateWordsSql('o'),
  },
  { header: 'Refunded', sql: `(${refundedDollarsSql('o')})::numeric(12, 2)::text` },
] as const;

const SELECT_COLUMNS = `select ${EXPORT_COLUMNS.map((c) => c.sql).join(',\n  ')}\nfrom orders o`;

/** Every order of the store (no filters): the benchmark's COPY runs the same query. */
export const EXPORT_SQL = `${SELECT_COLUMNS} where o.store_code = $1 order by o.created_at, o.id`;

/** What an export is narrowed to: the store, UTC days from/to (both included), an order status. */
export interface ExportQueryFilters {
  /** yyyy-mm-dd */
  from?: string;
  /** yyyy-mm-dd */
  to?: string;
  status?: string;
  /** Issue 23: the orders table's search (part of the name or email, or an order id prefix) and its other filters. */
  search?: string;
  netsuiteStatus?: string;
  promo?: string;
  paymentState?: PaymentState;
}

const DAY_MS = 86_400_000;

/**
 * The export's query and its count for a store and filters: only the conditions given are written (a
 * date range reads the (store_code, created_at) index), each value a parameter.
 */
function exportQuery(storeCode: string, filters: ExportQueryFilters): { text: string; countText: string; values: string[] } {
  const values: string[] = [storeCode];
  const where = ['o.store_code = $1'];
  if (filters.from) {
    values.push(new Date(`${filters.from}T00:00:00Z`).toISOString());
    where.push(`o.created_at >= $${values.length}::timestamptz`);
  }
  if (filters.to) {
    values.push(new Date(Date.parse(`${filters.to}T00:00:00Z`) + DAY_MS).toISOString());
    where.push(`o.created_at < $${values.length}::timestamptz`);
  }
  if (filters.status) {
    values.push(filters.status);
    where.push(`o.status = $${values.length}::order_status`);
  }
  if (filters.netsuiteStatus) {
    values.push(filters.netsuiteStatus);
    where.push(`o.netsuite_sync_status = $${values.length}`);
  }
  if (filters.promo) {
    values.push(filters.promo);
    where.push(`o.promo_code = $${values.length}`);
  }
  const search = filters.search?.trim();
  if (search) {
    values.push(`%${escapeLike(search)}%`);
    const nameOrEmail = `(o.customer_name || ' ' || o.customer_email) ilike $${values.length}`;
    const range = idPrefixRange(search);
    if (range) {
      values.push(range[0], range[1]);
      where.push(`(${nameOrEmail} or o.id between $${values.length - 1}::uuid and $${values.length}::uuid)`);
    } else where.push(nameOrEmail);
  }
  if (filters.paymentState) where.push(paymentStateFilterSql('o', filters.paymentState));
  const condition = where.join(' and ');
  return {
    text: `${SELECT_COLUMNS} where ${condition} order by o.created_at, o.id`,
    countText: `select count(*)::int as count from orders o where ${condition}`,
    values,
  };
}

/** An order id prefix as the range of ids it covers (as the orders table searches it), or null when the search is no id prefix. */
function idPrefixRange(search: string): [string, string] | null {
  if (!/^[0-9a-f-]{1,36}$/i.test(search)) return null;
  const hex = search.toLowerCase().replace(/-/g, '');
  if (hex.length === 0 || hex.length > 32) return null;
  const asUuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return [asUuid(hex.padEnd(32, '0')), asUuid(hex.padEnd(32, 'f'))];
}

/** How many orders the export of `storeCode` (narrowed by `filters`) writes. */
export async function countOrderExport(pool: pg.Pool, storeCode: string, filters: ExportQueryFilters): Promise<number> {
  const { countText, values } = exportQuery(storeCode, filters);
  const [{ count } = { count: 0 }] = (await pool.query<{ count: number }>(countText, values)).rows;
  return count;
}

/**
 * Rows fetched from the cursor at a time (also the stream's buffer, in rows). Small on purpose
 * (issue 26): a fetch's rows all arrive at once and wait in the stream's buffer, so a batch of 5,000
 * (~8 MB of row arrays) lived through several young-generation collections, was promoted, and left the
 * old generation to grow by ~100 MB of garbage before V8 collected it; 500 rows die young, and the
 * export's memory stays flat (~+5 MB) whatever its size, for the same time (the extra FETCH round
 * trips are cheap next to the query). docs/decisions/workers.md, "Performance budget (issue 26)".
 */
export const EXPORT_FETCH_ROWS = 500;

/**
 * The export's rows (arrays of text in EXPORT_COLUMNS' order), streamed from a cursor on one pooled
 * connection while `consume` reads them; the connection goes back to the pool once `consume` settles.
 */
export async function streamOrderExport<T>(db: Db, storeCode: string, filters: ExportQueryFilters, consume: (rows: Readable) => Promise<T>): Promise<T> {
  const { text, values } = exportQuery(storeCode, filters);
  const client = await db.$client.connect();
  try {
    return await consume(client.query(new QueryStream(text, values, { batchSize: EXPORT_FETCH_ROWS, rowMode: 'array' })));
  } finally {
    client.release();
  }
}

/** Rows per second of the running export, else of the last one finished (0 when none ran): for the metrics. */
export async function exportRowsPerSecond(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ rate: number | null }>(
    `select case when status = 'running' then rows_done / greatest(extract(epoch from now() - started_at), 0.001)
                 else rows_total / greatest(extract(epoch from finished_at - started_at), 0.001) end::float8 as rate
     from exports where started_at is not null and status in ('running', 'completed')
     order by (status = 'running') desc, coalesce(finished_at, now()) desc limit 1`,
  );
  return rows[0]?.rate ?? 0;
}
