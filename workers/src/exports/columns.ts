/**
 * The order export's columns and the one query that produces them. Values are computed in SQL as
 * text (money stays exact numeric(10,2) text, items are summarised as "2 x Name; 1 x Other"), so the
 * worker only writes them through the shop's one CSV writer (@nh/server/csv: quoted, formulas neutralised).
 */
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
}

const DAY_MS = 86_400_000;
const UTC_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The filters stored on the export row (the API checked them with its contract), checked again
 * cheaply: a row written otherwise fails the export rather than exporting the wrong orders. (Not the
 * contract's zod schema: loading the contracts costs the exporting process ~30 MB, and the export
 * runs at the edge of its memory goal.)
 */
export function exportFiltersOf(stored: unknown, statuses: readonly string[]): ExportQueryFilters {
  const value = (stored ?? {}) as Record<string, unknown>;
  if (typeof value !== 'object' || Array.isArray(value)) throw new TypeError('export filters: not an object');
  const filters: ExportQueryFilters = {};
  for (const key of ['from', 'to'] as const) {
    const day = value[key];
    if (day === undefined || day === null) continue;
    if (typeof day !== 'string' || !UTC_DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
      throw new TypeError(`export filters: ${key} is not a day`);
    filters[key] = day;
  }
  const status = value.status;
  if (status !== undefined && status !== null) {
    if (typeof status !== 'string' || !statuses.includes(status)) throw new TypeError('export filters: unknown status');
    filters.status = status;
  }
  return filters;
}

/**
 * The export's query and its count for a store and filters: only the conditions given are written (a
 * date range reads the (store_code, created_at) index), each value a parameter.
 */
export function exportQuery(storeCode: string, filters: ExportQueryFilters): { text: string; countText: string; values: string[] } {
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
  const condition = where.join(' and ');
  return {
    text: `${SELECT_COLUMNS} where ${condition} order by o.created_at, o.id`,
    countText: `select count(*)::int as count from orders o where ${condition}`,
    values,
  };
}
