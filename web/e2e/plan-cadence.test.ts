/**
 * Plans that fit each household (issue 21) in Chromium against the real API, database, built SPA and a
 * renewals worker (with its outbox relay) on the same queues: a shopper picks "every 2 months" at
 * checkout and My Subscriptions shows that cadence and the date it gives; support changes the customer's
 * cadence and address from the plan page and the customer's page shows them; later the shopper adds a
 * one-time item and ships the next delivery now, and sees the amounts and dates at each step.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaff } from '@nh/server/queries/staff';
import { hashPassword } from '@nh/server/passwords';
import { ADMIN_SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/admin-subscriptions';
import { STAFF_MESSAGES } from '@nh/shared/contracts/staff';
import { billingPeriodOf, nextBillingDate, SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import { SHIP_NOW_STATE_WORDS } from '@nh/shared/contracts/ship-now-add-ons';
import { formatCents, toCents } from '@nh/shared/money';
import { priceRenewal } from '@nh/shared/pricing';
import type { WorkerRuntime } from '../../workers/src/runtime';
import { createTestDatabase, startTestWorkers, testWorkerConfig, type TestDatabase } from '../../workers/test/support/setup';
import { startE2eApp, type E2eApp } from './support/app';
import { poll, visible } from './support/page-helpers';
import { createE2eProduct, fillCheckoutForm, newPageWithCart, registerShopper, type E2eProduct } from './support/shop';

const STAFF_PASSWORD = 'e2e cadence staff password';
const supportEmail = `e2e-cadence-support-${randomUUID().slice(0, 6)}@staff.test`;
let tdb: TestDatabase;
let app: E2eApp;
let workers: WorkerRuntime;
let product: E2eProduct;
/** A one-time add-on (made before any page loads the catalogue, which the API caches). */
let brush: E2eProduct;

