import { describe, expect, it } from 'vitest';
import { billingPeriodOf, nextBillingDate } from './subscriptions';

const utc = (iso: string) => new Date(iso);

describe('nextBillingDate', () => {
  it('moves one month on, keeping the day and the time (UTC)', () => {
    expect(nextBillingDate(utc('2026-11-21T14:05:00.000Z')).toISOString()).toBe('2026-12-21T14:05:00.000Z');
    expect(nextBillingDate(utc('2026-12-15T23:30:00.000Z')).toISOString()).toBe('2027-01-15T23:30:00.000Z');
  });

  it("clamps to the month's last day", () => {
    expect(nextBillingDate(utc('2027-01-31T08:00:00.000Z')).toISOString()).toBe('2027-02-28T08:00:00.000Z');
    expect(nextBillingDate(utc('2028-01-31T08:00:00.000Z')).toISOString()).toBe('2028-02-29T08:00:00.000Z');
    expect(nextBillingDate(utc('2027-03-31T00:00:00.000Z')).toISOString()).toBe('2027-04-30T00:00:00.000Z');
  });

  it('honours the interval and its count', () => {
    expect(nextBillingDate(utc('2026-11-30T00:00:00.000Z'), 'quarterly').toISOString()).toBe('2027-02-28T00:00:00.000Z');
    expect(nextBillingDate(utc('2026-05-10T00:00:00.000Z'), 'biannual').toISOString()).toBe('2026-11-10T00:00:00.000Z');
    expect(nextBillingDate(utc('2026-05-10T00:00:00.000Z'), 'monthly', 2).toISOString()).toBe('2026-07-10T00:00:00.000Z');
    expect(nextBillingDate(utc('2028-02-29T12:00:00.000Z'), 'annual').toISOString()).toBe('2029-02-28T12:00:00.000Z');
  });

  it('does not change its argument', () => {
    const from = utc('2026-11-21T00:00:00.000Z');
    nextBillingDate(from);
    expect(from.toISOString()).toBe('2026-11-21T00:00:00.000Z');
  });
});

describe('billingPeriodOf', () => {
  it('is the UTC calendar day', () => {
    expect(billingPeriodOf(utc('2026-11-21T23:59:59.999Z'))).toBe('2026-11-21');
    expect(billingPeriodOf(utc('2026-11-22T00:00:00.000Z'))).toBe('2026-11-22');
  });
});
