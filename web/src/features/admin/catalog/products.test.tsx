import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { ADMIN_PRODUCT_MESSAGES, type InventoryLog } from '@nh/shared/contracts/admin-products';
import type { Product } from '@nh/shared/contracts/catalog';
import { UPLOAD_MESSAGES } from '@nh/shared/contracts/product-images';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TAX_CODE_HINT } from './components/product-form';
import { VARIANT_MESSAGES } from './product-form-model';
import ProductCreatePage from './screens/product-create';
import ProductEditPage from './screens/product-edit';
import ProductManagerPage from './screens/product-manager';
import { renderAdmin } from '../testing/render-admin';
import { stubApi, type Call, type Handler, type Reply } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix({ resizeObserver: true });

const MANAGER: StaffMe = { id: 's2', email: 'mia@example.com', name: 'Mia Manager', role: 'manager' };
const UPLOADED = 'upl-0123456789abcdef0123';

const product = (overrides: Partial<Product> = {}): Product => ({
  id: 7,
  name: 'Surfy Cleaner',
  slug: 'surfy-cleaner',
  description: null,
  shortDescription: null,
  price: '12.99',
  compareAtPrice: null,
  images: ['surfy-surface.svg'],
  categoryId: 1,
  category: { id: 1, name: 'Kitchen', slug: 'kitchen' },
  status: 'active',
  inventory: 40,
  weight: null,
  itemNumber: null,
  sku: 'SURF-1',
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
  variants: [{ label: '32 oz', price: '12.99', sku: 'SURF-32' }],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const signedIn = { 'GET /api/admin/me': { status: 200, body: MANAGER } };
const categories = { 'GET /api/categories': { status: 200, body: [{ id: 1, name: 'Kitchen', slug: 'kitchen' }] } };
const posts = (calls: Call[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);

describe('the Product Manager', () => {
  it('searches, filters by status in the URL and pages with the total the server counts', async () => {
    const calls = stubApi({
      ...signedIn,
      'POST /api/admin/products': (body) => {
        const { offset } = body as { offset: number };
        const rows = offset === 0 ? [product()] : [product({ id: 8, name: 'Surfy Refill', slug: 'surfy-refill' })];
        return { status: 200, body: rows, headers: { 'X-Total-Count': '51' } };
      },
    });
    const router = renderAdmin('/admin-products', { signedIn: [{ path: '/admin-products', Component: ProductManagerPage }] });
    expect(await screen.findByTestId('product-row-surfy-cleaner')).toBeTruthy();
    expect(posts(calls, '/api/admin/products')[0]!.body).toEqual({ limit: 50, offset: 0 });
    expect(screen.getByText('1–1 of 51')).toBeTruthy();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search products'), 'surfy');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(posts(calls, '/api/admin/products').at(-1)!.body).toEqual({ search: 'surfy', limit: 50, offset: 0 }));
    expect(router.state.location.search).toBe('?search=surfy');

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Out of Stock' }));
    await waitFor(() =>
      expect(posts(calls, '/api/admin/products').at(-1)!.body).toEqual({ search: 'surfy', status: 'out_of_stock', limit: 50, offset: 0 }),
    );

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByTestId('product-row-surfy-refill')).toBeTruthy();
    expect(posts(calls, '/api/admin/products').at(-1)!.body).toEqual({ search: 'surfy', status: 'out_of_stock', limit: 50, offset: 50 });
    expect(router.state.location.search).toBe('?search=surfy&status=out_of_stock&offset=50');
  });
});

function createScreen(upload: Reply | Handler) {
  const calls = stubApi({
    ...signedIn,
    ...categories,
    'POST /api/admin/products/images': upload,
    'POST /api/products': (body) => ({ status: 201, body: { ...product(), ...(body as object) } }),
    'POST /api/admin/products': { status: 200, body: [] },
  });
  renderAdmin('/admin-products/create', {
    signedIn: [
      { path: '/admin-products/create', Component: ProductCreatePage },
      { path: '/admin-products', Component: ProductManagerPage },
    ],
  });
  return calls;
}

const picture = (bytes = 3, type = 'image/png') => new File([new Uint8Array(bytes)], 'photo.png', { type });

describe('the product form', () => {
  it("uploads a picture with its own content type, adds the answer's name to the images and shows it; variants are sent as rows", async () => {
    const calls = createScreen({
      status: 201,
      body: { image: UPLOADED, width: 1600, height: 1200, urls: { 320: `/uploads/products/${UPLOADED}-320.webp` } },
    });
    const user = userEvent.setup();
    const file = picture();
    await user.upload(await screen.findByLabelText('Upload a picture'), file);
    expect(await screen.findByText('Picture uploaded')).toBeTruthy();
    const upload = posts(calls, '/api/admin/products/images')[0]!;
    expect(upload.headers['content-type']).toBe('image/png');
    expect(upload.raw).toBe(file);
    expect(screen.getByLabelText<HTMLTextAreaElement>('Images (file names; the first is the main picture)').value).toBe(UPLOADED);
    const shown = within(screen.getByTestId(`picture-${UPLOADED}`)).getByRole('img');
    expect(shown.getAttribute('src')).toBe(`/uploads/products/${UPLOADED}-640.webp`);
    expect(shown.getAttribute('alt')).toBe(`Main picture: ${UPLOADED}`);

    await user.type(screen.getByLabelText('Name'), 'Dishy Pods');
    await user.type(screen.getByLabelText('Price'), '9.5');
    await user.click(screen.getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'Kitchen' }));

    // An empty variant row is refused with a message per field.
    await user.click(screen.getByRole('button', { name: 'Add variant' }));
    await user.click(screen.getByRole('button', { name: 'Create Product' }));
    for (const message of [VARIANT_MESSAGES.labelRequired, VARIANT_MESSAGES.priceRequired, VARIANT_MESSAGES.skuRequired])
      expect(await screen.findByText(message)).toBeTruthy();
    expect(posts(calls, '/api/products')).toHaveLength(0);

    await user.type(screen.getByLabelText('Variant 1 label'), '20 pods');
    await user.type(screen.getByLabelText('Variant 1 price'), '9.50');
    await user.type(screen.getByLabelText('Variant 1 SKU'), 'DISH-20');
    await user.click(screen.getByRole('button', { name: 'Add variant' }));
    await user.type(screen.getByLabelText('Variant 2 label'), '40 pods');
    await user.type(screen.getByLabelText('Variant 2 price'), '17');
    await user.type(screen.getByLabelText('Variant 2 SKU'), 'dish-20');
    await user.click(screen.getByRole('button', { name: 'Create Product' }));
    expect(await screen.findByText(VARIANT_MESSAGES.skuTaken)).toBeTruthy();
    await user.clear(screen.getByLabelText('Variant 2 SKU'));
    await user.type(screen.getByLabelText('Variant 2 SKU'), 'DISH-40');
    await user.click(screen.getByRole('button', { name: 'Create Product' }));
    await waitFor(() => expect(posts(calls, '/api/products')).toHaveLength(1));
    expect(posts(calls, '/api/products')[0]!.body).toMatchObject({
      name: 'Dishy Pods',
      slug: 'dishy-pods',
      images: [UPLOADED],
      variants: [
        { label: '20 pods', price: '9.50', sku: 'DISH-20' },
        { label: '40 pods', price: '17', sku: 'DISH-40' },
      ],
    });
  });

  it("shows the server's refusal of a picture, and refuses a file over the limit without sending it", async () => {
    const calls = createScreen({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE', message: UPLOAD_MESSAGES.notAnImage } });
    const user = userEvent.setup();
    const input = await screen.findByLabelText('Upload a picture');
    await user.upload(input, picture());
    expect((await screen.findByTestId('picture-problem')).textContent).toBe(UPLOAD_MESSAGES.notAnImage);
    expect(screen.getByText('No pictures yet: the shop shows the generic product picture.')).toBeTruthy();

    const big = picture(1);
    Object.defineProperty(big, 'size', { value: 9 * 1024 * 1024 });
    await user.upload(input, big);
    expect((await screen.findByTestId('picture-problem')).textContent).toBe(UPLOAD_MESSAGES.tooLarge);
    expect(posts(calls, '/api/admin/products/images')).toHaveLength(1);
  });
});

describe('the edit screen', () => {
  function editScreen() {
    let log: InventoryLog = {
      productId: 7,
      inventory: 40,
      adjustments: [
        { id: 1, delta: 40, inventoryAfter: 40, reason: 'First delivery', staffEmail: 'ada@example.com', at: '2025-03-01T10:00:00.000Z' },
      ],
    };
    const calls = stubApi({
      ...signedIn,
      ...categories,
      // The product as stored: its stock follows the adjustments (the screen reads it again after one).
      'POST /api/admin/products': () => ({
        status: 200,
        body: [product({ inventory: log.inventory }), product({ id: 9, slug: 'surfy-cleaner-refill', name: 'Surfy Cleaner Refill' })],
      }),
      'GET /api/admin/products/7/inventory': () => ({ status: 200, body: log }),
      'POST /api/admin/products/7/inventory': (body) => {
        const { delta, reason } = body as { delta: number; reason: string };
        if (log.inventory + delta < 0)
          return { status: 400, body: { message: `${ADMIN_PRODUCT_MESSAGES.belowZero} (there are ${log.inventory}).` } };
        log = {
          ...log,
          inventory: log.inventory + delta,
          adjustments: [
            {
              id: log.adjustments.length + 1,
              delta,
              inventoryAfter: log.inventory + delta,
              reason,
              staffEmail: MANAGER.email,
              at: '2025-03-30T10:00:00.000Z',
            },
            ...log.adjustments,
          ],
        };
        return { status: 200, body: log };
      },
      'PUT /api/products/7': (body) => ({ status: 200, body: { ...product(), ...(body as object) } }),
    });
    renderAdmin('/admin-products/surfy-cleaner/edit', {
      signedIn: [
        { path: '/admin-products/:slug/edit', Component: ProductEditPage },
        { path: '/admin-products', Component: ProductManagerPage },
      ],
    });
    return calls;
  }

  it('finds the product by its slug and shows its variants; the Inventory panel adjusts with a reason and logs it', async () => {
    const calls = editScreen();
    expect((await screen.findByLabelText<HTMLInputElement>('Variant 1 label')).value).toBe('32 oz');
    expect(posts(calls, '/api/admin/products')[0]!.body).toEqual({ search: 'surfy-cleaner', limit: 200 });
    const panel = await screen.findByTestId('inventory-panel');
    await waitFor(() => expect(within(panel).getByTestId('stock-now').textContent).toBe('40'));
    expect(within(panel).getByTestId('adjustment-1').textContent).toContain('+40');

    const user = userEvent.setup();
    await user.type(within(panel).getByLabelText('Change'), '-3');
    await user.click(within(panel).getByRole('button', { name: 'Adjust stock' }));
    expect(await within(panel).findByText(ADMIN_PRODUCT_MESSAGES.reasonRequired)).toBeTruthy();
    expect(posts(calls, '/api/admin/products/7/inventory')).toHaveLength(0);

    await user.clear(within(panel).getByLabelText('Change'));
    await user.type(within(panel).getByLabelText('Change'), '-50');
    await user.type(within(panel).getByLabelText('Reason'), 'Damaged in transit');
    await user.click(within(panel).getByRole('button', { name: 'Adjust stock' }));
    expect(await within(panel).findByText(ADMIN_PRODUCT_MESSAGES.belowZero)).toBeTruthy();

    await user.clear(within(panel).getByLabelText('Change'));
    await user.type(within(panel).getByLabelText('Change'), '-3');
    await user.click(within(panel).getByRole('button', { name: 'Adjust stock' }));
    expect(await screen.findByText(ADMIN_PRODUCT_MESSAGES.adjusted)).toBeTruthy();
    await waitFor(() => expect(within(panel).getByTestId('stock-now').textContent).toBe('37'));
    const logged = within(panel).getByTestId('adjustment-2');
    for (const words of ['−3', '37', 'Damaged in transit', MANAGER.email]) expect(logged.textContent).toContain(words);
    expect(posts(calls, '/api/admin/products/7/inventory')[0]!.body).toEqual({ delta: -3, reason: 'Damaged in transit' });

    // Saving the form afterwards does not put the old stock back (the field was not typed in), and sends the variants.
    await waitFor(() => expect(posts(calls, '/api/admin/products').length).toBeGreaterThan(1));
    await user.click(screen.getByRole('button', { name: 'Remove variant 1' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const saved = calls.find((c) => c.method === 'PUT')!.body as Record<string, unknown>;
    expect(saved).not.toHaveProperty('inventory');
    expect(saved.variants).toEqual([]);
  });

  it('edits the tax code: its help says what it is for, a bad code is refused with the message, a good one is sent', async () => {
    const calls = editScreen();
    const field = await screen.findByLabelText<HTMLInputElement>('Tax Code');
    expect(field.value).toBe('');
    expect(screen.getByText(TAX_CODE_HINT)).toBeTruthy();

    const user = userEvent.setup();
    await user.type(field, '31000!');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(ADMIN_MESSAGES.taxCodeFormat)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.clear(field);
    await user.type(field, '31000');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect((calls.find((c) => c.method === 'PUT')!.body as Record<string, unknown>).taxCode).toBe('31000');
  });
});
