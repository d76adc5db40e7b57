import { describe, expect, it } from 'vitest';
import { addBusinessDays, expectedDelivery } from './expected-delivery';

describe('expected delivery', () => {
  it('skips weekends', () => {
    // Friday 2026-11-27 + 1 business day = Monday 2026-11-30.
    expect(addBusinessDays(new Date('2026-11-27T15:00:00Z'), 1).toISOString().slice(0, 10)).toBe('2026-11-30');
  });
  it('is 6 to 9 business days after the order (1-2 to ship, 5-7 on the way)', () => {
    const { earliest, latest } = expectedDelivery(new Date('2026-11-23T10:00:00Z')); // a Monday
    expect(earliest.toISOString().slice(0, 10)).toBe('2026-12-01');
    expect(latest.toISOString().slice(0, 10)).toBe('2026-12-04');
  });
});
