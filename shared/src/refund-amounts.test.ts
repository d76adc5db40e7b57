import { describe, expect, it } from 'vitest';
import { priceCart } from './pricing';
import { paidPerLine, partOfLine, spreadCents } from './refund-amounts';

describe('what a refund by line gives back', () => {
  it('spreads the discount and the tax as the order was priced: the lines together paid total less shipping, to the cent', () => {
    const lines = [
      { price: 1299, quantity: 2 },
      { price: 850, quantity: 1 },
      { price: 333, quantity: 3 },
    ];
    const pricing = priceCart(lines, { promo: { discountType: 'percentage', discountValue: 10 }, subscribe: true });
    const paid = paidPerLine({ lines, discount: pricing.discount, tax: pricing.tax });
    expect(paid.reduce((s, p) => s + p, 0)).toBe(pricing.total - pricing.shipping);
    // A line paid less than its price before tax when there is a discount.
    expect(paid[0]!).toBeLessThan(1299 * 2 * 1.08);
  });

  it('a line refunded one item at a time gives back exactly the line', () => {
    const paid = 2_003;
    const parts = [0, 1, 2].map((already) => partOfLine(paid, 3, already, 1));
    expect(parts.reduce((s, p) => s + p, 0)).toBe(paid);
    expect(partOfLine(paid, 3, 0, 3)).toBe(paid);
  });

  it('spreads exactly, the remainder to the largest fractions', () => {
    expect(spreadCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(spreadCents(0, [5, 5])).toEqual([0, 0]);
    expect(spreadCents(10, [0, 0])).toEqual([0, 0]);
  });
});
