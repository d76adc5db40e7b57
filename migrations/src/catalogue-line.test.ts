import { describe, expect, it } from 'vitest';
import { catalogueLine, type CatalogueProduct } from './catalogue-line';

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

  it('keeps null for a product without a tax code (general goods)', () => {
    expect(catalogueLine({ ...refill, taxCode: null }, null, 1).taxCode).toBeNull();
  });
});
