/**
 * The order export's columns and the one query that produces them. Values are computed in SQL as
 * text (money stays exact numeric(10,2) text, items are summarised as "2 x Name; 1 x Other"), so the
 * worker only neutralises and quotes cells.
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

export const EXPORT_SQL = `select ${EXPORT_COLUMNS.map((c) => c.sql).join(',\n  ')}
from orders o where o.store_code = $1 order by o.created_at, o.id`;

/**
 * A cell a spreadsheet would run as a formula (leading =, +, -, @, tab or carriage return) gets a
 * leading apostrophe, so it shows as text (OWASP "CSV injection"). A first-character test, not a
 * regular expression: it runs for every cell of a million-row export.
 */
export function neutraliseCell(value: string | null): string {
  if (value === null) return '';
  const c = value.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13 ? `'${value}` : value;
}

/** Neutralises a row in place (the row arrays come fresh from the database driver). */
export function neutraliseRow(row: Array<string | null>): Array<string | null> {
  for (let i = 0; i < row.length; i++) row[i] = neutraliseCell(row[i]!);
  return row;
}
