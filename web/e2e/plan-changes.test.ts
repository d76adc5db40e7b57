/**
 * A shopper changes a plan on My Subscriptions in Chromium (issue 13, "Plans"): skips the next delivery,
 * moves the one after it, and gives the plan a new card; then the renewal worker, on the new date,
 * charges that new card's stored profile once, for the new date, the plan's amount. And adds a size of a
 * product to a plan: its renewal charges the new amount and its order carries the added line. The app and the
 * workers share a database of this file's own and one queue prefix (the local sandbox keeps the stored
 * cards there, so the workers charge what the API stored).
 *
 * "On the new date": a renewal is due by the database's clock, which a test cannot move, so the plan's
 * billing date is moved back by the days that would have gone by (the sweep then sees it due today).
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, formatCents, pricePlan } from '@nh/shared';
import { SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import { LocalSandboxGateway, SANDBOX_API_LOGIN_ID, SANDBOX_CLIENT_KEY, subscriptionInvoiceNumber } from '@nh/server/payments';
import type { WorkerRuntime } from '../../workers/src/runtime';
import { renewalSweepJob } from '../../workers/src/renewals/sweep';
import { createTestDatabase, startTestWorkers, testWorkerConfig, type TestDatabase } from '../../workers/test/support/setup';
import { TestSmtpServer } from '../../workers/test/support/smtp-server';
import { startE2eApp, type E2eApp } from './support/app';
import { poll, seriousAxeViolations, toast, visible } from './support/page-helpers';
import { createE2eProduct, registerShopper, type E2eProduct } from './support/shop';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let app: E2eApp;
let workers: WorkerRuntime;
let product: E2eProduct;
/** A product with sizes the shopper adds to the plan (made before any page loads the cached product list). */
let refill: { id: number; name: string; gallonSku: string };

beforeAll(async () => {
  tdb = await createTestDatabase('e2e_plans');
  smtp = await new TestSmtpServer().start();
  app = await startE2eApp({ DATABASE_URL: tdb.url });
  workers = await startTestWorkers(
    testWorkerConfig(tdb.url, 'e2e-plans', { SMTP_URL: smtp.url, WORKER_QUEUES: 'renewals,emails', EMAIL_BACKOFF_MS: '50', QUEUE_PREFIX: app.api.ctx.config.QUEUE_PREFIX }),
  );
  product = await createE2eProduct(app, 'E2E Plan Cleaner');
  const name = `E2E Plan Refill ${randomUUID().slice(0, 6)}`;
  const gallonSku = `E2E-RF-128-${randomUUID().slice(0, 6)}`;
  const variants = [
    { label: '32 oz', price: '18.00', sku: `E2E-RF-32-${randomUUID().slice(0, 6)}` },
    { label: '1 gal', price: '45.00', sku: gallonSku },
  ];
  const [row] = await q<{ id: number }>(`insert into products (name, slug, price, inventory, status, variants) values ($1, $2, '18.00', 100, 'active', $3) returning id`, [
    name,
    name.toLowerCase().replace(/\s+/g, '-'),
    JSON.stringify(variants),
  ]);
  refill = { id: row!.id, name, gallonSku };
}, 60_000);
afterAll(async () => {
  await workers?.queues.renewals.removeJobScheduler('renewals-daily').catch(() => {});
  await workers?.close(2000);
  await app?.close();
  await smtp?.close();
  await tdb?.drop();
});

const DAY = 86_400_000;
const ADDRESS = { address: '11701 Berwick Rd', city: 'Silver Spring', state: 'MD', zip: '20904' };
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);
const utcDay = (days: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
};
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

async function register(page: Page, email: string): Promise<string> {
  await page.goto('/api/login');
  await registerShopper(page, email);
  const [user] = await q<{ id: string }>('select id from users where email = $1', [email]);
  return user!.id;
}

/** A plan as checkout leaves it: its first card (Visa ending 1111) stored with the sandbox. */
async function activePlan(userId: string, email: string, due: Date): Promise<{ id: string; oldPaymentProfileId: string }> {
  const sandbox = app.api.payments.sandbox!;
  const token = await sandbox.tokenize({
    authData: { clientKey: SANDBOX_CLIENT_KEY, apiLoginID: SANDBOX_API_LOGIN_ID },
    cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: ADDRESS.zip },
  });
  if (!('opaqueData' in token)) throw new Error('tokenise failed');
  const first = await sandbox.chargeOpaqueData({
    opaqueData: token.opaqueData,
    createProfile: true,
    amount: 3672,
    invoiceNumber: `T-${randomUUID().slice(0, 12)}`,
    email,
    billTo: { firstName: 'Rachel', lastName: 'Carson', ...ADDRESS },
  });
  const items = [{ productId: product.id, productName: product.name, variantSku: null, sku: null, itemNumber: null, quantity: 2, price: '20.00' }];
  const [row] = await q<{ id: string }>(
    `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, shipping_address,
       authnet_customer_profile_id, authnet_payment_profile_id, created_at)
     values ($1, $2, 'Rachel Carson', $3, '36.72', $4, 'active', $5, $6, $7, now() - interval '25 days') returning id`,
    [userId, email, JSON.stringify(items), due, JSON.stringify(ADDRESS), first.profile!.customerProfileId, first.profile!.paymentProfileId],
  );
  return { id: row!.id, oldPaymentProfileId: first.profile!.paymentProfileId };
}

