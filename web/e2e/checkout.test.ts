/**
 * A full checkout in Chromium through the local payment sandbox: the SPA loads the sandbox's
 * Accept.js-compatible script from the API, tokenises the card, and places the order.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@nh/shared';
import { startE2eApp, type E2eApp } from './support/app';
import { createE2eProduct, fillCheckoutForm, newPageWithCart, type E2eProduct } from './support/shop';

let app: E2eApp;
let product: E2eProduct;

beforeAll(async () => {
  app = await startE2eApp();
  product = await createE2eProduct(app, 'E2E Cleaner');
});
afterAll(() => app?.close());

async function openCheckoutWithCart(quantity = 2): Promise<Page> {
  const page = await newPageWithCart(app, product, quantity);
  await page.goto('/checkout');
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
  return page;
}

const fillForm = (page: Page, zip = '12345') =>
  fillCheckoutForm(page, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', address: '1 Navy Way', city: 'Arlington', state: 'VA', zip });

const toastText = (page: Page) => page.locator('[data-state="open"]').filter({ hasText: /./ }).last();

describe('checkout in the browser (local sandbox)', () => {
  it('shows the empty cart state', async () => {
    const page = await app.newPage();
    await page.goto('/checkout');
    await page.getByText('Your cart is empty').waitFor();
    const link = page.getByRole('link', { name: 'Continue Shopping' });
    expect(await link.getAttribute('href')).toBe('/shop');
  });

  it('shows the sandbox alert, the trust badges, and every field rule message', async () => {
    const page = await openCheckoutWithCart();
    await page.getByTestId('sandbox-alert').waitFor();
    expect(await page.getByTestId('sandbox-alert').textContent()).toContain('4111 1111 1111 1111');
    for (const badge of ['Secure Checkout', 'Safe & Secure', 'Easy Returns']) expect(await page.getByText(badge, { exact: true }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Place Order' }).click();
    for (const message of [
      'First name is required',
      'Last name is required',
      'Valid email is required',
      'Address is required',
      'City is required',
      'State is required',
      'ZIP code is required',
      'Card number is required',
      'Use MM/YY format',
      'CVV is required',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await page.getByLabel('State').fill('');
    await page.getByLabel('State').pressSequentially('Virginia');
    expect(await page.getByLabel('State').inputValue()).toBe('Vi');
    await page.getByLabel('Expiration Date').fill('13/30');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByText('Use MM/YY format', { exact: true }).waitFor();
  });

  it('refuses an unknown promo code with the server text', async () => {
    const page = await openCheckoutWithCart();
    await page.getByLabel('Promo Code').fill('nosuchcode');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Invalid Code', { exact: true }).waitFor();
    await page.getByText('This promo code is invalid or expired', { exact: true }).waitFor();
  });

  it('places an order with a promo code: toast with the order number, cart cleared, the confirmation page (again after a reload)', async () => {
    const page = await openCheckoutWithCart(2);
    expect(await page.getByTestId('summary-total').textContent()).toBe('$53.19'); // 40.00 + 9.99 + 3.20
    await page.getByLabel('Promo Code').fill(' welcome10 ');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('applied-promo').waitFor();
    await page.getByText('Success!', { exact: true }).waitFor();
    expect(await page.getByTestId('summary-promo-discount').textContent()).toBe('-$4.00');
    expect(await page.getByTestId('summary-total').textContent()).toBe('$48.87'); // 36.00 + 9.99 + 2.88

    await fillForm(page);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/checkout/complete/'), { timeout: 20_000 });
    await page.getByText('Order placed successfully!', { exact: true }).waitFor();
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.cart)).toBe('[]');

    const { rows } = await app.api.ctx.db.$client.query<{ id: string; status: string; promo_code: string; total: string }>(
      `select id, status, promo_code, total::text from orders where customer_email = 'grace@example.com' and status = 'processing'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ promo_code: 'WELCOME10', total: '48.87' });
    expect(await toastText(page).textContent()).toContain(rows[0]!.id.slice(0, 8));
    // The confirmation page (issue 22) names the order, and a reload shows it again (the guest's browser may read it).
    await page.getByText(/Your order #\w+ is confirmed/).waitFor();
    await page.reload();
    await page.getByText(/Your order #\w+ is confirmed/).waitFor({ timeout: 15_000 });
    await page.getByTestId('expected-delivery').waitFor();
  });

  it('shows the decline for ZIP 46282 and stays on the checkout', async () => {
    const page = await openCheckoutWithCart(1);
    await fillForm(page, '46282');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByText('Payment failed', { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByText('This transaction has been declined.', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/checkout');
    expect(await page.getByRole('button', { name: 'Place Order' }).isEnabled()).toBe(true);
  });

  it('shows the tokeniser errors for a bad card number', async () => {
    const page = await openCheckoutWithCart(1);
    await fillForm(page);
    await page.getByLabel('Card Number').fill('4111 1111 1111 1112');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByText('Please provide valid credit card number.', { exact: true }).waitFor({ timeout: 15_000 });
  });
});
