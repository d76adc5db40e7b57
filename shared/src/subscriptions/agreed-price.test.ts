import { describe, expect, it } from 'vitest';
import { chargeableAmount, decidePriceNotice, firstChargeAfterNotice } from './agreed-price';

const plan = { amount: 3000, agreedAmount: 2500, agreedAmountFrom: null, priorAgreedAmount: null };
const at = (day: string) => new Date(`${day}T14:00:00.000Z`);

describe('chargeableAmount', () => {
  it('is the amount on a plan from before prices were agreed, and never more than the amount', () => {
    expect(chargeableAmount({ ...plan, agreedAmount: null }, '2026-12-01')).toBe(3000);
    expect(chargeableAmount({ ...plan, agreedAmount: 3500 }, '2026-12-01')).toBe(3000);
  });
  it('holds a rise not notified in time to the price agreed', () => {
    expect(chargeableAmount(plan, '2026-12-01')).toBe(2500);
  });
  it('charges a notified price from its first day, the prior one before', () => {
    const notified = { ...plan, agreedAmount: 3000, agreedAmountFrom: '2026-12-10', priorAgreedAmount: 2500 };
    expect(chargeableAmount(notified, '2026-12-09')).toBe(2500);
    expect(chargeableAmount(notified, '2026-12-10')).toBe(3000);
  });
});

describe('firstChargeAfterNotice', () => {
  it('is the first billing day at least 7 days on, following the plan’s own dates', () => {
    expect(firstChargeAfterNotice(at('2026-12-08'), 'monthly', 1, '2026-12-01')).toBe('2026-12-08');
    expect(firstChargeAfterNotice(at('2026-12-07'), 'monthly', 1, '2026-12-01')).toBe('2027-01-07');
    expect(firstChargeAfterNotice(at('2026-12-03'), 'monthly', 2, '2026-12-01')).toBe('2027-02-03');
  });
});

describe('decidePriceNotice', () => {
  const p = { ...plan, nextBillingDate: at('2026-12-20'), interval: 'monthly' as const, intervalCount: 1 };
  it('does nothing for an unchanged price or a plan from before', () => {
    expect(decidePriceNotice(p, 2500, '2026-12-01')).toEqual({ kind: 'none' });
    expect(decidePriceNotice({ ...p, agreedAmount: null }, 3000, '2026-12-01')).toEqual({ kind: 'none' });
  });
  it('follows a drop without a notice', () => {
    expect(decidePriceNotice(p, 2000, '2026-12-01')).toEqual({ kind: 'drop', to: 2000 });
  });
  it('notices a rise with its first charge day and the price until then', () => {
    expect(decidePriceNotice(p, 3000, '2026-12-01')).toEqual({ kind: 'notice', from: 2500, to: 3000, firstChargeOn: '2026-12-20', priorAgreedAmount: 2500 });
    expect(decidePriceNotice(p, 3000, '2026-12-15')).toMatchObject({ firstChargeOn: '2027-01-20' });
  });
  it('keeps the earlier prior price while an earlier notice is not yet in force', () => {
    const pending = { ...p, agreedAmount: 2800, agreedAmountFrom: '2026-12-20', priorAgreedAmount: 2500 };
    expect(decidePriceNotice(pending, 3000, '2026-12-15')).toEqual({ kind: 'notice', from: 2800, to: 3000, firstChargeOn: '2027-01-20', priorAgreedAmount: 2500 });
  });
});
