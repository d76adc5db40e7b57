/**
 * Subscribe & Save in Chromium against the real API and the local payment sandbox: a fresh shopper
 * registers on the built-in sign-in page, subscribes at checkout, finds the plan on My Subscriptions
 * and cancels it; a paused plan (its renewal could not be paid) is resumed with a new card.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@nh/shared';
import { SANDBOX_TEST_CARD } from '@nh/shared/contracts/checkout';
import { SUBSCRIPTION_DISCOUNT_PERCENT, SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import { startE2eApp, type E2eApp } from './support/app';
import { poll, seriousAxeViolations, toast, visible } from './support/page-helpers';
import { createE2eProduct, fillCheckoutForm, newPageWithCart, registerShopper as register, type E2eProduct } from './support/shop';

let app: E2eApp;
let product: E2eProduct;

beforeAll(async () => {
  app = await startE2eApp();
  product = await createE2eProduct(app, 'E2E Subscription Cleaner');
});
afterAll(() => app?.close());

const fillCheckout = (page: Page, email: string) =>
  fillCheckoutForm(page, { firstName: 'Rachel', lastName: 'Carson', email, address: '11701 Berwick Rd', city: 'Silver Spring', state: 'MD', zip: '20904' });

const region = (page: Page, name: string) => page.getByRole('region', { name });

describe('Subscribe & Save in the browser (local sandbox)', () => {
  it('asks a signed-out shopper to log in', async () => {
    const page = await app.newPage();
    await page.goto('/subscriptions');
    await page.getByRole('heading', { name: SUBSCRIPTION_MESSAGES.loginRequiredTitle, level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Log In', exact: true }).getAttribute('href')).toBe('/api/login');
  });

  it('registers, subscribes at checkout, lists the plan under Active, and cancels it into Past', async () => {
    const email = `e2e-sub-${randomUUID().slice(0, 8)}@example.com`;
    const page = await newPageWithCart(app, product, 2);

    await page.goto('/subscriptions');
    await page.getByRole('heading', { name: 'Login Required', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Log In', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/api/login');
    await register(page, email);

    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await fillCheckout(page, email);
    await page.getByLabel(/^Subscribe & Save/).check();
    await page.getByRole('button', { name: 'Start Subscription' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/checkout/complete/'), { timeout: 30_000 });
    await visible(page, SUBSCRIPTION_MESSAGES.created);
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.cart)).toBe('[]');

    const { rows } = await app.api.ctx.db.$client.query<{ id: string; status: string; next_billing_date: Date }>(
      `select s.id, s.status, s.next_billing_date from subscriptions s join users u on u.id = s.user_id where u.email = $1`,
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('active');
    // The toast shows the server's next billing date, in the shopper's calendar.
    const nextDelivery = await page.evaluate(
      (iso) => new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' }).format(new Date(iso)),
      rows[0]!.next_billing_date.toISOString(),
    );
    await visible(page, `Your next delivery is scheduled for ${nextDelivery}.`);

    await page.goto('/subscriptions');
    const active = region(page, 'Active Subscriptions');
    await active.getByText(product.name, { exact: true }).waitFor();
    expect(await active.getByText('Qty 2 × $20.00 each').isVisible()).toBe(true);
    expect(await active.getByText(`${SUBSCRIPTION_DISCOUNT_PERCENT}% off`).isVisible()).toBe(true);
    expect(await active.getByText(nextDelivery, { exact: true }).isVisible()).toBe(true);
    expect(await region(page, 'Past Subscriptions').count()).toBe(0);
    expect(await seriousAxeViolations(page, ['wcag2a', 'wcag2aa'])).toEqual([]);

    await active.getByRole('button', { name: /^Cancel Subscription/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this subscription?' });
    await dialog.getByRole('button', { name: 'Cancel Subscription', exact: true }).click();
    await toast(page, SUBSCRIPTION_MESSAGES.cancelled);

    const past = region(page, 'Past Subscriptions');
    await past.getByText(product.name, { exact: true }).waitFor();
    expect(await past.getByText('Cancelled', { exact: true }).isVisible()).toBe(true);
    expect(await active.getByText('You have no active subscriptions.').isVisible()).toBe(true);
    await poll(async () => (await app.api.ctx.db.$client.query<{ status: string }>(`select status from subscriptions where id = $1`, [rows[0]!.id])).rows[0]!.status).not.toBe(
      'active',
    );
  });

  it('with a promo code: the total shown is the amount sent and charged for the first delivery; the plan renews at the subscriber price; then signs out', async () => {
    const email = `e2e-sub-promo-${randomUUID().slice(0, 8)}@example.com`;
    const page = await newPageWithCart(app, product, 1);
    await page.goto('/api/login');
    await register(page, email);

    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await fillCheckout(page, email);
    await page.getByLabel(/^Subscribe & Save/).check();
    await page.locator('#promo-code').fill('welcome10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await toast(page, 'Success!');
    const shown = (await page.getByTestId('summary-total').textContent())!;
    // $20.00 − 15% = $17.00, − 10% = $15.30, + 8% tax = $16.52; renewals $17.00 + tax = $18.36.
    expect(shown).toBe('$16.52');
    expect(await page.getByTestId('summary-renewal').textContent()).toContain('Then $18.36 every month');

    const sent = page.waitForRequest((request) => request.url().endsWith('/api/payments/subscribe-nonce'));
    await page.getByRole('button', { name: 'Start Subscription' }).click();
    const body = (await sent).postDataJSON() as { amount: string; promoCode: string | null };
    expect(`$${body.amount}`).toBe(shown);
    expect(body.promoCode).toBe('WELCOME10');
    await page.waitForURL((url) => url.pathname.startsWith('/checkout/complete/'), { timeout: 30_000 });
    await visible(page, SUBSCRIPTION_MESSAGES.created);

    const { rows } = await app.api.ctx.db.$client.query<{ order_total: string; promo_code: string | null; plan_amount: string; charged: string }>(
      `select o.total::text as order_total, o.promo_code, s.amount::text as plan_amount, p.amount::text as charged
       from subscriptions s join users u on u.id = s.user_id join orders o on o.subscription_id = s.id join payment_transactions p on p.order_id = o.id
       where u.email = $1`,
      [email],
    );
    expect(rows).toEqual([{ order_total: '16.52', promo_code: 'WELCOME10', plan_amount: '18.36', charged: '16.52' }]);

    // Signing out is a POST from the user menu (a GET no longer signs anyone out).
    await page.getByRole('button', { name: 'Account menu' }).click();
    const signedOut = page.waitForResponse((r) => r.url().endsWith('/api/logout') && r.request().method() === 'POST');
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    expect((await signedOut).status()).toBe(303);
    await page.waitForURL((url) => url.pathname === '/');
    await poll(async () => page.evaluate(() => fetch('/api/auth/user').then((r) => r.json()))).toBeNull();
  });

  it('resumes a paused plan with a new card: a refused card keeps the dialog open, the sandbox card moves the plan under Active', async () => {
    const email = `e2e-resume-${randomUUID().slice(0, 8)}@example.com`;
    const page = await newPageWithCart(app, product, 1);
    await page.goto('/api/login');
    await register(page, email);

    // A plan whose renewal was declined through every retry: paused, its billing date in the past.
    const items = [{ productId: product.id, productName: product.name, variantSku: null, sku: null, itemNumber: null, quantity: 2, price: '20.00' }];
    const { rows } = await app.api.ctx.db.$client.query<{ id: string }>(
      `insert into subscriptions (user_id, customer_email, customer_name, items, interval, amount, discount_percent, next_billing_date, status, shipping_address, failed_attempts, created_at)
       select u.id, u.email, 'Rachel Carson', $2::jsonb, 'monthly', '36.72', 15, now() - interval '8 days', 'paused', $3::jsonb, 4, now() - interval '40 days'
       from users u where u.email = $1
       returning id`,
      [email, JSON.stringify(items), JSON.stringify({ address: '11701 Berwick Rd', city: 'Silver Spring', state: 'MD', zip: '20904' })],
    );
    expect(rows).toHaveLength(1);
    const planId = rows[0]!.id;

    await page.goto('/subscriptions');
    // A paused plan is not past (issue 21): it is listed with the active ones, marked paused.
    const past = region(page, 'Active Subscriptions');
    await past.getByText(product.name, { exact: true }).waitFor();
    expect(await past.getByText('Paused', { exact: true }).isVisible()).toBe(true);
    expect(await past.getByText('The last renewal could not be paid, so this plan is paused.').isVisible()).toBe(true);
    expect(await region(page, 'Past Subscriptions').count()).toBe(0);

    const resumeButton = past.getByRole('button', { name: /^Resume with a new card/ });
    await poll(() => resumeButton.isEnabled()).toBe(true);
    await resumeButton.click();
    const dialog = page.getByRole('dialog', { name: 'Resume with a new card' });
    await dialog.getByTestId('sandbox-alert').waitFor();
    expect(await dialog.getByTestId('sandbox-alert').textContent()).toContain(SANDBOX_TEST_CARD.number);
    expect(await seriousAxeViolations(page, ['wcag2a', 'wcag2aa'])).toEqual([]);

    // The sandbox refuses card code 901 (CVV check): the server's reason, and the dialog stays for another card.
    await dialog.getByLabel('Card Number').fill(SANDBOX_TEST_CARD.number);
    await dialog.getByLabel('Expiration Date').fill('12/30');
    await dialog.getByLabel('CVV').fill('901');
    await dialog.getByLabel('ZIP Code').fill('20904');
    await dialog.getByRole('button', { name: 'Resume Subscription' }).click();
    await toast(page, SUBSCRIPTION_MESSAGES.resumeFailedTitle, 'This transaction has been declined.');
    expect(await dialog.isVisible()).toBe(true);
    expect((await app.api.ctx.db.$client.query<{ status: string }>(`select status from subscriptions where id = $1`, [planId])).rows[0]!.status).toBe('paused');

    await dialog.getByLabel('CVV').fill('123');
    await dialog.getByRole('button', { name: 'Resume Subscription' }).click();
    await toast(page, SUBSCRIPTION_MESSAGES.resumed);
    await dialog.waitFor({ state: 'hidden' });

    const active = region(page, 'Active Subscriptions');
    await active.getByText(product.name, { exact: true }).waitFor();
    expect(await active.getByText('Active', { exact: true }).isVisible()).toBe(true);
    expect(await region(page, 'Past Subscriptions').count()).toBe(0);
    const { rows: after } = await app.api.ctx.db.$client.query<{ status: string; authnet_payment_profile_id: string | null }>(
      `select status, authnet_payment_profile_id from subscriptions where id = $1`,
      [planId],
    );
    expect(after[0]!.status).toBe('active');
    expect(after[0]!.authnet_payment_profile_id).toBeTruthy();
  });
});
