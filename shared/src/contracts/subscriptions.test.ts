import { describe, expect, it } from 'vitest';
import { billingPeriodOf, cadenceChoiceWords, cadenceWords, nextBillingDate, nextBillingDateForCadence, planCadenceMonthsSchema } from './subscriptions';

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

describe('cadence (issue 21)', () => {
  it('reads PLAN_CADENCE_MONTHS as positive whole numbers, sorted and unique', () => {
    expect(planCadenceMonthsSchema.parse('1,2,3')).toEqual([1, 2, 3]);
    expect(planCadenceMonthsSchema.parse(' 2 , 6 ')).toEqual([2, 6]);
    for (const bad of ['0', '-1', '1.5', '3,2', '1,1', 'x', '', '121']) expect(planCadenceMonthsSchema.safeParse(bad).success, bad).toBe(false);
  });

  it('says a cadence and the choice in words', () => {
    expect([1, 2, 3, 12, 24].map((n) => cadenceWords('monthly', n))).toEqual(['Every month', 'Every 2 months', 'Every 3 months', 'Every year', 'Every 2 years']);
    expect(cadenceWords('quarterly', 1)).toBe('Every 3 months');
    expect(cadenceChoiceWords([1, 2, 3])).toBe('Deliver every 1, 2 or 3 months');
    expect(cadenceChoiceWords([1])).toBe('Deliver every month');
    expect(cadenceChoiceWords([2, 4])).toBe('Deliver every 2 or 4 months');
  });

  it('moves the next date to the last delivery + the new cadence, at the plan\'s time of day, never before tomorrow', () => {
    const next = utc('2027-02-28T14:30:00.000Z');
    const today = utc('2027-02-10T09:00:00.000Z');
    // Jan 31 + 2 months = Mar 31 (not Feb 28 + 1 month).
    expect(nextBillingDateForCadence('2027-01-31', next, 'monthly', 2, today).toISOString()).toBe('2027-03-31T14:30:00.000Z');
    expect(nextBillingDateForCadence('2027-01-31', next, 'monthly', 3, today).toISOString()).toBe('2027-04-30T14:30:00.000Z');
    // Last delivered Dec 5: a month on (Jan 5) is past, so tomorrow.
    expect(nextBillingDateForCadence('2026-12-05', next, 'monthly', 1, today).toISOString()).toBe('2027-02-11T14:30:00.000Z');
    // Due today is not offered either (today's sweep may have run).
    expect(nextBillingDateForCadence('2027-01-10', next, 'monthly', 1, today).toISOString()).toBe('2027-02-11T14:30:00.000Z');
  });
});
