import { describe, expect, it } from 'vitest';
import { stockByProduct } from './cart';

describe('stockByProduct', () => {
  it('sums the lines of one product (its variants share its stock) and orders products by id', () => {
    expect(
      stockByProduct([
        { productId: 9, quantity: 1 },
        { productId: 3, quantity: 2 },
        { productId: 9, quantity: 4 },
      ]),
    ).toEqual({ productIds: [3, 9], quantities: [2, 5] });
    expect(stockByProduct([])).toEqual({ productIds: [], quantities: [] });
  });
});
