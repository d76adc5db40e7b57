/**
 * A whole number with en-US digit groups: 12847 → "12,847" (what `toLocaleString('en-US')` writes),
 * without Intl: a page's first Intl number format loads the locale's data, which cost ~45 ms of a
 * throttled phone's hydration on the home page (its review count).
 */
export function formatCount(value: number): string {
  const n = Math.trunc(value);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
