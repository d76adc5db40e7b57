/**
 * Dates as a shopper reads them: "June 5, 2025", in the browser's own time zone (a delivery date
 * stored as a timestamp reads as the shopper's calendar day). An unparsable value gives ''.
 */
const longDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

export function formatLongDate(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? '' : longDate.format(date);
}

/**
 * The same "June 5, 2025" for the day in UTC: what the server renders and every browser shows alike
 * (articles, the policies' dates). One formatter made once: `toLocaleDateString` with options builds a
 * new one per call, which cost ~60 ms of a throttled phone's hydration on the journal.
 */
const utcLongDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

export function formatUtcLongDate(date: Date): string {
  return Number.isNaN(date.getTime()) ? '' : utcLongDate.format(date);
}
