/** The emails of a change of cadence (issue 21): staff's (from its audit row) and the shopper's, in words. */
import { describe, expect, it } from 'vitest';
import { SHOP } from '@nh/shared';
import { staffChangeOf, subscriptionStaffChangeEmail } from '../src/emails/subscription-staff-change';
import { planCadence } from '../src/emails/subscription-plan';

const plan = {
  customerName: 'Sam Saver',
  items: [{ productName: 'Surfy', quantity: 1, price: '20.00' }],
  amount: 1836,
  discountPercent: 15,
  interval: 'monthly' as const,
  intervalCount: 2,
};

describe('a change of cadence, emailed', () => {
  it('reads staff\'s audit row and says the change in words, with the next delivery', () => {
    const next = '2027-03-31T14:00:00.000Z';
    const change = staffChangeOf(
      'subscription.frequency_changed',
      { intervalCount: 1, nextBillingDate: '2027-02-28T14:00:00.000Z' },
      { intervalCount: 2, nextBillingDate: next, reason: 'Too much product' },
      new Date(next),
    );
    expect(change).toEqual({ kind: 'frequency', from: 1, to: 2, nextBillingDate: new Date(next) });
    const email = subscriptionStaffChangeEmail({ ...plan, change: change! });
    expect(email.subject).toBe(`Your ${SHOP.name} deliveries now come every 2 months`);
    expect(email.text).toContain(`we have changed your ${SHOP.name} Subscribe & Save plan from every month to every 2 months.`);
    expect(email.text).toContain('Your next delivery is on March 31, 2027');
    // The reason stays in the audit trail.
    expect(email.text).not.toContain('Too much product');
  });

  it('names the amount that delivery will really be charged (the agreed price until a price-change notice takes effect)', () => {
    const next = Date.parse('2027-03-31T06:00:00.000Z');
    const change = { kind: 'frequency' as const, from: 1, to: 2, nextBillingDate: new Date(next) };
    expect(subscriptionStaffChangeEmail({ ...plan, change }).text).toContain('we will charge $18.36 to your saved card on March 31, 2027');
    const held = subscriptionStaffChangeEmail({ ...plan, change, amountOn: () => 1700 });
    expect(held.text).toContain('we will charge $17.00 to your saved card on March 31, 2027');
  });

  it('says each cadence in words', () => {
    expect([1, 2, 3].map((n) => planCadence('monthly', n))).toEqual(['every month', 'every 2 months', 'every 3 months']);
  });
});
