import { ADMIN_MESSAGES, createProductSchema, updateProductSchema } from '@nh/shared/contracts/admin';
import type { Product } from '@nh/shared/contracts/catalog';
import { describe, expect, it } from 'vitest';
import {
  addImage,
  createProductFormSchema,
  emptyProductForm,
  formToPayload,
  productFormSchema,
  productToForm,
  removeImage,
  slugify,
  VARIANT_MESSAGES,
} from './product-form-model';

const filled = { ...emptyProductForm, name: ' Surfy ', slug: 'surfy', price: '12.5', categoryId: '3' };

describe('product form model', () => {
  it('requires name, slug and price, and the category on create only', () => {
    const messages = (schema: typeof productFormSchema | typeof createProductFormSchema, values = emptyProductForm) =>
      schema.safeParse(values).error?.issues.map((i) => i.message);
    expect(messages(createProductFormSchema)).toEqual([
      'Product name is required',
      'Slug is required',
      'Price is required',
      'Category is required',
    ]);
    expect(messages(productFormSchema, { ...filled, categoryId: '' })).toBeUndefined();
    expect(messages(productFormSchema, { ...filled, price: '1.234', inventory: '2.5' })).toEqual([
      'Price must be an amount of at least 0.00 with at most 2 decimals',
      'Inventory must be a whole number of at least 0',
    ]);
  });

  it('splits comma lists (trimmed, empty entries dropped), sends empty text as null and inventory 0 by default', () => {
    const payload = formToPayload(
      { ...filled, inventory: '', ingredients: ' water, , probiotics ,', description: '  ', compareAtPrice: '', isStarterKit: true },
      'create',
    );
    expect(payload).toMatchObject({
      name: 'Surfy',
      price: '12.5',
      categoryId: 3,
      inventory: 0,
      ingredients: ['water', 'probiotics'],
      description: null,
      compareAtPrice: null,
      isStarterKit: true,
      kitContents: [],
    });
    expect(createProductSchema.safeParse(payload).success).toBe(true);
  });

  it('derives isStarterKit from kitContents on edit', () => {
    expect(formToPayload({ ...filled, isStarterKit: true, kitContents: '' }, 'edit').isStarterKit).toBe(false);
    const payload = formToPayload({ ...filled, kitContents: 'surfy-probiotic-all-purpose-cleaner, dishy-pods' }, 'edit');
    expect(payload).toMatchObject({ isStarterKit: true, kitContents: ['surfy-probiotic-all-purpose-cleaner', 'dishy-pods'] });
    expect(updateProductSchema.safeParse(payload).success).toBe(true);
  });

  it('round-trips a product through the form', () => {
    const product = {
      id: 1,
      name: 'Kit',
      slug: 'kit',
      description: null,
      shortDescription: 'Short',
      price: '30.00',
      compareAtPrice: '35.00',
      images: ['a.svg', 'b.svg'],
      categoryId: 2,
      category: { id: 2, name: 'Kits', slug: 'kits' },
      status: 'inactive',
      inventory: 4,
      weight: '12.00',
      itemNumber: null,
      sku: 'K-1',
      upc: null,
      caseUpc: null,
      size: null,
      caseCount: null,
      taxCode: 'P0000000',
      ingredients: [],
      features: ['One', 'Two'],
      uses: [],
      benefits: [],
      instructions: null,
      cautions: null,
      kitContents: ['x', 'y'],
      isStarterKit: true,
      isBestseller: false,
      isRefill: false,
      isFragranceFree: false,
      variants: [],
      createdAt: '',
      updatedAt: '',
    } satisfies Product;
    const form = productToForm(product);
    expect(form).toMatchObject({
      price: '30.00',
      images: 'a.svg, b.svg',
      features: 'One, Two',
      categoryId: '2',
      status: 'inactive',
      inventory: '4',
      description: '',
      taxCode: 'P0000000',
    });
    expect(formToPayload(form, 'edit')).toMatchObject({
      taxCode: 'P0000000',
      images: ['a.svg', 'b.svg'],
      features: ['One', 'Two'],
      kitContents: ['x', 'y'],
      categoryId: 2,
      status: 'inactive',
      weight: '12.00',
    });
  });

  it('checks variant rows (each field required, SKUs distinct) and sends them trimmed', () => {
    const rows = (variants: { label: string; price: string; sku: string }[]) =>
      productFormSchema.safeParse({ ...filled, variants }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(rows([{ label: '', price: '', sku: ' ' }])).toEqual([
      `variants.0.label: ${VARIANT_MESSAGES.labelRequired}`,
      `variants.0.price: ${VARIANT_MESSAGES.priceRequired}`,
      `variants.0.sku: ${VARIANT_MESSAGES.skuRequired}`,
    ]);
    expect(rows([{ label: '32 oz', price: '1.999', sku: 'A' }])).toEqual([
      'variants.0.price: Price must be an amount of at least 0.00 with at most 2 decimals',
    ]);
    expect(
      rows([
        { label: 'S', price: '1', sku: 'a-1' },
        { label: 'L', price: '2', sku: 'A-1 ' },
      ]),
    ).toEqual([`variants.1.sku: ${VARIANT_MESSAGES.skuTaken}`]);
    const payload = formToPayload({ ...filled, variants: [{ label: ' 32 oz ', price: '12.5 ', sku: ' SURF-32' }] }, 'edit');
    expect(payload.variants).toEqual([{ label: '32 oz', price: '12.5', sku: 'SURF-32' }]);
    expect(updateProductSchema.safeParse(payload).data?.variants).toEqual([{ label: '32 oz', price: '12.50', sku: 'SURF-32' }]);
  });

  it('takes an optional tax code: empty is general merchandise (null), a bad one is refused with the server\'s message', () => {
    const messages = (taxCode: string) => productFormSchema.safeParse({ ...filled, taxCode }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(emptyProductForm.taxCode).toBe('');
    expect(messages('')).toBeUndefined();
    expect(messages(' 31000 ')).toBeUndefined();
    expect(messages('PC040100.A-1')).toBeUndefined();
    for (const bad of ['31 000', '31000!', 'x'.repeat(26), 'tax_code']) expect(messages(bad)).toEqual([`taxCode: ${ADMIN_MESSAGES.taxCodeFormat}`]);
    expect(formToPayload({ ...filled, taxCode: ' 31000 ' }, 'create').taxCode).toBe('31000');
    const cleared = formToPayload({ ...filled, taxCode: '  ' }, 'edit');
    expect(cleared.taxCode).toBeNull();
    expect(updateProductSchema.safeParse(cleared).data?.taxCode).toBeNull();
    expect(updateProductSchema.safeParse({ taxCode: '31000!' }).error?.issues.map((i) => i.message)).toEqual([ADMIN_MESSAGES.taxCodeFormat]);
  });

  it('adds an uploaded picture to the images once, and removes one', () => {
    expect(addImage('', 'upl-1')).toBe('upl-1');
    expect(addImage('a.svg, b.svg', 'upl-1')).toBe('a.svg, b.svg, upl-1');
    expect(addImage('a.svg, upl-1', 'upl-1')).toBe('a.svg, upl-1');
    expect(removeImage('a.svg, b.svg, upl-1', 1)).toBe('a.svg, upl-1');
  });

  it('suggests a slug from the name', () => {
    expect(slugify('  Surfy All-Purpose Cleaner (32 oz)! ')).toBe('surfy-all-purpose-cleaner-32-oz');
  });
});
