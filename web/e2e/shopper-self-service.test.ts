/**
 * Shoppers helping themselves (issue 13) in Chromium against the real API and the real workers: the
 * emails travel outbox → relay → mail queue → SMTP to the local SMTP test server, and the test follows
 * the links they carry. Order history and detail from the user menu; a guest's lookup by number and
 * email through the emailed single-use link; a password reset from the sign-in page's link, then
 * signing in with the new password. The app and the workers share a database of this file's own.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import { ACCOUNT_MESSAGES } from '@nh/shared/contracts/account';
import type { WorkerRuntime } from '../../workers/src/runtime';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from '../../workers/test/support/setup';
import { TestSmtpServer } from '../../workers/test/support/smtp-server';
import { startE2eApp, type E2eApp } from './support/app';
import { seriousAxeViolations } from './support/page-helpers';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let app: E2eApp;
let workers: WorkerRuntime;

beforeAll(async () => {
  tdb = await createTestDatabase('e2e_self');
  smtp = await new TestSmtpServer().start();
  app = await startE2eApp({ DATABASE_URL: tdb.url });
  workers = await startTestWorkers(testWorkerConfig(tdb.url, 'e2e-self', { SMTP_URL: smtp.url, WORKER_QUEUES: 'emails', EMAIL_BACKOFF_MS: '50', SHOP_SITE_URL: app.url }));
}, 60_000);
afterAll(async () => {
  await workers?.close(2000);
  await app?.close();
  await smtp?.close();
  await tdb?.drop();
});

const PASSWORD = 'first-password-1';

/** Creates an account on the API's own sign-in page; the page signs the shopper in and goes home. */
async function register(page: Page, email: string): Promise<string> {
  await page.goto('/api/login');
  await page.locator('#register-first').fill('Rachel');
  await page.locator('#register-last').fill('Carson');
  await page.locator('#register-email').fill(email);
  await page.locator('#register-password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL((url) => url.pathname === '/', { timeout: 20_000 });
  const [user] = await tdb.db.select({ id: tables.users.id }).from(tables.users).where(eq(tables.users.email, email));
  return user!.id;
}

async function placeOrder(o: { userId: string | null; email: string; createdAt?: Date; shipped?: boolean }): Promise<string> {
  const [row] = await tdb.db
    .insert(tables.orders)
    .values({
      userId: o.userId,
      customerEmail: o.email,
      customerName: 'Rachel Carson',
      shippingAddress: { address: '11701 Berwick Rd', city: 'Silver Spring', state: 'MD', zip: '20904' },
      items: [
        { productId: 1, productName: 'Flush Toilet Cleaner', variantSku: null, sku: 'NH-FLU-24', itemNumber: 'NH1001', quantity: 2, price: '12.99' },
        { productId: 2, productName: 'Dish Pods', variantSku: null, sku: 'NH-DSH-1', itemNumber: 'NH1002', quantity: 1, price: '14.99' },
      ],
      subtotal: 4097,
      shipping: 0,
      tax: 328,
      total: 4425,
      status: o.shipped ? 'shipped' : 'processing',
      carrier: o.shipped ? 'UPS' : null,
      trackingNumber: o.shipped ? '1Z999AA10123456784' : null,
      ...(o.createdAt ? { createdAt: o.createdAt } : {}),
    })
    .returning({ id: tables.orders.id });
  return row!.id;
}

/** The path and fragment of the link in the latest email to `to` whose path is `pathname` (its token in the fragment, which no server sees). */
async function linkFromEmail(to: string, pathname: string): Promise<string> {
  const mail = await waitFor(() => smtp.to(to).at(-1) ?? null, 20_000, `email to ${to}`);
  const match = new RegExp(`https?://[^\\s"<>]+${pathname.replace('/', '\\/')}#token=[A-Za-z0-9_-]+`).exec(mail.decoded);
  expect(match, `a ${pathname}#token=… link in the email`).not.toBeNull();
  const url = new URL(match![0]);
  return url.pathname + url.hash;
}

describe('shopper self-service in the browser', () => {
  it('shows My Orders from the user menu: the shopper’s orders newest first, then one with items, totals, carrier and tracking link', async () => {
    const email = `e2e-orders-${randomUUID().slice(0, 8)}@example.com`;
    const page = await app.newPage();
    const userId = await register(page, email);
    const older = await placeOrder({ userId, email, createdAt: new Date('2026-03-04T12:00:00Z') });
    const shipped = await placeOrder({ userId, email, shipped: true });
    const someoneElses = await placeOrder({ userId: null, email: `other-${randomUUID().slice(0, 8)}@example.com` });

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'My Orders' }).click();
    await page.waitForURL((url) => url.pathname === '/account/orders');
    const rows = page.getByRole('list', { name: 'Orders' }).getByRole('link');
    await rows.first().waitFor();
    expect(await rows.allInnerTexts()).toEqual([expect.stringContaining(`Order #${shipped.slice(0, 8)}`), expect.stringContaining(`Order #${older.slice(0, 8)}`)]);
    expect(await rows.first().innerText()).toContain('Shipped');
    expect(await rows.first().innerText()).toContain('$44.25');

    await rows.first().click();
    await page.waitForURL((url) => url.pathname === `/account/orders/${shipped}`);
    const details = page.getByTestId('order-details');
    await details.getByRole('heading', { name: `Order #${shipped.slice(0, 8)}` }).waitFor();
    const text = await details.innerText();
    for (const expected of ['Flush Toilet Cleaner', 'Dish Pods', '$25.98', '$40.97', '$3.28', '$44.25', 'UPS', '1Z999AA10123456784', '11701 Berwick Rd']) expect(text).toContain(expected);
    expect(await details.getByRole('link', { name: 'Track your parcel with UPS' }).getAttribute('href')).toContain('1Z999AA10123456784');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Another shopper's order, by its address: not found, nothing of it shown.
    await page.goto(`/account/orders/${someoneElses}`);
    await page.getByText(ACCOUNT_MESSAGES.orderNotFound).waitFor();
    expect(await page.getByTestId('order-details').count()).toBe(0);
  });

  it('lets a guest look an order up from the footer and open it once through the emailed link', async () => {
    const email = `e2e-guest-${randomUUID().slice(0, 8)}@example.com`;
    const orderId = await placeOrder({ userId: null, email, shipped: true });
    const page = await app.newPage();
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Order Lookup' }).click();
    await page.waitForURL((url) => url.pathname === '/orders/lookup');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByLabel('Order number').fill(`#${orderId.slice(0, 8)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByText(ACCOUNT_MESSAGES.lookupSent).waitFor();

    const link = await linkFromEmail(email, '/orders/view');
    await page.goto(link);
    const details = page.getByTestId('order-details');
    await details.getByRole('heading', { name: `Order #${orderId.slice(0, 8)}` }).waitFor();
    expect(await details.innerText()).toContain('1Z999AA10123456784');
    // The address no longer holds the token; a reload reads the order through this browser's hour of access.
    await page.waitForURL((url) => url.searchParams.get('order') === orderId && !url.searchParams.has('token') && url.hash === '');
    await page.reload();
    await details.getByRole('heading', { name: `Order #${orderId.slice(0, 8)}` }).waitFor();

    // The same link a second time (here in another browser): refused, nothing shown.
    const second = await app.newPage();
    await second.goto(link);
    await second.getByText(ACCOUNT_MESSAGES.orderLinkUsed).waitFor();
    expect(await second.getByTestId('order-details').count()).toBe(0);

    // A wrong email gets the same answer and no email.
    const wrong = `e2e-wrong-${randomUUID().slice(0, 8)}@example.com`;
    await second.goto('/orders/lookup');
    await second.getByLabel('Order number').fill(orderId.slice(0, 8));
    await second.getByLabel('Email').fill(wrong);
    await second.getByRole('button', { name: 'Email me a link' }).click();
    await second.getByText(ACCOUNT_MESSAGES.lookupSent).waitFor();
    expect(smtp.to(wrong)).toEqual([]);
  });

  it('resets a forgotten password through the emailed link, then signs in with the new one (the old one no longer works)', async () => {
    const email = `e2e-reset-${randomUUID().slice(0, 8)}@example.com`;
    const page = await app.newPage();
    await register(page, email);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/api/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL((url) => url.pathname === '/account/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(ACCOUNT_MESSAGES.resetSent).waitFor();

    await page.goto(await linkFromEmail(email, '/account/reset-password'));
    await page.getByLabel('New password', { exact: true }).waitFor();
    // The token is out of the address as soon as the page has read it; a reload of the tab still has it.
    await page.waitForURL((url) => url.pathname === '/account/reset-password' && url.hash === '' && url.search === '');
    await page.reload();
    await page.getByLabel('New password', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByLabel('New password', { exact: true }).fill('second-password-2');
    await page.getByLabel('Confirm new password').fill('second-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(ACCOUNT_MESSAGES.resetDone).waitFor();

    await page.getByRole('link', { name: 'Log In' }).click();
    await page.waitForURL((url) => url.pathname === '/api/login');
    await page.locator('#login-email').fill(email);
    await page.locator('#login-password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Incorrect email or password.').waitFor();
    await page.locator('#login-password').fill('second-password-2');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByText('Hi, Rachel').waitFor();
  });
});
