/**
 * The staff back office in real Chromium against the real API, database and built SPA (spec §2, §4-§8,
 * issue 11): staff sign-in with email and password, promo codes, product edit seen on the storefront,
 * order fulfilment, roles (support cannot open promos), an owner inviting a manager, the audit trail.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaff } from '@nh/server/queries/staff';
import { hashPassword } from '@nh/server/passwords';
import { STORAGE_KEYS } from '@nh/shared/constants';
import { exportDownloadName } from '@nh/shared/contracts/admin';
import { STAFF_MESSAGES, type StaffRole } from '@nh/shared/contracts/staff';
import { emailedToken } from '../../api/test/support/emailed-links';
import { poll, seriousAxeViolations, visible } from './support/page-helpers';
import { startE2eApp, type E2eApp } from './support/app';

const PASSWORD = 'e2e staff password';
let app: E2eApp;
interface Staff {
  id: string;
  email: string;
  name: string;
}
/** One account per role, made for this file (the harness's database has only the release's first owner). */
const staff = {} as Record<StaffRole, Staff>;
let product: { id: number; name: string; slug: string };
let orderId: string;
/** The API's export folder (the worker's, were one running): a temporary one. */
const exportsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-admin-e2e-'));

beforeAll(async () => {
  app = await startE2eApp({ EXPORTS_DIR: exportsDir });
  const db = app.api.ctx.db.$client;
  const suffix = randomUUID().slice(0, 6);
  const name = `Admin E2E Cleaner ${suffix}`;
  const slug = `admin-e2e-cleaner-${suffix}`;
  const { rows } = await db.query<{ id: number }>(
    `insert into products (name, slug, price, inventory, status, category_id)
     values ($1, $2, '20.00', 50, 'active', (select min(id) from categories)) returning id`,
    [name, slug],
  );
  product = { id: rows[0]!.id, name, slug };
  const order = await db.query<{ id: string }>(
    `insert into orders (customer_email, customer_name, customer_phone, shipping_address, items, subtotal, shipping, tax, total, promo_code, customer_notes, payment_transaction_id)
     values ('e2e-admin-${suffix}@example.com', 'Edsger Dijkstra', '555-0199', '{"address":"5 Loop Ln","city":"Austin","state":"TX","zip":"78701"}',
             $1, '40.00', '9.99', '3.20', '53.19', 'SAVE5', 'Ring twice', 'txn-e2e-1') returning id`,
    [
      JSON.stringify([
        { productId: product.id, productName: name, variantSku: null, sku: null, itemNumber: null, quantity: 2, price: '20.00' },
      ]),
    ],
  );
  orderId = order.rows[0]!.id;

  const passwordHash = await hashPassword(PASSWORD);
  for (const role of ['owner', 'manager', 'fulfilment', 'support'] as const) {
    const name = `E2E ${role} ${suffix}`;
    const row = await insertStaff(app.api.ctx.db, { email: `e2e-${role}-${suffix}@staff.test`, name, role, passwordHash });
    staff[role] = { id: row.id, email: row.email, name };
  }
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(exportsDir, { recursive: true, force: true });
});

