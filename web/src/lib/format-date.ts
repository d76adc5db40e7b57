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
