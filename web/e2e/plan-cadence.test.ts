/**
 * Plans that fit each household (issue 21) in Chromium against the real API, database and built SPA: a
 * shopper picks "every 2 months" at checkout and My Subscriptions shows that cadence and the date it
 * gives; support changes the customer's cadence from the plan page and the customer's page shows it.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaff } from '@nh/server/queries/staff';
import { hashPassword } from '@nh/server/passwords';
import { ADMIN_SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/admin-subscriptions';
import { STAFF_MESSAGES } from '@nh/shared/contracts/staff';
import { nextBillingDate, SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import { startE2eApp, type E2eApp } from './support/app';
import { poll, visible } from './support/page-helpers';
import { createE2eProduct, fillCheckoutForm, newPageWithCart, registerShopper, type E2eProduct } from './support/shop';

const STAFF_PASSWORD = 'e2e cadence staff password';
const supportEmail = `e2e-cadence-support-${randomUUID().slice(0, 6)}@staff.test`;
let app: E2eApp;
let product: E2eProduct;

beforeAll(async () => {
  app = await startE2eApp();
  product = await createE2eProduct(app, 'E2E Cadence Cleaner');
  await insertStaff(app.api.ctx.db, { email: supportEmail, name: 'Cadence Support', role: 'support', passwordHash: await hashPassword(STAFF_PASSWORD) });
});
afterAll(() => app?.close());

const db = () => app.api.ctx.db.$client;
const region = (page: Page, name: string) => page.getByRole('region', { name });
/** A date as My Subscriptions writes it ("December 1, 2026"), in the page's calendar. */
const longDate = (page: Page, date: Date) =>
  page.evaluate((iso) => new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' }).format(new Date(iso)), date.toISOString());

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

interface PlanRow {
  id: string;
  interval_count: number;
  next_billing_date: Date;
  created_at: Date;
}
const planOf = async (email: string): Promise<PlanRow> => {
  const { rows } = await db().query<PlanRow>(
    `select s.id, s.interval_count, s.next_billing_date, s.created_at from subscriptions s join users u on u.id = s.user_id where u.email = $1`,
    [email],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
};

/** Registers, then subscribes at checkout delivering every `months` months; answers the plan. */
async function subscribeEvery(page: Page, email: string, months: number): Promise<PlanRow> {
  await page.goto('/api/login');
  await registerShopper(page, email);
  await page.goto('/checkout');
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
  await fillCheckoutForm(page, { firstName: 'Rachel', lastName: 'Carson', email, address: '11701 Berwick Rd', city: 'Silver Spring', state: 'MD', zip: '20904' });
  await page.getByLabel(/^Subscribe & Save/).check();
  const choice = page.getByTestId('cadence-choice');
  expect(await choice.locator('legend').textContent()).toBe('Deliver every 1, 2 or 3 months');
  await choice.getByLabel(`Every ${months} months`).check();
  await poll(async () => (await page.getByTestId('summary-renewal').textContent()) ?? '').toContain(`every ${months} months`);
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/payments/subscribe-nonce'));
  await page.getByRole('button', { name: 'Start Subscription' }).click();
  expect(((await sent).postDataJSON() as { intervalCount: number }).intervalCount).toBe(months);
  await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
  await visible(page, SUBSCRIPTION_MESSAGES.created);
  return planOf(email);
}

describe('a plan delivered every 2 months', () => {
  it('is chosen at checkout, shown on My Subscriptions with its date, and changed by support for the customer', async () => {
    const email = `e2e-cadence-${randomUUID().slice(0, 8)}@example.com`;
    const page = await newPageWithCart(app, product, 1);
    const plan = await subscribeEvery(page, email, 2);
    expect(plan.interval_count).toBe(2);
    // The first delivery is charged today; the next one two months on.
    expect(utcDay(plan.next_billing_date)).toBe(utcDay(nextBillingDate(plan.created_at, 'monthly', 2)));

    await page.goto('/subscriptions');
    const card = region(page, 'Active Subscriptions').getByTestId('subscription-card');
    await card.getByText(product.name, { exact: true }).waitFor();
    expect(await card.getByText('Every 2 months', { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText(await longDate(page, plan.next_billing_date), { exact: true }).isVisible()).toBe(true);

    // Support, on the phone with the customer, moves the plan to every 3 months.
    const staffPage = await app.newPage();
    await staffPage.goto(`/admin/subscriptions/${plan.id}`);
    await staffPage.getByLabel('Email', { exact: true }).fill(supportEmail);
    await staffPage.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD);
    await staffPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visible(staffPage, STAFF_MESSAGES.signedIn);
    await staffPage.getByRole('button', { name: 'Change delivery frequency' }).click();
    const dialog = staffPage.getByRole('dialog', { name: 'Change the delivery frequency' });
    await dialog.getByLabel('Every 3 months').check();
    await dialog.getByLabel('Reason (for the audit trail)').fill('Customer asked on the phone: too much product');
    await dialog.getByRole('button', { name: 'Change delivery frequency' }).click();
    await visible(staffPage, ADMIN_SUBSCRIPTION_MESSAGES.frequencyChanged);

    // Three months after the last delivery (today's first charge).
    const moved = await planOf(email);
    expect(moved.interval_count).toBe(3);
    expect(utcDay(moved.next_billing_date)).toBe(utcDay(nextBillingDate(plan.created_at, 'monthly', 3)));
    await page.reload();
    await card.getByText('Every 3 months', { exact: true }).waitFor();
    expect(await card.getByText(await longDate(page, moved.next_billing_date), { exact: true }).isVisible()).toBe(true);
  });
});
