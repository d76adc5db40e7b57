import { nextBillingDate } from '@nh/shared/contracts/subscriptions';
import { describe, expect, it } from 'vitest';
import { formatLongDate } from '@/lib/format-date';
import { nextDeliveryFromAnswer } from './subscription-answer';

const now = new Date(Date.UTC(2025, 0, 31, 12)); // noon UTC, January 31st
const ids = { subscriptionId: '11111111-1111-4111-8111-111111111111', orderId: '22222222-2222-4222-8222-222222222222' };

describe('next delivery after subscribing', () => {
  it("uses the server's nextBillingDate", () => {
    const date = nextDeliveryFromAnswer({ ...ids, nextBillingDate: '2025-03-03T12:00:00.000Z' }, now);
    expect(date.toISOString()).toBe('2025-03-03T12:00:00.000Z');
    // Shown on the shopper's own calendar.
    expect(formatLongDate(new Date(2025, 2, 3, 12))).toBe('March 3, 2025');
  });

  it('falls back to one month from today when the answer has no usable date', () => {
    const fallback = nextBillingDate(now).toISOString();
    expect(nextDeliveryFromAnswer({}, now).toISOString()).toBe(fallback);
    expect(nextDeliveryFromAnswer(null, now).toISOString()).toBe(fallback);
    expect(nextDeliveryFromAnswer({ ...ids, nextBillingDate: 'soon' }, now).toISOString()).toBe(fallback);
    // date-fns keeps the month end: January 31st → February 28th.
    const date = nextDeliveryFromAnswer({}, now);
    expect([date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()]).toEqual([2025, 1, 28]);
  });

  it('formats an unparsable date as an empty string', () => {
    expect(formatLongDate('not a date')).toBe('');
  });
});
