/**
 * When an order should arrive, as the shop promises it (SHIPPING_TIMES): it ships within 1-2 business
 * days and standard shipping takes 5-7 business days, so it arrives 6 to 9 business days after it is
 * placed (weekends skipped; holidays are not known here, so the range is a promise, not a tracking date).
 */
const FIRST = 1 + 5;
const LAST = 2 + 7;

export function addBusinessDays(from: Date, days: number): Date {
  const d = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) left -= 1;
  }
  return d;
}

export function expectedDelivery(placedAt: Date): { earliest: Date; latest: Date } {
  return { earliest: addBusinessDays(placedAt, FIRST), latest: addBusinessDays(placedAt, LAST) };
}
