/** An audit row's before and after, as lines staff can read: one per field that changed. */
import { STAFF_ROLE_LABELS, STAFF_STATUS_LABELS } from '@nh/shared/contracts/staff';
import { formatStaffTime, formatUtcDay, isIsoTimestamp } from '@nh/shared/days';
import { statusLabel, SYNC_STATUS_LABELS } from '../ui/status-labels';

export interface AuditChange {
  /** The field in words ("Tracking number"); empty when the value is not an object of fields. */
  field: string;
  /** Absent when the record did not exist before (created) or no longer exists after (deleted). */
  before?: string;
  after?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** trackingNumber, tracking_number → "Tracking number". */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PRODUCT_STATUS_LABELS: Record<string, string> = { inactive: 'Inactive', out_of_stock: 'Out of Stock' };
const ORDER_STATUS = /^(pending|processing|shipped|delivered|cancelled)$/;

/** Stored values with words of their own (roles, statuses), by field. */
const VALUE_WORDS: Record<string, (value: string) => string | undefined> = {
  role: (v) => (STAFF_ROLE_LABELS as Record<string, string>)[v],
  status: (v) => (ORDER_STATUS.test(v) ? statusLabel(v as Parameters<typeof statusLabel>[0]) : ((STAFF_STATUS_LABELS as Record<string, string>)[v] ?? PRODUCT_STATUS_LABELS[v])),
  netsuiteSyncStatus: (v) => (SYNC_STATUS_LABELS as Record<string, string>)[v],
};

/** A value as text: empty → "(empty)", an ISO time in words ("Feb 3, 2027, 10:26"), yes/no for booleans, lists and objects as compact JSON; a role or status in words. */
export function formatAuditValue(value: unknown, field?: string): string {
  if (value === null || value === undefined) return '(none)';
  if (typeof value === 'string') {
    if (value === '') return '(empty)';
    // A time (a plan's next billing date, a cancellation) in words, never the raw ISO string.
    if (isIsoTimestamp(value)) return formatStaffTime(value);
    if (DAY.test(value) && formatUtcDay(new Date(`${value}T00:00:00.000Z`))) return formatUtcDay(new Date(`${value}T00:00:00.000Z`));
    return (field && VALUE_WORDS[field]?.(value)) ?? value;
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  // A list of days or times (a plan's skipped periods) in words, one after the other.
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && (isIsoTimestamp(v) || DAY.test(v)))) {
    return value.map((v) => formatAuditValue(v, field)).join(', ');
  }
  return JSON.stringify(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The changed fields of two snapshots (the audit's JSON diff or whole rows): a field in both with the
 * same value is left out; a field only before or only after shows on that side alone.
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const hasBefore = before !== null && before !== undefined;
  const hasAfter = after !== null && after !== undefined;
  if (!hasBefore && !hasAfter) return [];
  if ((hasBefore && !isRecord(before)) || (hasAfter && !isRecord(after))) {
    return same(before, after) ? [] : [{ field: '', ...(hasBefore && { before: formatAuditValue(before) }), ...(hasAfter && { after: formatAuditValue(after) }) }];
  }
  const b: Record<string, unknown> = before ?? {};
  const a: Record<string, unknown> = after ?? {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((key) => !(key in b && key in a && same(b[key], a[key])))
    .map((key) => ({
      field: fieldLabel(key),
      ...(hasBefore && key in b && { before: formatAuditValue(b[key], key) }),
      ...(hasAfter && key in a && { after: formatAuditValue(a[key], key) }),
    }));
}
