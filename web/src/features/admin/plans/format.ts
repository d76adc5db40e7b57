/** Plan dates as staff read them. Billing dates and periods are UTC days, so they are shown as that day wherever the reader is. */

const DAY_FORMAT = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
const SHORT_DAY_FORMAT = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });

const asDate = (value: string) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value);

/** "Mar 5, 2026" for a yyyy-mm-dd day or an ISO time (its UTC day); an unreadable value as given. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const date = asDate(value);
  return Number.isNaN(date.getTime()) ? value : DAY_FORMAT.format(date);
}

/** "Mar 5" (the chart's axis). */
export function formatShortDay(value: string): string {
  const date = asDate(value);
  return Number.isNaN(date.getTime()) ? value : SHORT_DAY_FORMAT.format(date);
}

const MONEY = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$12,345.67" from a two-decimal string (the dashboard's larger sums read better with separators). */
export const formatMoney = (value: string): string => {
  const n = Number(value);
  return Number.isFinite(n) ? MONEY.format(n) : value;
};
