import { describe, expect, it } from 'vitest';
import type { RawProduct } from './product-model';
import {
  emptyStateText,
  filterLabel,
  filterShopProducts,
  normalizeShopProducts,
  productCountLabel,
  resolveShopFilter,
  shopPageMeta,
} from './shop-filter';

const categories = [
  { slug: 'kitchen', name: 'Kitchen', description: null },
  { slug: 'laundry', name: 'Laundry', description: 'Gentle pods' },
];

function raw(overrides: Partial<RawProduct>): RawProduct {
  return {
    id: 1,
    name: 'Item',
    slug: 'item',
    description: null,
    shortDescription: null,
    price: '9.99',
    compareAtPrice: null,
    images: [],
    categoryId: 1,
    category: { id: 1, name: 'Kitchen', slug: 'kitchen' },
    status: 'active',
    inventory: 5,
    weight: null,
    itemNumber: null,
    sku: null,
    upc: null,
    caseUpc: null,
    size: null,
    caseCount: null,
    taxCode: null,
    ingredients: [],
    features: [],
    uses: [],
    benefits: [],
    instructions: null,
    cautions: null,
    kitContents: [],
    isStarterKit: false,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: false,
    variants: [],
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
    ...overrides,
  };
}

const products = normalizeShopProducts([
  raw({ id: 1, slug: 'dishy' }),
  raw({ id: 2, slug: 'washy', category: { id: 2, name: 'Laundry', slug: 'laundry' } }),
  raw({ id: 3, slug: 'kit', isStarterKit: true, category: { id: 5, name: 'Starter Kits', slug: 'starter-kits' } }),
]);
const slugs = (list: { slug: string }[]) => list.map((p) => p.slug);

describe('shop filter', () => {
  it('resolves all, starter, a known category slug, and treats anything else as all', () => {
    expect(resolveShopFilter(null, categories)).toEqual({ kind: 'all' });
    expect(resolveShopFilter('all', categories)).toEqual({ kind: 'all' });
    expect(resolveShopFilter('starter', categories)).toEqual({ kind: 'starter' });
    expect(resolveShopFilter('laundry', categories)).toEqual({
      kind: 'category',
      slug: 'laundry',
      name: 'Laundry',
      description: 'Gentle pods',
    });
    expect(resolveShopFilter('no-such-thing', categories)).toEqual({ kind: 'all' });
  });

  it("'all' excludes starter kits, 'starter' shows only kits, a category slug matches the product's category", () => {
    expect(slugs(filterShopProducts(products, { kind: 'all' }))).toEqual(['dishy', 'washy']);
    expect(slugs(filterShopProducts(products, { kind: 'starter' }))).toEqual(['kit']);
    expect(slugs(filterShopProducts(products, resolveShopFilter('laundry', categories)))).toEqual(['washy']);
  });

  it('labels, counts, empty states and page meta follow the filter', () => {
    expect(filterLabel({ kind: 'all' })).toBe('All Nurture Home Products');
    expect(filterLabel({ kind: 'starter' })).toBe('Starter Kits');
    expect(productCountLabel(1)).toBe('1 product');
    expect(productCountLabel(0)).toBe('0 products');
    expect(productCountLabel(12)).toBe('12 products');
    expect(emptyStateText({ kind: 'starter' })).toBe('No starter kits available at the moment');
    expect(emptyStateText(resolveShopFilter('kitchen', categories))).toBe('No Kitchen found in this category');
    expect(shopPageMeta({ kind: 'starter' }).canonical).toBe('/shop?filter=starter');
    expect(shopPageMeta(resolveShopFilter('kitchen', categories)).description).toMatch(/kitchen/i);
    expect(shopPageMeta({ kind: 'all' }).canonical).toBe('/shop');
  });
});

describe('shop list normalisation', () => {
  it('sorts variants by price ascending, parses string prices, forces the three flags false', () => {
    const [p] = normalizeShopProducts([
      raw({
        price: '12.99',
        isBestseller: true,
        isRefill: true,
        isFragranceFree: true,
        variants: [
          { sku: 'G', label: '1 gallon', price: '34.99' },
          { sku: 'S', label: '16 oz', price: 9.99 },
          { sku: 'M', label: null, size: '32 oz', price: '13.5' },
        ],
      }),
    ]);
    expect(p!.variants.map((v) => [v.sku, v.label, v.priceCents])).toEqual([
      ['S', '16 oz', 999],
      ['M', '32 oz', 1350],
      ['G', '1 gallon', 3499],
    ]);
    expect(p!.priceCents).toBe(1299);
    expect([p!.isBestseller, p!.isRefill, p!.isFragranceFree]).toEqual([false, false, false]);
  });

  it("labels a variant without label or size 'Standard' and puts unpriced variants last", () => {
    const [p] = normalizeShopProducts([
      raw({
        variants: [
          { sku: 'X', price: 'n/a' },
          { sku: 'Y', label: 'Small', price: '5.00' },
        ],
      }),
    ]);
    expect(p!.variants.map((v) => [v.sku, v.label, v.priceCents])).toEqual([
      ['Y', 'Small', 500],
      ['X', 'Standard', null],
    ]);
  });
});
