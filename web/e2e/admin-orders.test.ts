/**
 * The back office's orders and exports in real Chromium against the real API, database and built SPA
 * (issue 11): an owner invites a manager, who refunds part of a settled order and voids an unsettled
 * one, and the audit trail shows the refund with before and after; the order table's filters, sorting,
 * paging and bulk NetSuite retry; an export with filters, live progress, history and the browser's own
 * download of the server's stream. Orders are paid through the real checkout with the local payment
 * sandbox, whose `settle()` hook settles a charge at once.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal } from '@nh/shared';
import { exportDownloadName } from '@nh/shared/contracts/admin';
import { partialUnsettledMessage, settlementSentence } from '@nh/shared/contracts/refunds';
import { STAFF_MESSAGES } from '@nh/shared/contracts/staff';
import { emailedToken } from '../../api/test/support/emailed-links';
import { placePaidOrder, type PaidOrder } from '../../api/test/support/paid-orders';
import { poll, seriousAxeViolations, visible } from './support/page-helpers';
import { startE2eApp, type E2eApp } from './support/app';
import { createE2eProduct, type E2eProduct } from './support/shop';
import { addStaff, signInStaff } from './support/staff';

const PASSWORD = 'e2e orders staff password';
let app: E2eApp;
let product: E2eProduct;
const suffix = randomUUID().slice(0, 6);
const owner = { email: `e2e-orders-owner-${suffix}@staff.test`, name: `Orders Owner ${suffix}` };
const manager = { email: `e2e-orders-manager-${suffix}@staff.test`, name: `Orders Manager ${suffix}` };

const db = () => app.api.ctx.db.$client;
/** The API's export folder (the worker's, were one running): a temporary one. */
const exportsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-orders-e2e-'));

beforeAll(async () => {
  app = await startE2eApp({ EXPORTS_DIR: exportsDir });
  product = await createE2eProduct(app, 'Orders E2E Cleaner');
  await addStaff(app, PASSWORD, [
    { ...owner, role: 'owner' },
    { ...manager, role: 'manager' },
  ]);
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(exportsDir, { recursive: true, force: true });
});

const signIn = (page: Page, email: string) => signInStaff(page, email, PASSWORD);