/** Signs in on the sign-in screen any admin route shows while signed out. */
async function signIn(page: Page, role: StaffRole, password = PASSWORD) {
  await page.getByLabel('Email', { exact: true }).fill(staff[role].email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signed in: the sidebar names the staff member. */
const signedIn = (page: Page, role: StaffRole) =>
  poll(async () => (await page.getByTestId('signed-in-staff').textContent()) ?? '').toContain(staff[role].name);

/** A plain green PNG of `size` × `size` pixels (an upload must be at least 200 pixels each way). */
function greenPng(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, Buffer.from([80, 140, 90]))]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('admin area in the browser', () => {
  it('signs in at /admin/promos: a wrong password is refused, the right one opens the Promo Code Manager; codes are created and toggled', async () => {
    const page = await app.newPage();
    await page.goto('/admin/promos');
    await visible(page, STAFF_MESSAGES.signInRequired);
    await signIn(page, 'manager', 'not the password');
    await visible(page, STAFF_MESSAGES.signInFailed);
    await signIn(page, 'manager');
    await visible(page, STAFF_MESSAGES.signedIn);
    await poll(() => page.getByRole('heading', { name: 'Promo Code Manager', level: 1 }).isVisible()).toBe(true);
    await signedIn(page, 'manager');
    expect(await page.getByTestId('signed-in-staff').textContent()).toContain('Manager');
    // The session is an httpOnly cookie: nothing in storage, nothing scripts can read.
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.adminPassword)).toBeNull();
    expect(await page.evaluate(() => document.cookie)).not.toContain('nh.staff');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'nh.staff');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    const code = `E2E${randomUUID().slice(0, 6).toUpperCase()}`;
    await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
    await choose(page, 'Discount Type', 'Fixed ($)');
    await page.getByLabel('Discount Value').fill('4');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await visible(page, 'Promo code created');
    const row = page.getByTestId(`promo-${code}`);
    await poll(() => row.isVisible()).toBe(true);
    expect(await row.textContent()).toContain('$4 off');

    await row.getByRole('switch').click();
    await poll(
      async () => (await app.api.ctx.db.$client.query('select is_active from promo_codes where code = $1', [code])).rows[0]?.is_active,
    ).toBe(false);
    await poll(() => row.getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    await row.getByRole('switch').click();
    await poll(
      async () => (await app.api.ctx.db.$client.query('select is_active from promo_codes where code = $1', [code])).rows[0]?.is_active,
    ).toBe(true);
  });

  it("edits a product's price and the storefront product page shows it", async () => {
    const page = await app.newPage();
    await page.goto('/admin-products');
    await signIn(page, 'manager');
    await visible(page, 'Create New Product');
    await page
      .getByTestId(`product-row-${product.slug}`)
      .getByRole('link', { name: `Edit ${product.name}` })
      .click();
    await poll(() => new URL(page.url()).pathname).toBe(`/admin-products/${product.slug}/edit`);
    const price = page.getByLabel('Price', { exact: true });
    await poll(() => price.inputValue()).toBe('20.00');
    await price.fill('23.45');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await visible(page, 'Product updated successfully');
    await poll(() => new URL(page.url()).pathname).toBe('/admin-products');

    await page.goto(`/product/${product.slug}`);
    await poll(() => page.getByTestId('product-price').textContent()).toBe('$23.45');
  });

  it("validates the create form, creates and deletes a product, shows 'Product not found' for an unknown slug", async () => {
    const page = await app.newPage();
    await page.goto('/admin-products');
    await signIn(page, 'manager');
    await page.getByRole('link', { name: 'Create New Product' }).click();
    await page.getByRole('button', { name: 'Create Product' }).click();
    for (const message of ['Product name is required', 'Slug is required', 'Price is required', 'Category is required'])
      await visible(page, message);
    await page.getByRole('link', { name: 'Cancel', exact: true }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/admin-products');

    // Create (the slug follows the name), then delete through the confirmation dialog.
    const name = `Admin Created ${randomUUID().slice(0, 6)}`;
    const slug = name.toLowerCase().replace(/ /g, '-');
    await page.getByRole('link', { name: 'Create New Product' }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await poll(() => page.getByLabel('Slug', { exact: true }).inputValue()).toBe(slug);
    await page.getByLabel('Price', { exact: true }).fill('9.5');
    await choose(page, 'Category', 'Laundry');
    await page.getByLabel('Features').fill('Gentle, , Plant-based ');
    await page.getByRole('button', { name: 'Create Product' }).click();
    await visible(page, 'Product created successfully');
    const row = page.getByTestId(`product-row-${slug}`);
    await poll(() => row.isVisible()).toBe(true);
    const created = (await app.api.ctx.db.$client.query('select price, inventory, features, status from products where slug = $1', [slug]))
      .rows[0];
    expect(created).toEqual({ price: '9.50', inventory: 0, features: ['Gentle', 'Plant-based'], status: 'active' });

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await visible(page, 'Product deleted successfully');
    await poll(() => row.count()).toBe(0);
    expect((await app.api.ctx.db.$client.query('select 1 from products where slug = $1', [slug])).rowCount).toBe(0);

    await page.getByRole('link', { name: 'Create New Product' }).click();
    await page.getByRole('link', { name: 'Back to Products' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/admin-products');
    await page.evaluate(() => {
      window.history.pushState({}, '', '/admin-products/no-such-product/edit');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await visible(page, 'Product not found');
  });

  it('finds a product by search, uploads a picture, adds a variant and adjusts the stock with a reason (issue 11)', async () => {
    const db = app.api.ctx.db.$client;
    const suffix = randomUUID().slice(0, 6);
    const name = `Zinnia Pictured ${suffix}`;
    const slug = `zinnia-pictured-${suffix}`;
    const { rows } = await db.query<{ id: number }>(
      `insert into products (name, slug, price, inventory, status, category_id) values ($1, $2, '11.00', 30, 'active', (select min(id) from categories)) returning id`,
      [name, slug],
    );
    const id = rows[0]!.id;
    const page = await app.newPage();
    await page.goto('/admin-products');
    await signIn(page, 'manager');
    await page.getByLabel('Search products').fill(suffix);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const row = page.getByTestId(`product-row-${slug}`);
    // The unfiltered list may show the new product too: wait for the search's answer, one row.
    await poll(() => page.locator('tbody tr').count()).toBe(1);
    await poll(() => row.isVisible()).toBe(true);
    await row.getByRole('link', { name: `Edit ${name}` }).click();

    // The picture: uploaded, named in the images list, shown from the uploads folder.
    await page.getByLabel('Upload a picture').setInputFiles({ name: 'zinnia.png', mimeType: 'image/png', buffer: greenPng(240) });
    await visible(page, 'Picture uploaded');
    const images = page.getByLabel('Images (file names; the first is the main picture)');
    await poll(() => images.inputValue()).toMatch(/^upl-[0-9a-f]{20}$/);
    const uploaded = await images.inputValue();
    const shown = page.getByTestId(`picture-${uploaded}`).getByRole('img');
    expect(await shown.getAttribute('src')).toBe(`/uploads/products/${uploaded}-640.webp`);
    // Loaded from one of the stored widths (the srcset), not swapped for the generic picture.
    await poll(() =>
      shown.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? new URL(img.currentSrc).pathname : '')),
    ).toMatch(new RegExp(`^/uploads/products/${uploaded}-(320|640|1280)\\.webp$`));

    await page.getByRole('button', { name: 'Add variant' }).click();
    await page.getByLabel('Variant 1 label').fill('1 gallon');
    await page.getByLabel('Variant 1 price').fill('39');
    await page.getByLabel('Variant 1 SKU').fill(`ZIN-GAL-${suffix}`);

    // The stock: a change with a reason, logged with who made it.
    const panel = page.getByTestId('inventory-panel');
    await poll(() => panel.getByTestId('stock-now').textContent()).toBe('30');
    await panel.getByLabel('Change', { exact: true }).fill('-4');
    await panel.getByRole('button', { name: 'Adjust stock' }).click();
    await visible(page, 'Please say why the stock changes (e.g. "Counted in the warehouse", "Damaged in transit")');
    await panel.getByLabel('Reason', { exact: true }).fill('Damaged in transit');
    await panel.getByRole('button', { name: 'Adjust stock' }).click();
    await visible(page, 'Inventory updated');
    await poll(() => panel.getByTestId('stock-now').textContent()).toBe('26');
    expect(await panel.locator('tbody tr').first().textContent()).toContain(staff.manager.email);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Saving the form keeps the adjusted stock and stores the picture and the variant.
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await visible(page, 'Product updated successfully');
    const saved = (await db.query('select images, variants, inventory from products where id = $1', [id])).rows[0];
    expect(saved).toEqual({
      images: [uploaded],
      variants: [{ label: '1 gallon', price: '39.00', sku: `ZIN-GAL-${suffix}` }],
      inventory: 26,
    });
    const logged = await db.query('select delta, inventory_after, reason from inventory_adjustments where product_id = $1', [id]);
    expect(logged.rows).toEqual([{ delta: -4, inventory_after: 26, reason: 'Damaged in transit' }]);
  });

  it('opens an order, updates status, carrier and tracking; a reload stays signed in, an ended session returns to sign-in', async () => {
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await signIn(page, 'fulfilment');
    await visible(page, STAFF_MESSAGES.signedIn);
    // Fulfilment works on orders but neither exports nor manages the NetSuite sync.
    await signedIn(page, 'fulfilment');
    expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    expect(await page.getByTestId('sync-panel').count()).toBe(0);

    await page.getByLabel('Search orders').fill('Edsger');
    const link = page.getByTestId(`order-${orderId}`);
    await poll(() => link.isVisible()).toBe(true);
    expect(await link.textContent()).toContain(`#${orderId.slice(0, 8)}`);
    await link.click();

    await poll(() => page.getByRole('heading', { name: `Order ${orderId}` }).isVisible()).toBe(true);
    for (const text of ['555-0199', 'Same as shipping address', 'Ring twice', 'txn-e2e-1', 'Applied', '$53.19', 'Quantity: 2'])
      await visible(page, text);
    await poll(() => page.getByLabel('Tracking Number').inputValue()).toBe('');

    await choose(page, 'Status', 'Shipped');
    await choose(page, 'Carrier', 'UPS');
    await page.getByLabel('Tracking Number').fill('1Z999AA10123456784');
    await page.getByRole('button', { name: 'Update Order' }).click();
    await visible(page, 'Order updated successfully');
    const row = async () =>
      (await app.api.ctx.db.$client.query('select status, carrier, tracking_number from orders where id = $1', [orderId])).rows[0];
    await poll(row).toEqual({ status: 'shipped', carrier: 'UPS', tracking_number: '1Z999AA10123456784' });
    expect(await page.locator('header, main').getByText('Shipped', { exact: true }).first().isVisible()).toBe(true);

    // The orders list was refreshed: going back shows the new status.
    await page.getByRole('button', { name: 'Back to Orders' }).click();
    await poll(async () => (await page.getByTestId(`order-${orderId}`).textContent()) ?? '').toContain('Shipped');

    // A reload keeps the session (the cookie) and shows the order again.
    await page.goto(`/admin-orders/${orderId}`);
    await poll(() => page.getByLabel('Tracking Number').inputValue()).toBe('1Z999AA10123456784');

    // The session ends on the server (as when an owner disables the account): the next admin call's 401
    // returns to the sign-in screen, and signing in again comes back to the same screen.
    await app.api.ctx.db.$client.query('delete from staff_sessions where staff_id = $1', [staff.fulfilment.id]);
    await page.getByRole('button', { name: 'Back to Orders' }).click();
    await poll(() => page.getByRole('heading', { name: 'Sign in', level: 1 }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
    await signIn(page, 'fulfilment');
    await poll(() => page.getByTestId(`order-${orderId}`).isVisible()).toBe(true);

    // Sign out: the cookie's session is gone, the admin routes show the sign-in screen.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await visible(page, STAFF_MESSAGES.signedOut);
    await poll(() => page.getByRole('heading', { name: 'Sign in', level: 1 }).isVisible()).toBe(true);
    await page.goto(`/admin-orders/${orderId}`);
    await poll(() => page.getByRole('heading', { name: 'Sign in', level: 1 }).isVisible()).toBe(true);
  });

  it("shows 'Order not found' for an unknown order", async () => {
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await signIn(page, 'support');
    await visible(page, STAFF_MESSAGES.signedIn);
    await page.goto(`/admin-orders/${randomUUID()}`);
    await visible(page, 'Order not found');
  });

  it('exports orders: waits for the export job, saves nh-orders-{yyyy-MM-dd}.csv, reports a failed job', async () => {
    const db = app.api.ctx.db.$client;
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await signIn(page, 'manager');
    await visible(page, STAFF_MESSAGES.signedIn);
    // No worker runs in this test: it plays the exports worker by finishing the job row itself.
    const nextJob = async (after: Set<string>) => {
      let id: string | undefined;
      await poll(async () => {
        const { rows } = await db.query<{ id: string }>(
          `select id from exports where store_code = 'NH' and status = 'queued' order by created_at desc limit 1`,
        );
        id = rows[0] && !after.has(rows[0].id) ? rows[0].id : undefined;
        return id !== undefined;
      }).toBe(true);
      return id!;
    };
    const seen = new Set<string>();

    const download = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const exportId = await nextJob(seen);
    seen.add(exportId);
    // The worker's write: the file stored under its key, the row completed with it.
    await app.api.services.files.exports.put(`${exportId}.csv`, Buffer.from('Order ID,Email\r\nabc,a@example.com\r\n'), { contentType: 'text/csv; charset=utf-8' });
    await db.query(
      `update exports set status = 'completed', file_path = $2, file_name = $3, rows_done = 1, rows_total = 1, finished_at = now() where id = $1`,
      [exportId, `${exportId}.csv`, exportDownloadName()],
    );
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(exportDownloadName());
    expect(fs.readFileSync(await saved.path(), 'utf8')).toBe('Order ID,Email\r\nabc,a@example.com\r\n');
    await visible(page, 'Orders exported successfully');

    await page.getByRole('button', { name: 'Export CSV' }).click();
    const failedId = await nextJob(seen);
    await db.query(`update exports set status = 'failed', error = 'disk full', finished_at = now() where id = $1`, [failedId]);
    await visible(page, 'Export failed');
  });

  it('shows the NetSuite sync panel and retries a failed order from its detail page', async () => {
    const db = app.api.ctx.db.$client;
    await db.query(`update orders set netsuite_sync_status = 'failed', netsuite_sync_error = 'NetSuite said no' where id = $1`, [orderId]);
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await signIn(page, 'manager');
    const panel = page.getByTestId('sync-panel');
    await poll(() => panel.isVisible()).toBe(true);
    await poll(() => panel.getByRole('button', { name: /^Retry failed \(\d+\)$/ }).isVisible()).toBe(true);

    await page.getByLabel('Search orders').fill(orderId.slice(0, 8));
    // The search settles (after its typing delay) into the address before the row is opened, so no late
    // search can take the list's place while the order loads on a slow machine.
    await poll(() => new URL(page.url()).searchParams.get('q')).toBe(orderId.slice(0, 8));
    await page.getByTestId(`order-${orderId}`).click();
    await poll(() => page.getByRole('heading', { name: `Order ${orderId}` }).isVisible()).toBe(true);
    await visible(page, 'NetSuite said no');
    await page.getByRole('button', { name: 'Retry sync' }).click();
    await visible(page, 'Sync retry queued');
    await poll(
      async () => (await db.query('select netsuite_sync_status from orders where id = $1', [orderId])).rows[0]?.netsuite_sync_status,
    ).toBe('pending');
    const outbox = await db.query(`select 1 from outbox where topic = 'order.sync-requested' and payload->>'orderId' = $1`, [orderId]);
    expect(outbox.rowCount).toBe(1);
  });

  it('has no serious axe-core violations on sign-in, promo codes, products, product form, orders, order detail, staff and audit', async () => {
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await visible(page, 'Forgot password?');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await signIn(page, 'owner');
    await poll(() => page.getByTestId(`order-${orderId}`).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByTestId(`order-${orderId}`).click();
    await poll(() => page.getByRole('heading', { name: `Order ${orderId}` }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back to Orders' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Promo codes' }).click();
    await poll(() => page.getByTestId('promo-WELCOME10').isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Products' }).click();
    await poll(() => page.getByTestId(`product-row-${product.slug}`).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Create New Product' }).click();
    await visible(page, 'Basics');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Staff' }).click();
    await poll(() => page.getByTestId(`staff-${staff.owner.email}`).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit Trail' }).click();
    await poll(() => page.getByRole('link', { name: 'Download CSV' }).isVisible()).toBe(true);
    await poll(() => page.locator('[data-testid^="audit-"]').first().isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto('/admin/forgot-password');
    await visible(page, 'Send reset link');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('fits a 360px-wide phone: no sideways scrolling on sign-in, the order list, order detail, products, staff and the audit trail', async () => {
    const page = await app.newPage({ viewport: { width: 360, height: 740 } });
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await page.goto('/admin-orders');
    await visible(page, 'Forgot password?');
    expect(await fits()).toBe(true);
    await signIn(page, 'owner');
    await poll(() => page.getByTestId(`order-${orderId}`).isVisible()).toBe(true);
    expect(await fits()).toBe(true);
    await page.getByTestId(`order-${orderId}`).click();
    await poll(() => page.getByRole('button', { name: 'Update Order' }).isVisible()).toBe(true);
    expect(await fits()).toBe(true);
    await page.getByRole('button', { name: 'Back to Orders' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Products' }).click();
    await poll(() => page.getByRole('link', { name: 'Create New Product' }).isVisible()).toBe(true);
    expect(await fits()).toBe(true);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Staff' }).click();
    await poll(() => page.getByTestId(`staff-${staff.owner.email}`).isVisible()).toBe(true);
    expect(await fits()).toBe(true);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit Trail' }).click();
    await poll(() => page.locator('[data-testid^="audit-"]').first().isVisible()).toBe(true);
    expect(await fits()).toBe(true);
  });

  it('an owner invites a manager: the emailed link shows the invitation, the manager chooses a password and is signed in', async () => {
    const page = await app.newPage();
    await page.goto('/admin/staff');
    await signIn(page, 'owner');
    await poll(() => page.getByTestId(`staff-${staff.owner.email}`).isVisible()).toBe(true);
    expect(await page.getByTestId(`staff-${staff.support.email}`).textContent()).toContain('Active');

    const email = `e2e-invited-${randomUUID().slice(0, 6)}@staff.test`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('radio', { name: /^Manager/ }).check();
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await visible(page, STAFF_MESSAGES.invitationSent);
    const invitation = page.getByTestId(`invitation-${email}`);
    await poll(() => invitation.isVisible()).toBe(true);
    expect(await invitation.textContent()).toContain('Manager');

    // The link the invitation email carries (no mail worker runs here: its token is made as the worker
    // makes it when it sends), with the token in the fragment, which the page takes out of the address.
    const token = await emailedToken(app.api.ctx.db, 'staff.invited', email);
    const invited = await app.newPage();
    await invited.goto(`/admin/invite#token=${token}`);
    await visible(invited, email);
    await poll(() => invited.url()).toBe(`${app.url}/admin/invite`);
    await visible(invited, 'Manager');
    await invited.getByLabel('Your name').fill('Ivy Invited');
    await invited.getByLabel('New password', { exact: true }).fill('short');
    await invited.getByLabel('Confirm new password').fill('short');
    await invited.getByRole('button', { name: 'Create account' }).click();
    await visible(invited, STAFF_MESSAGES.passwordTooShort);
    await invited.getByLabel('New password', { exact: true }).fill('ivy chooses a long password');
    await invited.getByLabel('Confirm new password').fill('ivy chooses a long password');
    await invited.getByRole('button', { name: 'Create account' }).click();
    await poll(() => new URL(invited.url()).pathname).toBe('/admin');
    // /admin is the dashboard (the Promo Code Manager is at /admin/promos: docs/decisions/admin.md).
    await poll(() => invited.getByRole('heading', { name: 'Dashboard', level: 1 }).isVisible()).toBe(true);
    expect(await invited.getByTestId('signed-in-staff').textContent()).toBe('Ivy InvitedManager');
    // A manager's sidebar has no Staff entry.
    expect(await invited.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Staff' }).count()).toBe(0);

    // The link is spent; the owner's screen lists the new manager and no longer the invitation.
    await invited.goto(`/admin/invite#token=${token}`);
    await visible(invited, STAFF_MESSAGES.invitationUsed);
    await page.reload();
    const row = page.getByTestId(`staff-${email}`);
    await poll(() => row.isVisible()).toBe(true);
    expect(await row.textContent()).toContain('Ivy Invited');
    expect(await row.getByRole('combobox').textContent()).toBe('Manager');
    expect(await page.getByTestId(`invitation-${email}`).count()).toBe(0);
  });

  it('support cannot open promos: the role message instead of the screen, and no promo call', async () => {
    const page = await app.newPage();
    const promoCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/promo-codes')) promoCalls.push(request.url());
    });
    await page.goto('/admin/promos');
    await signIn(page, 'support');
    await visible(page, 'Your role (Support) cannot manage promo codes. Ask an owner if you need it.');
    const nav = page.getByRole('navigation', { name: 'Admin' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Dashboard', 'Orders', 'Customers', 'Subscriptions', 'Claims']);
    await page.goto('/admin-products');
    await visible(page, 'Your role (Support) cannot manage products. Ask an owner if you need it.');
    expect(await page.getByRole('link', { name: 'Create New Product' }).count()).toBe(0);
    expect(promoCalls).toEqual([]);

    // The server refuses too, whatever the screen shows (a same-origin call from the page, with its cookie).
    const answer = await page.evaluate(async () => {
      const res = await fetch('/api/promo-codes/list', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
    });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('STAFF_FORBIDDEN');
  });

  it('the audit trail shows an order update with who made it, before and after', async () => {
    const db = app.api.ctx.db.$client;
    const { rows } = await db.query<{ id: string }>(
      `insert into orders (customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total)
       values ('e2e-audit@example.com', 'Barbara Liskov', '{"address":"1 Sub St","city":"Boston","state":"MA","zip":"02139"}',
               $1, '20.00', '9.99', '1.60', '31.59') returning id`,
      [
        JSON.stringify([
          { productId: product.id, productName: product.name, variantSku: null, sku: null, itemNumber: null, quantity: 1, price: '20.00' },
        ]),
      ],
    );
    const id = rows[0]!.id;
    const page = await app.newPage();
    await page.goto(`/admin-orders/${id}`);
    await signIn(page, 'manager');
    await poll(() => page.getByRole('heading', { name: `Order ${id}` }).isVisible()).toBe(true);
    await choose(page, 'Status', 'Processing');
    await page.getByLabel('Tracking Number').fill('AUDIT-123');
    await page.getByRole('button', { name: 'Update Order' }).click();
    await visible(page, 'Order updated successfully');

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit Trail' }).click();
    await page.getByLabel('Record id').fill(id);
    await choose(page, 'Record kind', 'Order');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const row = page.locator('tbody tr', { hasText: 'Updated order' });
    await poll(() => row.count()).toBe(1);
    const text = (await row.textContent()) ?? '';
    for (const words of [staff.manager.email, 'Manager', 'Order', id, 'Status', 'Tracking number']) expect(text).toContain(words);
    expect(await row.getByTestId('audit-before').allTextContents()).toEqual(['Pending', '(none)']);
    expect(await row.getByTestId('audit-after').allTextContents()).toEqual(['Processing', 'AUDIT-123']);

    // The CSV link carries the same filters and downloads through the session cookie.
    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(href).toBe(`/api/admin/audit.csv?entityType=order&entityId=${id}`);
    const csv = await page.request.get(href!);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('AUDIT-123');
  });
});
