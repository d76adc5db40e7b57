import { describe, expect, it } from 'vitest';
import { cartLineName, lowestPriceCents, priceDisplay, toCatalogProduct, type RawProduct } from './product-model';
import { relatedProducts } from './related-products';
import { reviewSummary } from './review-summary';

const base = {
  id: 1,
  name: 'Surfy',
  slug: 'surfy',
  description: 'Cleans',
  shortDescription: 'Spray',
  compareAtPrice: null,
  images: ['surfy-surface.svg'],
  categoryId: 1,
  category: { id: 1, name: 'Kitchen', slug: 'kitchen' },
  status: 'active',
  inventory: 5,
  kitContents: [],
  isStarterKit: false,
  isBestseller: false,
  isRefill: false,
  isFragranceFree: false,
  sku: 'SURFY',
  upc: null,
} as unknown as RawProduct;
const product = (price: RawProduct['price'], variants: RawProduct['variants'] = []) => toCatalogProduct({ ...base, price, variants });

describe('price display', () => {
  it('shows the price with two decimals and $', () => {
    expect(priceDisplay(product('12.9'))).toBe('$12.90');
    expect(priceDisplay(product(7))).toBe('$7.00');
  });
  it("shows 'From $min' with several variants", () => {
    const p = product('9.99', [
      { sku: 'B', label: 'Big', price: '19.99' },
      { sku: 'S', label: 'Small', price: '9.49' },
    ]);
    expect(priceDisplay(p)).toBe('From $9.49');
    expect(lowestPriceCents(p)).toBe(949);
  });
  it("shows 'Price TBA' without a valid positive price", () => {
    for (const price of ['0.00', '-1.00', 'abc', null, Number.NaN, Number.POSITIVE_INFINITY])
      expect(priceDisplay(product(price))).toBe('Price TBA');
    expect(
      priceDisplay(
        product('9.99', [
          { sku: 'A', label: 'A', price: '0' },
          { sku: 'B', label: 'B', price: null },
        ]),
      ),
    ).toBe('Price TBA');
  });
  it('names a cart line with the variant label', () => {
    const p = product('9.99', [{ sku: 'S', label: '16 oz', price: '9.99' }]);
    expect(cartLineName(p, p.variants[0])).toBe('Surfy - 16 oz');
    expect(cartLineName(p, null)).toBe('Surfy');
  });
});

describe('related products', () => {
  const mk = (id: number, category: string, status: 'active' | 'inactive' | 'out_of_stock' = 'active') => ({
    id,
    status,
    category: { id: 0, name: category, slug: category },
  });
  it('puts same-category active products first, then other active ones, never the current one', () => {
    const all = [
      mk(1, 'kitchen'),
      mk(2, 'laundry'),
      mk(3, 'kitchen', 'out_of_stock'),
      mk(4, 'kitchen'),
      mk(5, 'bathroom'),
      mk(6, 'laundry'),
      mk(7, 'kitchen', 'inactive'),
    ];
    expect(relatedProducts(all, mk(1, 'kitchen'), 4).map((p) => p.id)).toEqual([4, 2, 5, 6]);
  });
});

describe('reviews', () => {
  it('has no rating without reviews (never a made-up one), the average to one decimal otherwise, and counts stars 5 to 1', () => {
    expect(reviewSummary([]).rating).toBeNull();
    expect(reviewSummary([{ rating: 5 }, { rating: 4 }]).rating).toEqual({ average: 4.5, count: 2 });
    const s = reviewSummary([{ rating: 5 }, { rating: 4 }, { rating: 4 }]);
    expect(s.rating).toEqual({ average: 4.3, count: 3 });
    expect(s.counts).toEqual([
      { stars: 5, count: 1 },
      { stars: 4, count: 2 },
      { stars: 3, count: 0 },
      { stars: 2, count: 0 },
      { stars: 1, count: 0 },
    ]);
  });
});
