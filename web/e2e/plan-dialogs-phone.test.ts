/**
 * Every plan dialog on My Subscriptions fits a 360 px wide phone (issue 21: Change Items was 510 px wide
 * with 586 px of content, its native product select stretching it, and at 390 px the quantity boxes were
 * off-screen). Each dialog is opened at 360 × 740 and measured: no horizontal overflow inside it
 * (scrollWidth ≤ clientWidth), the dialog within the viewport, and each of its fields and buttons within it.
 */
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eApp, type E2eApp } from './support/app';
import { registerShopper } from './support/shop';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
}, 60_000);
afterAll(() => app?.close());

const PHONE = { width: 360, height: 740 };
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => app.api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

async function register(page: Page, email: string): Promise<string> {
  await page.goto('/api/login');
  await registerShopper(page, email);
  const [user] = await q<{ id: string }>('select id from users where email = $1', [email]);
  return user!.id;
}

/** A plan of `userId` with a long product name (a native select of such names is what stretched Change Items). */
async function insertPlan(userId: string, productName: string, o: { status: string; failedAttempts: number }): Promise<string> {
  const items = [{ productId: 1, productName, variantSku: null, sku: null, itemNumber: null, quantity: 2, price: '20.00' }];
  const [row] = await q<{ id: string }>(
    `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, failed_attempts, shipping_address,
       authnet_customer_profile_id, authnet_payment_profile_id)
     values ($1, 'phone@example.com', 'Rachel Carson', $2, '36.72', now() + interval '12 days', $3, $4, $5, '111', '222') returning id`,
    [userId, JSON.stringify(items), o.status, o.failedAttempts, JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' })],
  );
  return row!.id;
}

interface Fit {
  scrollWidth: number;
  clientWidth: number;
  left: number;
  right: number;
  viewport: number;
  /** Fields and buttons whose right edge is past the dialog's. */
  outside: string[];
}

async function measure(dialog: Locator): Promise<Fit> {
  return dialog.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const outside = [...el.querySelectorAll('input, select, button, label')]
      .filter((child) => {
        const r = child.getBoundingClientRect();
        return r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5);
      })
      .map((child) => `${child.tagName.toLowerCase()} ${(child.getAttribute('aria-label') ?? child.textContent ?? '').trim().slice(0, 40)}`);
    return { scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, left: box.left, right: box.right, viewport: window.innerWidth, outside };
  });
}

async function expectFits(page: Page, button: Locator, dialogName: string) {
  await button.click();
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.waitFor();
  // Let late content (the product list, the cadences) render before measuring.
  await page.waitForTimeout(300);
  const fit = await measure(dialog);
  expect({ dialog: dialogName, ...fit, overflows: fit.scrollWidth > fit.clientWidth }).toMatchObject({ overflows: false, outside: [] });
  expect(fit.left).toBeGreaterThanOrEqual(0);
  expect(fit.right).toBeLessThanOrEqual(fit.viewport);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

describe('plan dialogs on a 360 px phone', () => {
  it('every dialog of an active, a paused and a payment-failed plan fits, with no horizontal overflow', async () => {
    // A product with long size names in the shop: the "Add a product" select lists them.
    const name = `E2E Phone Extra Concentrated Multi-Surface Cleaner Refill ${randomUUID().slice(0, 6)}`;
    await q(`insert into products (name, slug, price, inventory, status, variants) values ($1, $2, '18.00', 100, 'active', $3)`, [
      name,
      name.toLowerCase().replace(/\s+/g, '-'),
      JSON.stringify([{ label: 'Family Size Value Pack of Twelve Bottles', price: '99.00', sku: `E2E-PH-${randomUUID().slice(0, 6)}` }]),
    ]);
    const page = await app.newPage({ viewport: PHONE });
    const userId = await register(page, `e2e-phone-${randomUUID().slice(0, 8)}@example.com`);
    await insertPlan(userId, 'Surfy Surface Cleaner Concentrate, Lavender and Eucalyptus, Refillable Glass Bottle', { status: 'active', failedAttempts: 0 });
    await page.goto('/subscriptions');
    const active = page.getByRole('region', { name: 'Active Subscriptions' });
    const card = active.getByRole('article').filter({ has: page.getByRole('button', { name: /^Skip Next Delivery/ }) });
    await card.waitFor();

    for (const [label, dialog] of [
      [/^Skip Next Delivery/, 'Skip the next delivery?'],
      [/^Change Date/, 'Change the next delivery date'],
      [/^Change Items/, 'Change items'],
      [/^Change Frequency/, 'Change delivery frequency'],
      [/^Pause/, 'Pause this subscription?'],
      [/^Cancel Subscription/, 'Cancel this subscription?'],
    ] as const) {
      await expectFits(page, card.getByRole('button', { name: label }), dialog);
    }
    const cardButton = card.getByRole('button', { name: /^Change Card/ });
    if (await cardButton.isEnabled()) await expectFits(page, cardButton, 'Change the card');

    // Change Items with a product added: the quantity boxes stay on screen.
    await card.getByRole('button', { name: /^Change Items/ }).click();
    const items = page.getByRole('dialog', { name: 'Change items' });
    const select = items.getByLabel('Add a product');
    await expect.poll(() => select.isEnabled(), { timeout: 15_000 }).toBe(true);
    await select.selectOption({ label: `${name} - Family Size Value Pack of Twelve Bottles – $99.00` });
    await items.getByRole('button', { name: 'Add', exact: true }).click();
    const fit = await measure(items);
    expect({ ...fit, overflows: fit.scrollWidth > fit.clientWidth }).toMatchObject({ overflows: false, outside: [] });
    for (const box of await items.locator('input[type=number]').all()) {
      const r = (await box.boundingBox())!;
      expect(r.x + r.width).toBeLessThanOrEqual(PHONE.width);
    }
    await page.keyboard.press('Escape');
    await items.waitFor({ state: 'hidden' });

    // A paused plan (resumed on its saved card) and one whose payment failed (a new card).
    await insertPlan(userId, 'Dishy Dishwasher Pods, Fragrance Free, Thirty Count', { status: 'paused', failedAttempts: 0 });
    await insertPlan(userId, 'Glassy Streak-Free Glass and Mirror Spray', { status: 'paused', failedAttempts: 4 });
    await page.reload();
    await active.getByRole('button', { name: /^Resume Subscription/ }).waitFor();
    await expectFits(page, active.getByRole('button', { name: /^Resume Subscription/ }), 'Resume this subscription?');
    const newCard = active.getByRole('button', { name: /^Resume with a new card/ });
    await expect.poll(() => newCard.isEnabled(), { timeout: 15_000 }).toBe(true);
    await expectFits(page, newCard, 'Resume with a new card');
  });
});
