import { describe, expect, it } from 'vitest';
import { renewalReminderEmail } from './renewal-reminder';
import { mySubscriptionsUrl } from './mail/layout';

const plan = {
  customerName: 'Ada Lovelace',
  items: [{ productName: 'Surfy Surface Cleaner', quantity: 2, price: '20.00' }],
  amount: 3672,
  discountPercent: 15,
  interval: 'monthly' as const,
  intervalCount: 1,
  nextBillingDate: new Date('2027-02-03T14:00:00.000Z'),
  card: 'Visa ending in 1111',
};

describe('the renewal reminder', () => {
  it('carries the cadence suggestion in the page\'s words, with a plain link to My Subscriptions (no token)', () => {
    const email = renewalReminderEmail({ ...plan, suggestion: { direction: 'longer', intervalCount: 2, reason: 'skipped-twice' } });
    const sentence = 'You skipped your last two deliveries. Would a delivery every 2 months suit you better?';
    expect(email.text).toContain(`${sentence} You can change it in one tap on My Subscriptions: ${mySubscriptionsUrl()}`);
    expect(email.html).toContain('data-cadence-suggestion');
    expect(email.html).toContain(sentence);
    expect(email.html).toContain(`href="${mySubscriptionsUrl()}"`);
    // Every link is a plain page address: no query string, no token.
    for (const url of email.text.match(/https?:\/\/\S+/g) ?? []) expect(url).not.toMatch(/[?#]|token/i);
    expect(email.text).not.toMatch(/token/i);
  });

  it('says nothing of a cadence without a suggestion', () => {
    const email = renewalReminderEmail({ ...plan, suggestion: null });
    expect(email.text).not.toContain('suit you better');
    expect(email.html).not.toContain('data-cadence-suggestion');
  });
});
