import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_TERMS_VERSION, subscriptionTermsParagraphs, subscriptionTermsText } from './subscription-terms';

describe('subscription terms', () => {
  // The template is pinned to its version: changing a word means a new SUBSCRIPTION_TERMS_VERSION (and this text).
  it('are the words of their version, with the figures put in', () => {
    expect(SUBSCRIPTION_TERMS_VERSION).toBe('sns-terms-2026-11-28');
    expect(subscriptionTermsText({ renewalAmount: 4590, interval: 'monthly', intervalCount: 2 })).toBe(
      [
        'Subscribe & Save 15%',
        'Get this order delivered every 2 months with 15% off and free shipping. Cancel anytime.',
        "By starting this subscription you agree to automatic renewal: after today's order, your card is charged $45.90 per delivery (sales tax for your shipping address at today's rate included, free shipping) every 2 months until you cancel.",
        'We email you before each delivery, and at least 7 days before any price increase. Cancel online at any time on My Subscriptions, with no call needed; a delivery already charged still ships.',
      ].join('\n'),
    );
  });

  it('name the cadence chosen', () => {
    expect(subscriptionTermsParagraphs({ renewalAmount: 100, interval: 'monthly', intervalCount: 1 })[1]).toBe(
      'Get this order delivered every month with 15% off and free shipping. Cancel anytime.',
    );
  });
});
