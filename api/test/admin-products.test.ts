import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { productSchema, type Product } from '@nh/shared/contracts/catalog';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';
import { checkout, checkoutBody } from './support/card-checkout';

let api: TestApi;
/** A signed-in staff member whose role may use every route of this file. */
let staff: StaffClient;
let categoryId: number;
beforeAll(async () => {
  api = await startTestApi();
  staff = await signInAs(api, 'manager');
  const categories = (await (await api.request('/api/categories')).json()) as { id: number }[];
  categoryId = categories[0]!.id;
});
afterAll(() => api.close());

const call = (method: string, path: string, body: Record<string, unknown> = {}) => staff.request(path, { method, body });
const uniqueSlug = (stem = 'admin-test') => `${stem}-${Math.random().toString(36).slice(2, 8)}`;

async function create(fields: Record<string, unknown> = {}): Promise<Product> {
  const slug = uniqueSlug();
  const res = await call('POST', '/api/products', { name: `Admin ${slug}`, slug, price: '12.50', categoryId, ...fields });
  expect(res.status).toBe(201);
  return productSchema.parse(await res.json());
}

describe('admin products API', () => {
  it('lists every product for signed-in staff, inactive ones included', async () => {
    const hidden = await create({ status: 'inactive' });
    const res = await call('POST', '/api/admin/products');
    expect(res.status).toBe(200);
    const list = productSchema.array().parse(await res.json());
    expect(list.map((p) => p.slug)).toEqual(expect.arrayContaining(['surfy-probiotic-all-purpose-cleaner', 'trashy-garbage-can-deodorizer', hidden.slug]));
    expect(list.find((p) => p.slug === hidden.slug)).toMatchObject({ status: 'inactive', category: { id: categoryId } });
    expect((await api.request('/api/admin/products', { method: 'POST', body: {} })).status).toBe(401);
  });

  it('creates a product with the form rules: money to 2 decimals, empty text to null, trimmed lists, defaults', async () => {
    const kitItem = 'surfy-probiotic-all-purpose-cleaner';
    const product = await create({
      price: 19.9,
      compareAtPrice: '',
      description: '   ',
      shortDescription: ' Short ',
      weight: '16.5',
      ingredients: [' Water ', '', 'Probiotics'],
      images: ['surfy.svg'],
      kitContents: [kitItem],
      variants: [{ label: '32 oz', price: '24', sku: 'V-32' }],
    });
    expect(product).toMatchObject({
      price: '19.90',
      compareAtPrice: null,
      description: null,
      shortDescription: 'Short',
      weight: '16.50',
      ingredients: ['Water', 'Probiotics'],
      images: ['surfy.svg'],
      inventory: 0,
      status: 'active',
      kitContents: [kitItem],
      isStarterKit: true,
      variants: [{ label: '32 oz', price: '24.00', sku: 'V-32' }],
    });
    const [row] = (await api.ctx.db.$client.query<{ price: string }>('select price from products where id = $1', [product.id])).rows;
    expect(row!.price).toBe('19.90');
  });

  it.each([
    [{ slug: 'x-1', price: '1.00', categoryId: 1 }, 'Product name is required'],
    [{ name: 'A', price: '1.00', categoryId: 1 }, 'Slug is required'],
    [{ name: 'A', slug: 'Not A Slug', price: '1.00', categoryId: 1 }, 'Slug must be lowercase letters, numbers and hyphens (e.g. "surfy-all-purpose-cleaner")'],
    [{ name: 'A', slug: 'x-1', categoryId: 1 }, 'Price is required'],
    [{ name: 'A', slug: 'x-1', price: '', categoryId: 1 }, 'Price is required'],
    [{ name: 'A', slug: 'x-1', price: '1.999', categoryId: 1 }, 'Price must be an amount of at least 0.00 with at most 2 decimals'],
    [{ name: 'A', slug: 'x-1', price: -1, categoryId: 1 }, 'Price must be an amount of at least 0.00 with at most 2 decimals'],
    [{ name: 'A', slug: 'x-1', price: '1.00' }, 'Category is required'],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 999999 }, 'The chosen category does not exist'],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 1, inventory: 1.5 }, 'Inventory must be a whole number of at least 0'],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 1, inventory: -1 }, 'Inventory must be a whole number of at least 0'],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 1, status: 'gone' }, 'Status must be active, inactive or out of stock'],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 1, images: ['../etc/passwd'] }, 'Images must be file names such as "surfy.svg"'],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 1, kitContents: ['no-such-product'] }, 'Kit contents must be slugs of existing products'],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 1, kitContents: ['x-1'] }, 'A kit cannot contain itself'],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 1, taxCode: '31 000' }, ADMIN_MESSAGES.taxCodeFormat],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 1, taxCode: 'P'.repeat(26) }, ADMIN_MESSAGES.taxCodeFormat],
    [{ name: 'A', slug: 'x-1', price: '1.00', categoryId: 1, taxCode: 31000 }, ADMIN_MESSAGES.taxCodeFormat],
  ])('answers 400 on create for %j', async (body, message) => {
    const res = await call('POST', '/api/products', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message });
  });

  it('refuses a slug already in use (409)', async () => {
    const res = await call('POST', '/api/products', { name: 'Copy', slug: 'surfy-probiotic-all-purpose-cleaner', price: '1.00', categoryId });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: 'A product with this slug already exists' });
  });

  it('updates only the fields sent; the storefront serves the change at once', async () => {
    const product = await create({ inventory: 5, features: ['Fast'] });
    const before = await api.request(`/api/products/${product.slug}`); // warms the catalogue cache
    expect(((await before.json()) as Product).price).toBe('12.50');
    const res = await call('PUT', `/api/products/${product.id}`, { price: '14.25', status: 'out_of_stock' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ price: '14.25', status: 'out_of_stock', inventory: 5, features: ['Fast'], name: product.name });
    expect(((await (await api.request(`/api/products/${product.slug}`)).json()) as Product).price).toBe('14.25');
    const listed = (await (await api.request('/api/products')).json()) as Product[];
    expect(listed.find((p) => p.id === product.id)?.status).toBe('out_of_stock');

    const hidden = await call('PUT', `/api/products/${product.id}`, { status: 'inactive' });
    expect(hidden.status).toBe(200);
    expect((await api.request(`/api/products/${product.slug}`)).status).toBe(404);
  });

  it('keeps a tax code: set on create, changed and cleared on edit (each change in the audit trail), a bad one refused with the message', async () => {
    const product = await create({ taxCode: ' 31000 ' });
    expect(product.taxCode).toBe('31000');
    const auditOf = async () =>
      (await api.ctx.db.$client.query<{ before: unknown; after: unknown }>(`select before, after from audit_events where action = 'product.updated' and entity_id = $1 order by id`, [String(product.id)])).rows;

    const changed = await call('PUT', `/api/products/${product.id}`, { taxCode: 'P0000000' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ taxCode: 'P0000000', price: '12.50' });
    const refused = await call('PUT', `/api/products/${product.id}`, { taxCode: 'tax code!' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: ADMIN_MESSAGES.taxCodeFormat });
    const cleared = await call('PUT', `/api/products/${product.id}`, { taxCode: '' });
    expect(productSchema.parse(await cleared.json()).taxCode).toBeNull();

    const listed = productSchema.array().parse(await (await call('POST', '/api/admin/products', { search: product.slug })).json());
    expect(listed.find((p) => p.id === product.id)?.taxCode).toBeNull();
    const audit = await auditOf();
    expect(audit.map((a) => [a.before, a.after])).toEqual([
      [{ taxCode: '31000', updatedAt: expect.any(String) }, { taxCode: 'P0000000', updatedAt: expect.any(String) }],
      [{ taxCode: 'P0000000', updatedAt: expect.any(String) }, { taxCode: null, updatedAt: expect.any(String) }],
    ]);
    // The database keeps the rule too.
    await expect(api.ctx.db.$client.query(`update products set tax_code = 'bad code' where id = $1`, [product.id])).rejects.toThrow(/products_tax_code_format/);
  });

  it("sells a line with the product's tax code, and the order keeps the code it was sold with", async () => {
    const product = await create({ taxCode: '31000', inventory: 10 });
    const placed = await checkout(api, await checkoutBody(api, { id: product.id, slug: product.slug, price: 1250 }));
    expect(placed.status).toBe(200);
    const { orderId } = (await placed.json()) as { orderId: string };
    expect((await call('PUT', `/api/products/${product.id}`, { taxCode: '40030' })).status).toBe(200);
    const { rows } = await api.ctx.db.$client.query<{ items: Array<{ productId: number; taxCode?: string | null }> }>('select items from orders where id = $1', [orderId]);
    expect(rows[0]!.items).toEqual([expect.objectContaining({ productId: product.id, taxCode: '31000' })]);
  });

  it('renames a slug everywhere a kit lists it; refuses taken slugs and bad ids', async () => {
    const item = await create();
    const kit = await create({ kitContents: [item.slug] });
    const renamed = uniqueSlug('renamed');
    const res = await call('PUT', `/api/products/${item.id}`, { slug: renamed });
    expect(res.status).toBe(200);
    const list = productSchema.array().parse(await (await call('POST', '/api/admin/products')).json());
    expect(list.find((p) => p.id === kit.id)?.kitContents).toEqual([renamed]);

    const taken = await call('PUT', `/api/products/${item.id}`, { slug: kit.slug });
    expect(taken.status).toBe(409);
    expect((await call('PUT', '/api/products/999999', { price: '1.00' })).status).toBe(404);
    const bad = await call('PUT', '/api/products/abc', { price: '1.00' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: 'Product id must be a positive whole number', code: 'VALIDATION_FAILED' });
    expect((await call('PUT', `/api/products/${item.id}`, { price: 'free' })).status).toBe(400);
    expect((await api.request(`/api/products/${item.id}`, { method: 'PUT', body: { price: '1.00' } })).status).toBe(401);
  });

  it('deletes a product (its orders keep their line snapshot); refuses one still in a kit', async () => {
    const item = await create();
    const kit = await create({ kitContents: [item.slug] });
    const { rows } = await api.ctx.db.$client.query<{ id: string }>(
      `insert into orders (customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total)
       values ('k@example.com', 'Kit Buyer', '{"address":"1 A St","city":"B","state":"CA","zip":"90001"}',
               $1, '12.50', '9.99', '1.00', '23.49') returning id`,
      [JSON.stringify([{ productId: item.id, productName: item.name, variantSku: null, sku: null, itemNumber: null, quantity: 1, price: '12.50' }])],
    );

    const refused = await call('DELETE', `/api/products/${item.id}`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: 'This product is part of a starter kit. Remove it from the kit first.', code: 'PRODUCT_IN_KIT', kits: [kit.slug] });

    await api.request(`/api/products/${kit.slug}`);
    expect((await call('DELETE', `/api/products/${kit.id}`)).status).toBe(200);
    expect((await api.request(`/api/products/${kit.slug}`)).status).toBe(404);
    const res = await call('DELETE', `/api/products/${item.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true, id: item.id, slug: item.slug });
    expect((await call('DELETE', `/api/products/${item.id}`)).status).toBe(404);

    const order = await call('POST', `/api/admin/orders/${rows[0]!.id}`, { storeCode: 'NH' });
    expect(await order.json()).toMatchObject({ items: [{ productId: item.id, productName: item.name, quantity: 1, price: '12.50' }] });
  });
});
