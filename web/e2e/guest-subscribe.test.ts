/**
 * Issue 22 in Chromium: a guest ticks Subscribe & Save and confirms the email with the emailed code inside
 * checkout (the code travels outbox → relay → mail queue → the local SMTP server), without the page ever
 * leaving /checkout and without losing a typed field (card included); then pays, lands on the order's
 * confirmation page, and the plan belongs to the account of the verified email.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerRuntime } from '../../workers/src/runtime';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from '../../workers/test/support/setup';
import { TestSmtpServer } from '../../workers/test/support/smtp-server';
import { startE2eApp, type E2eApp } from './support/app';
import { createE2eProduct, fillCheckoutForm, newPageWithCart, type CheckoutCustomer, type E2eProduct } from './support/shop';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let app: E2eApp;
let workers: WorkerRuntime;
let product: E2eProduct;

beforeAll(async () => {
  tdb = await createTestDatabase('e2e_guest_sub');
  smtp = await new TestSmtpServer().start();
  app = await startE2eApp({ DATABASE_URL: tdb.url });
  workers = await startTestWorkers(testWorkerConfig(tdb.url, 'e2e-guest-sub', { SMTP_URL: smtp.url, WORKER_QUEUES: 'emails', EMAIL_BACKOFF_MS: '50', SHOP_SITE_URL: app.url }));
  product = await createE2eProduct(app, 'E2E Guest Plan Cleaner');
}, 60_000);
afterAll(async () => {
  await workers?.close(2000);
  await app?.close();
  await smtp?.close();
  await tdb?.drop();
});

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => app.api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

describe('a guest subscribes at checkout', () => {
  it('confirms the emailed code without leaving checkout, keeps the cart and the form, pays and owns the plan', async () => {
    const email = `e2e-guest-sub-${randomUUID().slice(0, 8)}@example.com`;
    const customer: CheckoutCustomer = { firstName: 'Rachel', lastName: 'Carson', email, address: '11701 Berwick Rd', city: 'Silver Spring', state: 'MD', zip: '20904' };
    const page = await newPageWithCart(app, product, 2);
    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    // Every document the tab shows from here on (a redirect to sign in would be one).
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });

    await fillCheckoutForm(page, customer);
    const subscribe = page.getByRole('checkbox', { name: /Subscribe & Save/ });
    await subscribe.click();
    // Asked inline, not ticked yet: nothing is charged before the email is verified.
    const codeBox = page.getByRole('group', { name: 'Confirm your email to subscribe' });
    await codeBox.waitFor();
    expect(await subscribe.getAttribute('aria-checked')).toBe('false');
    await codeBox.getByRole('button', { name: 'Email Me a Code' }).click();
    await codeBox.getByRole('status').filter({ hasText: /./ }).waitFor();

    const mail = await waitFor(() => smtp.to(email).find((m) => /sign-in code/.test(m.decoded)) ?? null, 30_000, `the code email to ${email}`);
    const code = /sign-in code is (\d{6})/.exec(mail.decoded)?.[1];
    expect(code, 'a 6-digit code in the email').toBeDefined();
    await codeBox.getByLabel('Code from the email').fill(code!);
    await codeBox.getByRole('button', { name: 'Confirm Email' }).click();

    // Verified: signed in, the box is gone, Subscribe & Save is ticked, and every typed field is as typed.
    await codeBox.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => subscribe.getAttribute('aria-checked'), { timeout: 15_000 }).toBe('true');
    const typed: Record<string, string> = {
      'First Name': customer.firstName,
      'Last Name': customer.lastName,
      Email: customer.email,
      Address: customer.address,
      City: customer.city,
      State: customer.state,
      'ZIP Code': customer.zip,
      'Card Number': '4111 1111 1111 1111',
      'Expiration Date': '12/30',
      CVV: '123',
    };
    for (const [label, value] of Object.entries(typed)) expect(await page.getByLabel(label, { exact: true }).inputValue(), label).toBe(value);
    // The cart is still there: the summary lists the product.
    await page.getByRole('complementary').getByText(product.name).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/checkout');
    expect(visited.every((path) => path === '/checkout'), `pages shown before paying: ${visited.join(', ')}`).toBe(true);

    await page.getByRole('button', { name: 'Start Subscription' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/checkout/complete/'), { timeout: 30_000 });
    const orderId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByText(/Your order #\w+ is confirmed/).waitFor({ timeout: 15_000 });
    await page.getByText(/Your next delivery is scheduled for/).first().waitFor();

    const [user] = await q<{ id: string }>(`select id from users where email = $1`, [email]);
    expect(user, 'the account made for the verified email').toBeDefined();
    const plans = await q<{ user_id: string; status: string; customer_email: string }>(`select user_id, status, customer_email from subscriptions where customer_email = $1`, [email]);
    expect(plans).toEqual([{ user_id: user!.id, status: 'active', customer_email: email }]);
    const [order] = await q<{ id: string; user_id: string; subscription_id: string | null }>(`select id, user_id, subscription_id from orders where id = $1`, [orderId]);
    expect(order).toMatchObject({ id: orderId, user_id: user!.id });
    expect(order!.subscription_id).not.toBeNull();
  });
});
