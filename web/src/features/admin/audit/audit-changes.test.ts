import { describe, expect, it } from 'vitest';
import { auditChanges, fieldLabel, formatAuditValue } from './audit-changes';
import { formatStaffTime } from '@nh/shared/days';

describe('audit changes', () => {
  it('lists only the fields that changed, in words', () => {
    expect(
      auditChanges({ status: 'pending', carrier: null, trackingNumber: '', storeCode: 'NH' }, { status: 'shipped', carrier: 'UPS', trackingNumber: '1Z9', storeCode: 'NH' }),
    ).toEqual([
      { field: 'Status', before: 'Pending', after: 'Shipped' },
      { field: 'Carrier', before: '(none)', after: 'UPS' },
      { field: 'Tracking number', before: '(empty)', after: '1Z9' },
    ]);
  });

  it('shows a created record with its values after only, a deleted one before only', () => {
    expect(auditChanges(null, { code: 'SAVE5', isActive: true })).toEqual([
      { field: 'Code', after: 'SAVE5' },
      { field: 'Is active', after: 'Yes' },
    ]);
    expect(auditChanges({ price: '20.00' }, null)).toEqual([{ field: 'Price', before: '20.00' }]);
  });

  it('shows a field present on one side only on that side', () => {
    expect(auditChanges({ role: 'support' }, { role: 'manager', disabled_at: '2025-01-01' })).toEqual([
      { field: 'Role', before: 'Support', after: 'Manager' },
      { field: 'Disabled at', after: 'January 1, 2025' },
    ]);
  });

  it('treats a value that is not an object of fields as one line', () => {
    expect(auditChanges('a', 'b')).toEqual([{ field: '', before: 'a', after: 'b' }]);
    expect(auditChanges([1], [1])).toEqual([]);
    expect(auditChanges(null, null)).toEqual([]);
  });

  it('writes values and field names for reading', () => {
    expect(formatAuditValue(false)).toBe('No');
    expect(formatAuditValue(12)).toBe('12');
    expect(formatAuditValue(['a', 'b'])).toBe('["a","b"]');
    expect(formatAuditValue({ city: 'Austin' })).toBe('{"city":"Austin"}');
    expect(fieldLabel('netsuite_sync_status')).toBe('Netsuite sync status');
    expect(fieldLabel('compareAtPrice')).toBe('Compare at price');
    expect(formatAuditValue('not_configured', 'netsuiteSyncStatus')).toBe('Not configured');
    expect(formatAuditValue('out_of_stock', 'status')).toBe('Out of Stock');
    expect(formatAuditValue('disabled', 'status')).toBe('Disabled');
    expect(formatAuditValue('something_new', 'status')).toBe('something_new');
  });
});

describe('times in audit values', () => {
  it('writes an ISO time or day in words, never raw; text stays as it is', () => {
    const [change] = auditChanges({ nextBillingDate: '2027-02-03T10:26:00.000Z' }, { nextBillingDate: '2027-03-03T10:26:00.000Z' });
    expect(change!.before).toBe(formatStaffTime('2027-02-03T10:26:00.000Z'));
    expect(change!.before).toMatch(/^Feb 3, 2027, \d{2}:\d{2}$/);
    expect(change!.after).not.toContain('T10:26');
    expect(formatAuditValue('2027-02-03')).toBe('February 3, 2027');
    expect(formatAuditValue(['2027-02-03', '2027-03-03'])).toBe('February 3, 2027, March 3, 2027');
    expect(formatAuditValue('Customer asked')).toBe('Customer asked');
  });
});
