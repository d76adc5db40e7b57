/**
 * Issue 25 in the browser: the checkout summary asks the server's quote as the address is typed. A
 * per-ZIP rate table of the test's own (inlineTaxTable, handed to the test API) stands in for
 * TAX_MODE=table; the shipping zones are the shop's own rule (shared/shipping-rules.ts).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPPING_MESSAGES, shippingZoneOf } from '@nh/shared';
import { inlineTaxTable } from '@nh/server/testing/tax-table';
import { startE2eApp, type E2eApp } from './support/app';
import { createE2eProduct, fillCheckoutForm, newPageWithCart, type E2eProduct } from './support/shop';

/** Basis points by state and ZIP, or by state. */
const tableTax = inlineTaxTable({ 'CA:90001': '0.095', 'CA:94105': '0.0863', CA: '0.0725' });

let app: E2eApp;
let product: E2eProduct;

beforeAll(async () => {
  app = await startE2eApp({}, { services: { tax: tableTax } });
  product = await createE2eProduct(app, 'E2E Destination');
});
afterAll(() => app?.close());

async function openCheckout(quantity = 1): Promise<Page> {
  const page = await newPageWithCart(app, product, quantity);
  await page.goto('/checkout');
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
  return page;
}

/** Waits until the summary's `testId` reads `text` (the quote answers after the debounce). */
const summaryReads = (page: Page, testId: string, text: string) =>
  page.waitForFunction(([id, want]) => document.querySelector(`[data-testid="${id}"]`)?.textContent === want, [testId, text] as const, { timeout: 10_000 });

describe('checkout summary priced for the address (issue 25)', () => {
  it('updates tax and total as the ZIP is typed', async () => {
    const page = await openCheckout(1);
    await page.getByLabel('State').fill('CA');
    await page.getByLabel('ZIP Code').pressSequentially('90001', { delay: 30 });
    // $20.00 + $9.99 shipping + 9.5% tax ($1.90).
    await summaryReads(page, 'summary-total', '$31.89');
    expect(await page.getByTestId('summary-tax').textContent()).toBe('$1.90');
    await page.getByText('Tax', { exact: true }).waitFor();

    await page.getByLabel('ZIP Code').fill('941');
    await page.getByText('Estimated tax', { exact: true }).waitFor();
    await page.getByLabel('ZIP Code').pressSequentially('05', { delay: 30 });
    // 8.63% of $20.00 = $1.73.
    await summaryReads(page, 'summary-total', '$31.72');
    expect(await page.getByTestId('summary-tax').textContent()).toBe('$1.73');
    await page.getByText('Free shipping on orders over $50.00 and on Subscribe & Save.', { exact: true }).waitFor();
  });

  it('choosing express changes the total and the promise shown, and the order stores it', async () => {
    const page = await openCheckout(1);
    await fillCheckoutForm(page, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada-express@example.com', address: '1 Beach Rd', city: 'Honolulu', state: 'HI', zip: '96813' });
    const hawaii = shippingZoneOf('HI')!;
    await summaryReads(page, 'summary-shipping', '$14.99');
    await page.getByText(hawaii.standard.promise, { exact: true }).waitFor();
    await page.getByText(hawaii.express!.promise, { exact: true }).waitFor();
    await summaryReads(page, 'summary-total', '$34.99');

    await page.getByRole('radio', { name: /Express/ }).check();
    await summaryReads(page, 'summary-shipping', '$29.99');
    await summaryReads(page, 'summary-total', '$49.99');

    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/checkout/complete/'), { timeout: 20_000 });
    const { rows } = await app.api.ctx.db.$client.query<{ shipping: string; shipping_method: string; total: string; tax_source: string }>(
      `select shipping::text, shipping_method, total::text, tax_source from orders where customer_email = 'ada-express@example.com'`,
    );
    expect(rows).toEqual([{ shipping: '29.99', shipping_method: 'express', total: '49.99', tax_source: 'table' }]);
  });

  it('an address the shop does not ship to shows the message under the state field and is not placed', async () => {
    const page = await openCheckout(1);
    await fillCheckoutForm(page, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada-as@example.com', address: '1 Main St', city: 'Pago Pago', state: 'AS', zip: '96799' });
    const message = SHIPPING_MESSAGES.notShipped(shippingZoneOf('AS')!);
    await page.getByText(message, { exact: true }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/checkout');
    const { rows } = await app.api.ctx.db.$client.query(`select 1 from orders where customer_email = 'ada-as@example.com'`);
    expect(rows).toHaveLength(0);
  });
});
