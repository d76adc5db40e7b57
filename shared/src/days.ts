/** How the shop writes a calendar day: "March 5, 2026", read in UTC (billing dates, articles, policies are days, not moments). */
let longDay: Intl.DateTimeFormat | undefined;

/**
 * "March 5, 2026" for a moment's UTC day; '' for an invalid date. One formatter, made at first use (not
 * when the module loads; `toLocaleDateString` with options builds one per call, which cost ~60 ms of a
 * throttled phone's hydration of the journal).
 */
export function formatUtcDay(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  longDay ??= new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' });
  return longDay.format(date);
}
