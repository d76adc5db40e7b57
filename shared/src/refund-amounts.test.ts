import { describe, expect, it } from 'vitest';
import { priceCart } from './pricing';
import { paidLinesOf, paidPerLine, partOfLine, refundTaxPart, spreadCents, taxPerLine } from './refund-amounts';

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

describe('tax per line (issue 25)', () => {
  const order = { lines: paidLinesOf([{ price: '10.00', quantity: 3, tax: '2.10' }, { price: '5.50', quantity: 1, tax: '0.00' }]), discount: 0, tax: 210, shippingTax: 0 };

  it("uses each line's own tax when every line has one, else spreads the order's tax as priced", () => {
    expect(taxPerLine(order)).toEqual([210, 0]);
    expect(paidPerLine(order)).toEqual([3210, 550]);
    // One line without its tax (an order from before): the order's tax spread over what the lines cost.
    const old = { ...order, lines: [order.lines[0]!, { price: 550, quantity: 1 }] };
    expect(taxPerLine(old)).toEqual(spreadCents(210, [3000, 550]));
    // Tax on shipping is not the lines'.
    expect(taxPerLine({ ...old, tax: 250, shippingTax: 40 })).toEqual(spreadCents(210, [3000, 550]));
  });

  it("a refund's tax part: each line's own tax in proportion, the shipping's tax with the shipping, by amount the order's share", () => {
    const full = { ...order, total: 3550 + 999 + 210, shipping: 999 };
    expect(refundTaxPart(full, { amount: 2140, lines: [{ line: 0, amount: 2140 }], shipping: 0 })).toBe(140);
    expect(refundTaxPart(full, { amount: 550, lines: [{ line: 1, amount: 550 }], shipping: 0 })).toBe(0);
    expect(refundTaxPart({ ...full, tax: 250, shippingTax: 40, total: 4799 }, { amount: 1039, lines: [], shipping: 1039 })).toBe(40);
    // By amount: 10.00 of a 47.59 order with 2.10 tax.
    expect(refundTaxPart(full, { amount: 1000, lines: null, shipping: 0 })).toBe(Math.round((1000 * 210) / 4759));
  });
});