beforeAll(async () => {
  tdb = await createTestDatabase('e2e_cadence');
  // The renewals worker and the API on one database and one queue prefix: a ship-now's outbox row is
  // relayed to the renew job, charged on the card the checkout stored with the local sandbox.
  const workerConfig = testWorkerConfig(tdb.url, 'e2e-cadence', { WORKER_QUEUES: 'renewals' });
  app = await startE2eApp({ DATABASE_URL: tdb.url, QUEUE_PREFIX: workerConfig.QUEUE_PREFIX });
  workers = await startTestWorkers(workerConfig);
  product = await createE2eProduct(app, 'E2E Cadence Cleaner');
  brush = await createE2eProduct(app, 'E2E Bamboo Brush');
  await insertStaff(app.api.ctx.db, { email: supportEmail, name: 'Cadence Support', role: 'support', passwordHash: await hashPassword(STAFF_PASSWORD) });
}, 60_000);
afterAll(async () => {
  await workers?.close(2000);
  await app?.close();
  await tdb?.drop();
});

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
  amount: string;
}
const planOf = async (email: string): Promise<PlanRow> => {
  const { rows } = await db().query<PlanRow>(
    `select s.id, s.interval_count, s.next_billing_date, s.created_at, s.amount::text as amount from subscriptions s join users u on u.id = s.user_id where u.email = $1`,
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
  await page.waitForURL((url) => url.pathname.startsWith('/checkout/complete/'), { timeout: 30_000 });
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

    // And the address the next deliveries ship to.
    await staffPage.getByRole('button', { name: 'Change address' }).click();
    const addressDialog = staffPage.getByRole('dialog', { name: 'Change the delivery address' });
    await addressDialog.getByLabel('Address', { exact: true }).fill('77 Harbor Road');
    await addressDialog.getByLabel('City').fill('Portland');
    await addressDialog.getByLabel('State').fill('OR');
    await addressDialog.getByLabel('ZIP Code').fill('97201');
    await addressDialog.getByLabel('Reason (for the audit trail)').fill('Customer moved');
    await addressDialog.getByRole('button', { name: 'Change address' }).click();
    await visible(staffPage, ADMIN_SUBSCRIPTION_MESSAGES.addressChanged);

    // Three months after the last delivery (today's first charge).
    const moved = await planOf(email);
    expect(moved.interval_count).toBe(3);
    expect(utcDay(moved.next_billing_date)).toBe(utcDay(nextBillingDate(plan.created_at, 'monthly', 3)));
    await page.reload();
    await card.getByText('Every 3 months', { exact: true }).waitFor();
    expect(await card.getByText(await longDate(page, moved.next_billing_date), { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText('77 Harbor Road, Portland, OR 97201', { exact: true }).isVisible()).toBe(true);
  });

  it('adds a one-time item to the next delivery, ships it now, and shows the amounts and dates at each step', async () => {
    const email = `e2e-ship-now-${randomUUID().slice(0, 8)}@example.com`;
    const page = await newPageWithCart(app, product, 1);
    const plan = await subscribeEvery(page, email, 2);
    // The first delivery was 20 days ago (so today's is not the one already charged); the next is due 2 months after it.
    const first = new Date(Date.now() - 20 * 86_400_000);
    const due = nextBillingDate(first, 'monthly', 2);
    await db().query(`update payment_transactions set billing_period = $2 where subscription_id = $1`, [plan.id, billingPeriodOf(first)]);
    await db().query(`update subscriptions set created_at = $2, next_billing_date = $3 where id = $1`, [plan.id, first, due]);

    await page.goto('/subscriptions');
    const extras = page.getByTestId('plan-add-ons');
    await extras.getByText(`Next delivery: $${plan.amount} on ${await longDate(page, due)}`).waitFor();

    // A one-time brush: the next delivery's amount is the server's one computation with it (with the plan's discount).
    await extras.getByRole('combobox', { name: 'Add a one-time item' }).selectOption({ label: `${brush.name} – $20.00` });
    await extras.getByRole('button', { name: 'Add to Next Delivery' }).click();
    await extras.getByText(`1 × ${brush.name}`).waitFor();
    const withBrush = formatCents(priceRenewal([{ price: 2000, quantity: 1 }], toCents(plan.amount), [{ price: 2000, quantity: 1 }]).total);
    expect(withBrush).not.toBe(`$${plan.amount}`);
    await extras.getByText(`Next delivery: ${withBrush} on ${await longDate(page, due)}`).waitFor();

    // Ship now: the confirmation says what is charged today and the date after it.
    const today = new Date();
    const after = nextBillingDate(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) + (due.getTime() % 86_400_000)), 'monthly', 2);
    await extras.getByRole('button', { name: /^Ship Now/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Ship your next delivery today?' });
    expect(await dialog.textContent()).toContain(`We will charge ${withBrush} to your saved card today (your plan's items and your one-time item)`);
    expect(await dialog.textContent()).toContain(`After it, your next delivery is on ${await longDate(page, after)}.`);
    await dialog.getByRole('button', { name: 'Ship Now' }).click();

    // The worker charges it (the page polls): charged, the brush gone, the next delivery two months on.
    await page.getByTestId('ship-now-status').getByText(SHIP_NOW_STATE_WORDS.charged).waitFor({ timeout: 30_000 });
    await extras.getByText(`Next delivery: $${plan.amount} on ${await longDate(page, after)}`).waitFor();
    expect(await extras.getByText(`1 × ${brush.name}`).count()).toBe(0);
    const { rows: charges } = await db().query<{ billing_period: string; amount: string }>(
      `select billing_period, amount::text as amount from payment_transactions where subscription_id = $1 and status = 'approved' order by billing_period`,
      [plan.id],
    );
    expect(charges.map((c) => c.billing_period)).toEqual([billingPeriodOf(first), billingPeriodOf(today)]);
    expect(`$${charges[1]!.amount}`).toBe(withBrush);
    expect(utcDay((await planOf(email)).next_billing_date)).toBe(utcDay(after));
  });
});
