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

let staffTime: Intl.DateTimeFormat | undefined;

/** A moment as staff read it, "Feb 3, 2027, 10:26" (the reader's time zone, 24-hour clock); the input as given when it is not a date. */
export function formatStaffTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  staffTime ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return staffTime.format(date);
}

/** An ISO timestamp as the API writes them ("2027-02-03T10:26:00.000Z"): shown in words, never raw. */
export const isIsoTimestamp = (value: string): boolean => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value);
