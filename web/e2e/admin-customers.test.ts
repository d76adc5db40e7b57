/**
 * Customers in the back office in real Chromium against the real API, database and built SPA (issue 23):
 * a support agent finds a customer by email (a guest's orders and the account's joined), writes a note,
 * writes a note on one of the orders from the order page, and the customer's page shows it all in one
 * timeline; axe on the new screens.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, seriousAxeViolations, visible } from './support/page-helpers';
import { startE2eApp, type E2eApp } from './support/app';
import { insertE2eOrder } from './support/shop';
import { addStaff, signInStaff } from './support/staff';

const PASSWORD = 'e2e customers staff password';
const suffix = randomUUID().slice(0, 6);
const email = `leaky.${suffix}@example.com`;
let app: E2eApp;
const agent = { email: `e2e-customers-support-${suffix}@staff.test`, name: `Sam Support ${suffix}` };
const orderIds: string[] = [];

const db = () => app.api.ctx.db.$client;

beforeAll(async () => {
  app = await startE2eApp();
  await addStaff(app, PASSWORD, [{ ...agent, role: 'support' }]);
  for (const [total, daysAgo, status] of [
    ['30.00', 20, 'delivered'],
    ['24.50', 2, 'processing'],
  ] as const) {
    orderIds.push(await insertE2eOrder(app, { email, name: 'Lena Leak', lines: [{ productId: 1, productName: 'Refill Pouch', quantity: 1, price: '24.50' }], total, status, daysAgo }));
  }
});
afterAll(() => app?.close());

describe('customers in the back office', () => {
  it('an agent finds a customer by email, writes a note on them and on an order, and the customer page shows it all in one timeline', async () => {
    const page = await app.newPage();
    await page.goto('/admin/customers');
    await signInStaff(page, agent.email, PASSWORD);
    expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').allTextContents()).toEqual(['Dashboard', 'Orders', 'Customers', 'Subscriptions', 'Claims']);

    await page.getByLabel('Search customers').fill(email);
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await poll(() => new URL(page.url()).search).toBe(`?q=${encodeURIComponent(email)}`);
    const link = page.getByRole('link', { name: 'Lena Leak' });
    await poll(() => link.isVisible()).toBe(true);
    const row = page.locator('tr', { has: link });
    expect(await row.textContent()).toContain('$54.50');
    expect(await row.textContent()).toContain('Guest');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await link.click();

    await poll(() => new URL(page.url()).pathname.startsWith('/admin/customers/')).toBe(true);
    await visible(page, 'Lifetime spend');
    await page.getByLabel('Write a note on this customer').fill('Called: the refill arrived leaking, reship approved');
    await page.getByRole('button', { name: 'Save note' }).click();
    const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
    await poll(async () => (await timeline.getByRole('listitem').first().textContent()) ?? '').toContain('Called: the refill arrived leaking, reship approved');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A note on the latest order, from the order page: shown there and on the customer's page.
    await timeline.getByRole('link', { name: `Order ${orderIds[1]!.slice(0, 8)} placed` }).click();
    await poll(() => new URL(page.url()).pathname).toBe(`/admin-orders/${orderIds[1]}`);
    await page.getByLabel('Write a note on this order').fill('Replacement to go out with tracking');
    await page.getByRole('button', { name: 'Save note' }).click();
    await visible(page, 'Replacement to go out with tracking');
    await page.getByRole('link', { name: /Customer page/ }).click();
    await poll(() => new URL(page.url()).pathname.startsWith('/admin/customers/')).toBe(true);
    const entries = page.getByRole('list', { name: 'Timeline, newest first' }).getByRole('listitem');
    await poll(async () => (await entries.allTextContents()).length).toBeGreaterThanOrEqual(4);
    const texts = await entries.allTextContents();
    expect(texts[0]).toContain(`Note on order ${orderIds[1]!.slice(0, 8)}`);
    expect(texts[0]).toContain(agent.name);
    expect(texts[1]).toContain('reship approved');
    expect(texts.some((t) => t.includes(`Order ${orderIds[0]!.slice(0, 8)} placed`))).toBe(true);

    const { rows } = await db().query(`select action, actor_email from audit_events where action in ('customer.note_added', 'order.note_added') and actor_email = $1 order by id`, [agent.email]);
    expect(rows).toEqual([
      { action: 'customer.note_added', actor_email: agent.email },
      { action: 'order.note_added', actor_email: agent.email },
    ]);
  });
});
