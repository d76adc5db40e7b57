import { describe, expect, it } from 'vitest';
import { catalogueLine, type CatalogueProduct } from '../../db/catalogue-line';
import { addOnLines, type AddOnProductRow } from './ship-now';

const refill: CatalogueProduct = { id: 4, name: 'Surfy Refill', price: 1299, sku: 'SURF-R', itemNumber: 'NH1004', taxCode: '31000' };

describe('catalogueLine', () => {
  it("copies the product's tax code onto the line, with or without a size", () => {
    expect(catalogueLine(refill, null, 2)).toEqual({
      productId: 4,
      productName: 'Surfy Refill',
      variantSku: null,
      sku: 'SURF-R',
      itemNumber: 'NH1004',
      quantity: 2,
      price: '12.99',
      taxCode: '31000',
    });
    const sized = catalogueLine(refill, { label: '64 oz', price: '21.50', sku: 'SURF-R-64' }, 1);
    expect(sized).toMatchObject({ productName: 'Surfy Refill - 64 oz', sku: 'SURF-R-64', price: '21.50', taxCode: '31000' });
  });

  it('leaves the code out for a product without one (general goods), so such lines are stored as before', () => {
    expect(catalogueLine({ ...refill, taxCode: null }, null, 1)).not.toHaveProperty('taxCode');
  });

  it("gives a renewal's one-time add-on the product's tax code on the day it is charged", () => {
    const row: AddOnProductRow = { id: 4, name: 'Surfy Refill', status: 'active', price: '12.99', variants: [], sku: 'SURF-R', itemNumber: 'NH1004', taxCode: '31000', inventory: 9 };
    const oneTime = [{ id: 'a1', productId: 4, productName: 'Surfy Refill', variantSku: null, quantity: 1 }];
    expect(addOnLines(oneTime, new Map([[4, row]])).lines).toEqual([{ ...catalogueLine(refill, null, 1), oneTime: true, oneTimeLineId: 'a1' }]);
    expect(addOnLines(oneTime, new Map([[4, { ...row, taxCode: null }]])).lines[0]).not.toHaveProperty('taxCode');
  });
});
