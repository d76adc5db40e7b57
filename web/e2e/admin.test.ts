/**
 * The staff admin area in real Chromium against the real API, database and built SPA (spec §2, §4-§8):
 * password gate, promo codes, product edit seen on the storefront, order fulfilment.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@nh/shared/constants';
import { exportDownloadName } from '@nh/shared/contracts/admin';
import { poll, seriousAxeViolations, visible } from './support/page-helpers';
import { startE2eApp, type E2eApp } from './support/app';

const PASSWORD = 'nurture-admin';
let app: E2eApp;
let product: { id: number; name: string; slug: string };
let orderId: string;

beforeAll(async () => {
  app = await startE2eApp();
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
    [JSON.stringify([{ productId: product.id, productName: name, variantSku: null, sku: null, itemNumber: null, quantity: 2, price: '20.00' }])],
  );
  orderId = order.rows[0]!.id;
});
afterAll(() => app?.close());

async function unlock(page: Page, password: string) {
  await page.getByLabel('Admin Password').fill(password);
  await page.getByRole('button', { name: 'Access Admin' }).click();
}

async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('admin area in the browser', () => {
  it('gates /admin: a wrong password is refused, the right one opens the Promo Code Manager; codes are created and toggled', async () => {
    const page = await app.newPage();
    await page.goto('/admin');
    await unlock(page, 'not-the-password');
    await visible(page, 'Invalid password');
    await unlock(page, PASSWORD);
    await visible(page, 'Access granted');
    await poll(() => page.getByRole('heading', { name: 'Promo Code Manager', level: 1 }).isVisible()).toBe(true);
    // The promo screens keep the token in memory only: nothing is written to storage.
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.adminPassword)).toBeNull();

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
    await poll(async () => (await app.api.ctx.db.$client.query('select is_active from promo_codes where code = $1', [code])).rows[0]?.is_active).toBe(false);
    await poll(() => row.getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    await row.getByRole('switch').click();
    await poll(async () => (await app.api.ctx.db.$client.query('select is_active from promo_codes where code = $1', [code])).rows[0]?.is_active).toBe(true);
  });

  it("edits a product's price and the storefront product page shows it", async () => {
    const page = await app.newPage();
    await page.goto('/admin-products');
    await unlock(page, PASSWORD);
    await visible(page, 'Create New Product');
    await page.getByTestId(`product-row-${product.slug}`).getByRole('link', { name: `Edit ${product.name}` }).click();
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
    await unlock(page, PASSWORD);
    await page.getByRole('link', { name: 'Create New Product' }).click();
    await page.getByRole('button', { name: 'Create Product' }).click();
    for (const message of ['Product name is required', 'Slug is required', 'Price is required', 'Category is required']) await visible(page, message);
    await page.getByRole('link', { name: 'Cancel' }).click();
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
    const created = (await app.api.ctx.db.$client.query('select price, inventory, features, status from products where slug = $1', [slug])).rows[0];
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

  it('opens an order, updates status, carrier and tracking; the token (never the password) is stored and re-verified', async () => {
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await unlock(page, PASSWORD);
    await visible(page, 'Access granted');
    const stored = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.adminPassword);
    expect(stored).toMatch(/^nha1\./);
    expect(stored).not.toContain(PASSWORD);

    await page.getByLabel('Search orders').fill('Edsger');
    const link = page.getByTestId(`order-${orderId}`);
    await poll(() => link.isVisible()).toBe(true);
    expect(await link.textContent()).toContain(`#${orderId.slice(0, 8)}`);
    await link.click();

    await poll(() => page.getByRole('heading', { name: `Order ${orderId}` }).isVisible()).toBe(true);
    for (const text of ['555-0199', 'Same as shipping address', 'Ring twice', 'txn-e2e-1', 'Applied', '$53.19', 'Quantity: 2']) await visible(page, text);
    await poll(() => page.getByLabel('Tracking Number').inputValue()).toBe('');

    await choose(page, 'Status', 'Shipped');
    await choose(page, 'Carrier', 'UPS');
    await page.getByLabel('Tracking Number').fill('1Z999AA10123456784');
    await page.getByRole('button', { name: 'Update Order' }).click();
    await visible(page, 'Order updated successfully');
    const row = async () => (await app.api.ctx.db.$client.query('select status, carrier, tracking_number from orders where id = $1', [orderId])).rows[0];
    await poll(row).toEqual({ status: 'shipped', carrier: 'UPS', tracking_number: '1Z999AA10123456784' });
    expect(await page.locator('header, main').getByText('Shipped', { exact: true }).first().isVisible()).toBe(true);

    // The orders list was refreshed: going back shows the new status.
    await page.getByRole('button', { name: 'Back to Orders' }).click();
    await poll(async () => (await page.getByTestId(`order-${orderId}`).textContent()) ?? '').toContain('Shipped');

    // A reload verifies the stored token and stays in.
    await page.goto(`/admin-orders/${orderId}`);
    await poll(() => page.getByLabel('Tracking Number').inputValue()).toBe('1Z999AA10123456784');

    // A token that no longer verifies is removed, and the detail page sends the user to /admin-orders.
    await page.evaluate((key) => localStorage.setItem(key, 'nha1.1.forged'), STORAGE_KEYS.adminPassword);
    await page.goto(`/admin-orders/${orderId}`);
    await poll(() => new URL(page.url()).pathname).toBe('/admin-orders');
    await visible(page, 'Access Admin');
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.adminPassword)).toBeNull();
  });

  it("shows 'Order not found' for an unknown order", async () => {
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await unlock(page, PASSWORD);
    await visible(page, 'Access granted');
    await page.goto(`/admin-orders/${randomUUID()}`);
    await visible(page, 'Order not found');
  });

  it("exports orders: waits for the export job, saves nh-orders-{yyyy-MM-dd}.csv, reports a failed job", async () => {
    const db = app.api.ctx.db.$client;
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await unlock(page, PASSWORD);
    await visible(page, 'Access granted');
    // No worker runs in this test: it plays the exports worker by finishing the job row itself.
    const nextJob = async (after: Set<string>) => {
      let id: string | undefined;
      await poll(async () => {
        const { rows } = await db.query<{ id: string }>(`select id from exports where store_code = 'NH' and status = 'queued' order by created_at desc limit 1`);
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
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nh-admin-e2e-')), `${exportId}.csv`);
    fs.writeFileSync(file, 'Order ID,Email\r\nabc,a@example.com\r\n');
    await db.query(`update exports set status = 'completed', file_path = $2, file_name = $3, rows_done = 1, rows_total = 1, finished_at = now() where id = $1`, [exportId, file, exportDownloadName()]);
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
    await unlock(page, PASSWORD);
    const panel = page.getByTestId('sync-panel');
    await poll(() => panel.isVisible()).toBe(true);
    await poll(() => panel.getByRole('button', { name: /^Retry failed \(\d+\)$/ }).isVisible()).toBe(true);

    await page.getByLabel('Search orders').fill(orderId.slice(0, 8));
    await page.getByTestId(`order-${orderId}`).click();
    await visible(page, 'NetSuite said no');
    await page.getByRole('button', { name: 'Retry sync' }).click();
    await visible(page, 'Sync retry queued');
    await poll(async () => (await db.query('select netsuite_sync_status from orders where id = $1', [orderId])).rows[0]?.netsuite_sync_status).toBe('pending');
    const outbox = await db.query(`select 1 from outbox where topic = 'order.sync-requested' and payload->>'orderId' = $1`, [orderId]);
    expect(outbox.rowCount).toBe(1);
  });

  it('has no serious axe-core violations on the gate, promo codes, products, product form, orders and order detail', async () => {
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await visible(page, 'Access Admin');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await unlock(page, PASSWORD);
    await poll(() => page.getByTestId(`order-${orderId}`).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByTestId(`order-${orderId}`).click();
    await poll(() => page.getByRole('heading', { name: `Order ${orderId}` }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back to Orders' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Promo Codes' }).click();
    await poll(() => page.getByTestId('promo-WELCOME10').isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Products' }).click();
    await poll(() => page.getByTestId(`product-row-${product.slug}`).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Create New Product' }).click();
    await visible(page, 'Basics');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('fits a 360px-wide phone: no sideways scrolling on the order list, order detail and products', async () => {
    const page = await app.newPage({ viewport: { width: 360, height: 740 } });
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await page.goto('/admin-orders');
    await unlock(page, PASSWORD);
    await poll(() => page.getByTestId(`order-${orderId}`).isVisible()).toBe(true);
    expect(await fits()).toBe(true);
    await page.getByTestId(`order-${orderId}`).click();
    await poll(() => page.getByRole('button', { name: 'Update Order' }).isVisible()).toBe(true);
    expect(await fits()).toBe(true);
    await page.getByRole('button', { name: 'Back to Orders' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Products' }).click();
    await poll(() => page.getByRole('link', { name: 'Create New Product' }).isVisible()).toBe(true);
    expect(await fits()).toBe(true);
  });
});
