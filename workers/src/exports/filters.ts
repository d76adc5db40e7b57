/** The export's filters as stored on its row, checked before the orders are read (@nh/server queries/order-export.ts reads them). */
import type { ExportQueryFilters } from '@nh/server/queries/order-export';
import { PAYMENT_STATES, type PaymentState } from '@nh/server/queries/payment-state';

const UTC_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The filters stored on the export row (the API checked them with its contract), checked again
 * cheaply: a row written otherwise fails the export rather than exporting the wrong orders. (Not the
 * contract's zod schema: loading the contracts costs the exporting process ~30 MB, and the export
 * runs at the edge of its memory goal.)
 */
export function exportFiltersOf(stored: unknown, statuses: readonly string[]): ExportQueryFilters {
  const value = (stored ?? {}) as Record<string, unknown>;
  if (typeof value !== 'object' || Array.isArray(value)) throw new TypeError('export filters: not an object');
  const filters: ExportQueryFilters = {};
  for (const key of ['from', 'to'] as const) {
    const day = value[key];
    if (day === undefined || day === null) continue;
    if (typeof day !== 'string' || !UTC_DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
      throw new TypeError(`export filters: ${key} is not a day`);
    filters[key] = day;
  }
  // Issue 23: the orders table's other filters and search.
  for (const key of ['search', 'netsuiteStatus', 'promo'] as const) {
    const text = value[key];
    if (text === undefined || text === null) continue;
    if (typeof text !== 'string' || text.length > 200) throw new TypeError(`export filters: ${key} is not text`);
    filters[key] = text;
  }
  const state = value.paymentState;
  if (state !== undefined && state !== null) {
    if (typeof state !== 'string' || !PAYMENT_STATES.includes(state as PaymentState)) throw new TypeError('export filters: unknown payment state');
    filters.paymentState = state as PaymentState;
  }
  const status = value.status;
  if (status !== undefined && status !== null) {
    if (typeof status !== 'string' || !statuses.includes(status)) throw new TypeError('export filters: unknown status');
    filters.status = status;
  }
  return filters;
}
