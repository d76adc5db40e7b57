import { describe, expect, it } from 'vitest';
import { orderInvoiceNumber, subscriptionInvoiceNumber } from './gateway';

describe('invoice numbers', () => {
  const plan = '3f2a9c1e-7b4d-4e8a-9c0f-1a2b3c4d5e6f';

  it('names a subscription period in 20 characters: S, 12 hex digits of the plan, the period as yymmdd', () => {
    expect(subscriptionInvoiceNumber(plan, '2026-11-27')).toBe('S3F2A9C1E7B4D-261127');
    expect(subscriptionInvoiceNumber(plan, '2026-11-27')).toHaveLength(20);
    expect(orderInvoiceNumber(plan)).toHaveLength(20);
  });

  it('gives two periods of one plan in one month two numbers (a ship-now, a resumed pause)', () => {
    expect(subscriptionInvoiceNumber(plan, '2026-11-03')).not.toBe(subscriptionInvoiceNumber(plan, '2026-11-20'));
  });

  it('tells apart plans whose ids share their first 8 hex digits', () => {
    expect(subscriptionInvoiceNumber('3f2a9c1e-0000-4e8a-9c0f-1a2b3c4d5e6f', '2026-11-27')).not.toBe(subscriptionInvoiceNumber(plan, '2026-11-27'));
  });

  it('is a prefix of every period of the plan for an empty period (tests list a plan’s charges by it)', () => {
    expect(subscriptionInvoiceNumber(plan, '2026-11-27').startsWith(subscriptionInvoiceNumber(plan, ''))).toBe(true);
  });
});
