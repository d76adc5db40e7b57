/**
 * Dates as a shopper reads them: "June 5, 2025", in the browser's own time zone (a delivery date
 * stored as a timestamp reads as the shopper's calendar day). An unparsable value gives ''.
 */
let longDate: Intl.DateTimeFormat | undefined;

export function formatLongDate(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  longDate ??= new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
  return Number.isNaN(date.getTime()) ? '' : longDate.format(date);
}

/**
 * The same "June 5, 2025" for the day in UTC: what the server renders and every browser shows alike
 * (articles, the policies' dates). One formatter, made at its first use (not when the module loads, on
 * pages that show no date): `toLocaleDateString` with options builds a new one per call, which cost
 * ~60 ms of a throttled phone's hydration on the journal.
 */
let utcLongDate: Intl.DateTimeFormat | undefined;

export function formatUtcLongDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  utcLongDate ??= new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return utcLongDate.format(date);
}
