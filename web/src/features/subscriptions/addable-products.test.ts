import type { Product } from '@nh/shared/contracts/catalog';
import { describe, expect, it } from 'vitest';
import { addableProducts, cataloguePriceOf } from './addable-products';

const product = (id: number, name: string, extra: Partial<Product> = {}) => ({ id, name, price: '10.00', status: 'active', variants: [], ...extra }) as unknown as Product;

describe('addableProducts', () => {
  it('offers active products, each size on its own, by name, without the lines already taken', () => {
    const products = [
      product(1, 'Surfy'),
      product(2, 'Refill', { variants: [{ sku: 'R-32', label: '32 oz', price: '18.00' }, { sku: 'R-128', label: '1 gal', price: '45.00' }] }),
      product(3, 'Gone', { status: 'inactive' }),
      product(4, 'Sold Out', { status: 'out_of_stock' }),
      product(5, 'Alpha'),
    ];
    expect(addableProducts(products, new Set(['1:', '2:R-32']))).toEqual([
      { key: '5:', productId: 5, variantSku: null, name: 'Alpha', price: '10.00' },
      { key: '2:R-128', productId: 2, variantSku: 'R-128', name: 'Refill - 1 gal', price: '45.00' },
    ]);
  });
});

describe('cataloguePriceOf', () => {
  it('prices a kept line as the server will: its size\'s price, else the product\'s; out of stock said; not sold null', () => {
    const products = [
      product(1, 'Surfy', { price: '22.00' }),
      product(2, 'Refill', { status: 'out_of_stock', variants: [{ sku: 'R-32', label: '32 oz', price: '18.00' }] }),
      product(3, 'Gone', { status: 'inactive' }),
    ];
    expect(cataloguePriceOf(products, { productId: 1, variantSku: null })).toEqual({ price: '22.00', outOfStock: false });
    expect(cataloguePriceOf(products, { productId: 2, variantSku: 'R-32' })).toEqual({ price: '18.00', outOfStock: true });
    expect(cataloguePriceOf(products, { productId: 2, variantSku: 'R-64' })).toBeNull();
    expect(cataloguePriceOf(products, { productId: 3, variantSku: null })).toBeNull();
    expect(cataloguePriceOf(products, { productId: 9, variantSku: null })).toBeNull();
  });
});