async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** An order placed and paid through the real checkout (the sandbox's tokeniser and charge): `quantity` of the test product. */
const placeOrder = (quantity: number): Promise<PaidOrder> => placePaidOrder(app.api, { lines: [{ price: 2000, quantity }], productIds: [product.id], email: `e2e-orders-${suffix}@example.com` });

const inventory = async () => (await db().query<{ inventory: number }>('select inventory from products where id = $1', [product.id])).rows[0]!.inventory;

/** Refunds through the dialog; `settlement` is the review step's sentence of where the charge stands (issue 23), checked before sending. */
async function refundThroughDialog(page: Page, amount: string, reason: string, restock: boolean, settlement?: string) {
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Amount').fill(amount);
  await dialog.getByLabel('Reason').fill(reason);
  if (restock) await dialog.getByRole('checkbox', { name: 'Put the items back in stock' }).click();
  await dialog.getByRole('button', { name: 'Review refund' }).click();
  await poll(() => dialog.getByRole('heading', { name: 'Confirm the refund' }).isVisible()).toBe(true);
  if (settlement) await poll(async () => (await dialog.getByTestId('settlement-note').textContent()) ?? '').toBe(settlement);
  await dialog.getByRole('button', { name: `Refund $${amount}` }).click();
  return dialog;
}

describe('orders in the back office', () => {
  it('an owner invites a manager, who refunds part of a settled order and voids an unsettled one; the audit trail shows the refund with before and after', async () => {
    // The owner invites; the manager takes the emailed link (its token made as the mail worker makes it: no worker runs here).
    const ownerPage = await app.newPage();
    await ownerPage.goto('/admin/staff');
    await signIn(ownerPage, owner.email);
    const invited = `e2e-orders-invited-${suffix}@staff.test`;
    await ownerPage.getByLabel('Email', { exact: true }).fill(invited);
    await ownerPage.getByRole('radio', { name: /^Manager/ }).check();
    await ownerPage.getByRole('button', { name: 'Send invitation' }).click();
    await visible(ownerPage, STAFF_MESSAGES.invitationSent);
    const token = await emailedToken(app.api.ctx.db, 'staff.invited', invited);
    const page = await app.newPage();
    await page.goto(`/admin/invite#token=${token}`);
    await page.getByLabel('Your name').fill('Rita Refunds');
    await page.getByLabel('New password', { exact: true }).fill('rita chooses a long password');
    await page.getByLabel('Confirm new password').fill('rita chooses a long password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await poll(async () => (await page.getByTestId('signed-in-staff').textContent()) ?? '').toBe('Rita RefundsManager');

    // A settled order: part of it is refunded, its items back in stock.
    const settled = await placeOrder(2);
    expect(await app.api.payments.sandbox!.settle(settled.transactionId)).toBe(true);
    const stockBefore = await inventory();
    await page.goto(`/admin-orders/${settled.id}`);
    await poll(() => page.getByRole('heading', { name: `Order ${settled.id}` }).isVisible()).toBe(true);
    const timeline = page.getByRole('list', { name: 'Order timeline' });
    await poll(() => timeline.getByText('Order placed').isVisible()).toBe(true);
    await poll(() => timeline.getByText(`Paid $${centsToDecimal(settled.total)}`).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    expect(await page.getByRole('dialog').getByLabel('Amount').inputValue()).toBe(centsToDecimal(settled.total));
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await refundThroughDialog(page, '10.00', 'Damaged in transit', true, settlementSentence('settled', settled.total, 'Visa ending 1111'));
    await visible(page, 'Refund made');
    await visible(page, `$10.00 refunded to Visa ending 1111. $${centsToDecimal(settled.total - 1000)} can still be refunded.`);
    await poll(() => page.getByTestId('refundable').textContent()).toBe(`Can still be refunded$${centsToDecimal(settled.total - 1000)}`);
    await poll(() => timeline.getByText('Refunded $10.00').isVisible()).toBe(true);
    expect(await timeline.getByText(/by .*@staff\.test/).last().textContent()).toContain(invited);
    const { rows: refunds } = await db().query(`select kind, status, amount, reason, restocked from payment_transactions where order_id = $1 and kind <> 'charge'`, [settled.id]);
    expect(refunds).toEqual([{ kind: 'refund', status: 'approved', amount: '10.00', reason: 'Damaged in transit', restocked: true }]);
    expect(await inventory()).toBe(stockBefore + 2);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // An unsettled order: part of it is refused in the server's words, the whole of it is voided.
    const unsettled = await placeOrder(1);
    await page.goto(`/admin-orders/${unsettled.id}`);
    const dialog = await refundThroughDialog(page, '5.00', 'Wrong scent', false, settlementSentence('unsettled', unsettled.total, 'Visa ending 1111'));
    await visible(page, partialUnsettledMessage(unsettled.total));
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByLabel('Amount').fill(centsToDecimal(unsettled.total));
    await dialog.getByRole('button', { name: 'Review refund' }).click();
    await dialog.getByRole('button', { name: `Refund $${centsToDecimal(unsettled.total)}` }).click();
    await visible(page, 'Payment voided');
    await poll(() => page.getByTestId('refundable').textContent()).toBe('Nothing left to refund$0.00');
    expect(await page.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
    expect((await db().query(`select kind, status from payment_transactions where order_id = $1 and kind <> 'charge'`, [unsettled.id])).rows).toEqual([{ kind: 'void', status: 'approved' }]);

    // The audit trail of the settled order: who refunded, before and after.
    await page.goto(`/admin/audit?entityType=order&entityId=${settled.id}`);
    const row = page.locator('tbody tr', { hasText: 'Refunded order' });
    await poll(() => row.count()).toBe(1);
    const text = (await row.textContent()) ?? '';
    for (const words of [invited, 'Manager', settled.id, 'Refunded', 'Reason', 'Damaged in transit']) expect(text).toContain(words);
    expect(await row.getByTestId('audit-before').allTextContents()).toEqual(['0.00']);
    expect(await row.getByTestId('audit-after').allTextContents()).toEqual(['10.00', 'refund', '10.00', 'Damaged in transit', 'Yes', 'Yes']);
  });

  it('the order table: search, sort by total and date, filters, pages, a row opens the order and Back keeps the view; the bulk retry of failed syncs', async () => {
    // 30 orders of one customer name, placed on days long past, every third one failed at NetSuite.
    const marker = `Tabulator${suffix}`;
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { rows } = await db().query<{ id: string }>(
        `insert into orders (customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, promo_code, netsuite_sync_status, created_at)
         values ($1, $2, '{"address":"1 Table St","city":"Austin","state":"TX","zip":"78701"}', '[]', $3, '0.00', '0.00', $3, $4, $5, $6) returning id`,
        [
          `tab-${i}-${suffix}@example.com`,
          `${marker} ${String(i).padStart(2, '0')}`,
          `${10 + i}.00`,
          i % 5 === 0 ? `TAB${suffix.toUpperCase()}` : null,
          i % 3 === 0 ? 'failed' : 'not_configured',
          `2020-01-${String(1 + i).padStart(2, '0')}T12:00:00Z`,
        ],
      );
      ids.push(rows[0]!.id);
    }
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await signIn(page, manager.email);
    await page.getByLabel('Search orders').fill(marker);
    const count = page.getByTestId('orders-count');
    await poll(() => count.textContent()).toBe('1–30 of 30 orders');
    const names = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelector('td:nth-child(4) span')?.textContent ?? ''));
    // Newest first by default (the select column comes first for a manager).
    await poll(async () => (await names())[0]).toBe(`${marker} 29`);

    await page.getByRole('columnheader', { name: /Total/ }).getByRole('button').click();
    // The highest total is also the newest order, so the first row alone cannot tell that the sort has
    // taken effect: wait for the header to say so first.
    await poll(() => page.getByRole('columnheader', { name: /Total/ }).getAttribute('aria-sort')).toBe('descending');
    await poll(async () => (await names())[0]).toBe(`${marker} 29`);
    await page.getByRole('columnheader', { name: /Total/ }).getByRole('button').click();
    await poll(async () => (await names())[0]).toBe(`${marker} 00`);
    await page.getByRole('columnheader', { name: /Placed/ }).getByRole('button').click();
    await poll(async () => (await names())[0]).toBe(`${marker} 29`);

    await choose(page, 'Rows per page', '25');
    await poll(() => count.textContent()).toBe('1–25 of 30 orders');
    await page.getByRole('button', { name: 'Next' }).click();
    await poll(() => count.textContent()).toBe('26–30 of 30 orders');
    expect(new URL(page.url()).searchParams.get('page')).toBe('1');

    await page.getByLabel('Placed from').fill('2020-01-05');
    await page.getByLabel('Placed to').fill('2020-01-14');
    await poll(() => count.textContent()).toBe('1–10 of 10 orders');
    await page.getByLabel('Promo code').fill(`tab${suffix}`);
    await poll(() => count.textContent()).toBe('1–2 of 2 orders');
    await page.getByLabel('Promo code').fill('');
    await choose(page, 'NetSuite status', 'Not configured');
    await poll(() => count.textContent()).toBe('1–7 of 7 orders');
    expect(new URL(page.url()).searchParams.get('netsuite')).toBe('not_configured');

    // A row opens the order; Back to Orders returns to the same view.
    await page.getByTestId(`order-${ids[13]}`).click();
    await poll(() => page.getByRole('heading', { name: `Order ${ids[13]}` }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Back to Orders' }).click();
    await poll(() => count.textContent()).toBe('1–7 of 7 orders');
    expect(await page.getByLabel('Placed from').inputValue()).toBe('2020-01-05');

    // The failed ones, every one chosen at once, sent to NetSuite again.
    await choose(page, 'NetSuite status', 'Failed');
    await poll(() => count.textContent()).toBe('1–3 of 3 orders');
    await page.getByRole('checkbox', { name: 'Select every failed order on this page' }).click();
    await page.getByRole('button', { name: 'Retry NetSuite sync (3)' }).click();
    await visible(page, '3 orders will be sent to NetSuite again.');
    const failedInRange = [6, 9, 12].map((i) => ids[i]!);
    await poll(async () => (await db().query(`select count(*)::int as n from orders where id = any($1) and netsuite_sync_status = 'pending'`, [failedInRange])).rows[0]!.n).toBe(3);
    expect((await db().query(`select count(*)::int as n from orders where id = any($1) and netsuite_sync_status = 'failed'`, [ids])).rows[0]!.n).toBe(7);
    expect((await db().query(`select count(*)::int as n from outbox where topic = 'order.sync-requested' and payload->>'orderId' = any($1)`, [failedInRange])).rows[0]!.n).toBe(3);
    await poll(() => page.getByText('No orders found.').isVisible()).toBe(true);
  });

  it('exports with filters: a live progress bar, the file saved by the browser from the server, the history with who and what', async () => {
    const page = await app.newPage();
    await page.goto('/admin-orders');
    await signIn(page, manager.email);
    const panel = page.getByTestId('export-panel');
    await poll(() => panel.isVisible()).toBe(true);
    await panel.getByLabel('From').fill('2020-01-01');
    await panel.getByLabel('To').fill('2020-01-31');
    await panel.getByLabel('Order status').click();
    await page.getByRole('option', { name: 'Pending', exact: true }).click();
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await panel.getByRole('button', { name: 'Export CSV' }).click();

    // No worker runs here: the test plays the exports worker on the job's row.
    let exportId: string | undefined;
    await poll(async () => {
      const { rows } = await db().query<{ id: string }>(`select id from exports where staff_email = $1 and status = 'queued' order by created_at desc limit 1`, [manager.email]);
      exportId = rows[0]?.id;
      return exportId !== undefined;
    }).toBe(true);
    expect((await db().query(`select filters from exports where id = $1`, [exportId])).rows[0]!.filters).toEqual({ from: '2020-01-01', to: '2020-01-31', status: 'pending' });
    await db().query(`update exports set status = 'running', started_at = now(), rows_total = 40, rows_done = 10 where id = $1`, [exportId]);
    const bar = panel.getByRole('progressbar', { name: 'Export progress' });
    await poll(() => bar.getAttribute('aria-valuenow')).toBe('25');
    await visible(page, '10 of 40 orders');
    await db().query(`update exports set rows_done = 30 where id = $1`, [exportId]);
    await poll(() => bar.getAttribute('aria-valuenow')).toBe('75');

    // The worker's write: the file stored under its key, the row completed with it.
    const csv = 'Order ID,Email\r\nabc,a@example.com\r\n';
    await app.api.services.files.exports.put(`${exportId}.csv`, Buffer.from(csv), { contentType: 'text/csv; charset=utf-8' });
    await db().query(
      `update exports set status = 'completed', file_path = $2, file_name = $3, rows_done = 40, size_bytes = $4, finished_at = now(), expires_at = now() + interval '24 hours' where id = $1`,
      [exportId, `${exportId}.csv`, exportDownloadName(), Buffer.byteLength(csv)],
    );
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(exportDownloadName());
    expect(saved.url()).toContain(`/api/admin/orders/export/${exportId}/download?storeCode=NH`);
    expect(fs.readFileSync(await saved.path(), 'utf8')).toBe(csv);
    await visible(page, 'Orders exported successfully');
    await poll(() => bar.getAttribute('aria-valuenow')).toBe('100');

    const entry = panel.getByTestId(`export-${exportId}`);
    await poll(() => entry.isVisible()).toBe(true);
    const text = (await entry.textContent()) ?? '';
    for (const words of [manager.email, 'Pending orders placed Jan 1, 2020 – Jan 31, 2020', '40', '35 B', 'Download until']) expect(text).toContain(words);
    // The history's link is a plain download of the same stream, audited as a download.
    const again = page.waitForEvent('download', { timeout: 30_000 });
    await entry.getByRole('link', { name: /^Download the export started/ }).click();
    expect(fs.readFileSync(await (await again).path(), 'utf8')).toBe(csv);
    await poll(async () => (await db().query(`select count(*)::int as n from audit_events where action = 'export.downloaded' and entity_id = $1`, [exportId])).rows[0]!.n).toBe(2);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
