/** How the shop writes a calendar day: "March 5, 2026", read in UTC (billing dates, articles, policies are days, not moments). */
const LONG_DAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' });

/** "March 5, 2026" for a moment's UTC day; '' for an invalid date. */
export function formatUtcDay(date: Date): string {
  return Number.isNaN(date.getTime()) ? '' : LONG_DAY.format(date);
}