const longDay = (date: Date) => new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(date);

describe('changing a plan in the browser, then its renewal', () => {
  it('skips the next delivery, moves the next one, changes the card; the renewal on the new date charges the new card once', async () => {
    const email = `e2e-plan-${randomUUID().slice(0, 8)}@example.com`;
    const page = await app.newPage();
    const userId = await register(page, email);
    // Due in 5 days at 15:00 UTC.
    const due = new Date(utcDay(5).getTime() + 15 * 3_600_000);
    const plan = await activePlan(userId, email, due);

    await page.goto('/subscriptions');
    const active = page.getByRole('region', { name: 'Active Subscriptions' });
    await active.getByText(product.name, { exact: true }).waitFor();
    expect(await seriousAxeViolations(page, ['wcag2a', 'wcag2aa'])).toEqual([]);

    // 1. Skip the next delivery.
    await active.getByRole('button', { name: /^Skip Next Delivery/ }).click();
    const skip = page.getByRole('dialog', { name: 'Skip the next delivery?' });
    expect(await seriousAxeViolations(page, ['wcag2a', 'wcag2aa'])).toEqual([]);
    await skip.getByRole('button', { name: 'Skip Delivery' }).click();
    await toast(page, SUBSCRIPTION_MESSAGES.skipped);
    await skip.waitFor({ state: 'hidden' });
    await visible(page, `Skipped: ${longDay(due)} — not charged (you skipped it)`);

    // 2. Move the next delivery to 20 days from today.
    const moved = utcDay(20);
    await active.getByRole('button', { name: /^Change Date/ }).click();
    const move = page.getByRole('dialog', { name: 'Change the next delivery date' });
    await move.getByLabel('New delivery date').fill(dayOf(moved));
    await move.getByRole('button', { name: 'Change Date' }).click();
    await toast(page, SUBSCRIPTION_MESSAGES.rescheduled);
    await move.waitFor({ state: 'hidden' });
    const [afterMove] = await q<{ next_billing_date: Date }>('select next_billing_date from subscriptions where id = $1', [plan.id]);
    expect(afterMove!.next_billing_date.toISOString()).toBe(`${dayOf(moved)}T15:00:00.000Z`);

    // A day outside the limits (today) is refused with the server's message; nothing changes.
    await active.getByRole('button', { name: /^Change Date/ }).click();
    await move.getByLabel('New delivery date').fill(dayOf(utcDay(0)));
    await move.getByRole('button', { name: 'Change Date' }).click();
    await toast(page, SUBSCRIPTION_MESSAGES.changeFailedTitle);
    await visible(page, /^Choose a day from /);
    expect(await move.isVisible()).toBe(true);
    await move.getByRole('button', { name: 'Keep Date' }).click();
    await move.waitFor({ state: 'hidden' });

    // 3. A new card (MasterCard ending 0015), typed in the dialog and tokenised as at checkout.
    await active.getByRole('button', { name: /^Change Card/ }).click();
    const card = page.getByRole('dialog', { name: 'Change the card' });
    await card.getByTestId('sandbox-alert').waitFor();
    await card.getByLabel('Card Number').fill('5424000000000015');
    await card.getByLabel('Expiration Date').fill('12/30');
    await card.getByLabel('CVV').fill('123');
    await card.getByLabel('ZIP Code').fill(ADDRESS.zip);
    await card.getByRole('button', { name: 'Save Card' }).click();
    await toast(page, SUBSCRIPTION_MESSAGES.cardChanged);
    await card.waitFor({ state: 'hidden' });
    await visible(page, 'Mastercard ending in 0015');
    const [afterCard] = await q<{ authnet_payment_profile_id: string }>('select authnet_payment_profile_id from subscriptions where id = $1', [plan.id]);
    expect(afterCard!.authnet_payment_profile_id).not.toBe(plan.oldPaymentProfileId);

    // 4. The new date comes: the daily sweep of that day charges the plan once, on the new card.
    const sandbox = workers.gateway as LocalSandboxGateway;
    const daysUntil = Math.round((moved.getTime() - utcDay(0).getTime()) / DAY);
    await q(`update subscriptions set next_billing_date = next_billing_date - make_interval(days => $2) where id = $1`, [plan.id, daysUntil]);
    await workers.queues.renewals.add(renewalSweepJob.name, {}, { jobId: `e2e-sweep-${randomUUID()}` });
    await poll(async () => (await q<{ status: string }>(`select status from payment_transactions where subscription_id = $1 and billing_period is not null`, [plan.id]))[0]?.status).toBe('approved');

    const charges = sandbox.charges.filter((c) => c.invoiceNumber?.startsWith(subscriptionInvoiceNumber(plan.id, '')));
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount: 3672, lastFour: '0015', invoiceNumber: subscriptionInvoiceNumber(plan.id, dayOf(utcDay(0))) });
    const payments = await q<{ billing_period: string; card_last_four: string; amount: string }>(
      `select billing_period, card_last_four, amount::text as amount from payment_transactions where subscription_id = $1 and billing_period is not null`,
      [plan.id],
    );
    expect(payments).toEqual([{ billing_period: dayOf(utcDay(0)), card_last_four: '0015', amount: '36.72' }]);
    // The skipped delivery was never charged.
    expect(sandbox.charges.some((c) => c.invoiceNumber === subscriptionInvoiceNumber(plan.id, dayOf(due)))).toBe(false);

    // The shopper got one confirmation per change.
    await poll(() => smtp.to(email).filter((m) => /Subject: (You skipped|Your next .* delivery is now on|The card for your)/.test(m.decoded)).length).toBe(3);
  });

  it('adds a size of a product in Change Items; the next renewal charges the new amount and its order carries the added line', async () => {
    const email = `e2e-plan-add-${randomUUID().slice(0, 8)}@example.com`;
    const page = await app.newPage();
    const userId = await register(page, email);
    const due = new Date(utcDay(3).getTime() + 15 * 3_600_000);
    const plan = await activePlan(userId, email, due);

    await page.goto('/subscriptions');
    const active = page.getByRole('region', { name: 'Active Subscriptions' });
    await active.getByText(product.name, { exact: true }).waitFor();
    await active.getByRole('button', { name: /^Change Items/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Change items' });
    await dialog.getByLabel('Add a product').selectOption({ label: `${refill.name} - 1 gal – $45.00` });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByLabel(`${refill.name} - 1 gal ($45.00 each, added)`).fill('2');
    expect(await seriousAxeViolations(page, ['wcag2a', 'wcag2aa'])).toEqual([]);
    await dialog.getByRole('button', { name: 'Save Items' }).click();

    // The server's new total: two of the plan's $20.00 item and two gallons at $45.00, with the plan's discount.
    const amount = pricePlan([{ price: 2000, quantity: 2 }, { price: 4500, quantity: 2 }], null).renewal.total;
    await toast(page, SUBSCRIPTION_MESSAGES.itemsChanged);
    await visible(page, new RegExp(`^Each delivery is now \\${formatCents(amount)}\\.`));
    await dialog.waitFor({ state: 'hidden' });
    await active.getByText(`${refill.name} - 1 gal`, { exact: true }).waitFor();

    // Its billing day comes: the daily sweep charges the new amount once, and the order carries the added line.
    const sandbox = workers.gateway as LocalSandboxGateway;
    await q(`update subscriptions set next_billing_date = next_billing_date - interval '3 days' where id = $1`, [plan.id]);
    await workers.queues.renewals.add(renewalSweepJob.name, {}, { jobId: `e2e-sweep-${randomUUID()}` });
    await poll(async () => (await q<{ status: string }>(`select status from payment_transactions where subscription_id = $1 and billing_period is not null`, [plan.id]))[0]?.status).toBe('approved');
    const charges = sandbox.charges.filter((c) => c.invoiceNumber?.startsWith(subscriptionInvoiceNumber(plan.id, '')));
    expect(charges).toEqual([expect.objectContaining({ amount, invoiceNumber: subscriptionInvoiceNumber(plan.id, dayOf(utcDay(0))) })]);
    const [order] = await q<{ items: Array<Record<string, unknown>>; total: string }>(`select items, total::text as total from orders where subscription_id = $1`, [plan.id]);
    expect(order!.total).toBe(centsToDecimal(amount));
    expect(order!.items).toEqual([
      expect.objectContaining({ productId: product.id, quantity: 2, price: '20.00' }),
      expect.objectContaining({ productId: refill.id, productName: `${refill.name} - 1 gal`, variantSku: refill.gallonSku, quantity: 2, price: '45.00' }),
    ]);

    // The confirmation says what was added.
    await poll(() => smtp.to(email).some((m) => m.decoded.includes(`You added: 2 x ${refill.name} - 1 gal.`))).toBe(true);
  });
});
