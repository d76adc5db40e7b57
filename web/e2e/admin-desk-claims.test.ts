/**
 * The support desk's leaking refill in real Chromium against the real API, database and built SPA
 * (issue 23): a support agent finds the customer by email, writes a note, opens the order with the
 * leaking refill, issues a free replacement for that line, and the customer's page shows the note, the
 * original order, the claim and the $0 replacement order in one timeline. The replacement goes to the
 * NetSuite sync once (its one `order.placed` outbox row) and is marked as the original's replacement.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS } from '@nh/shared/contracts/audit';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { poll, visible } from './support/page-helpers';
import { startE2eApp, type E2eApp } from './support/app';
import { createE2eProduct, insertE2eOrder, type E2eProduct } from './support/shop';
import { addStaff, signInStaff } from './support/staff';

const PASSWORD = 'e2e desk claims staff password';
const suffix = randomUUID().slice(0, 6);
const email = `drip.${suffix}@example.com`;
const agent = { email: `e2e-desk-support-${suffix}@staff.test`, name: `Dana Desk ${suffix}` };
let app: E2eApp;
let refill: E2eProduct;
let other: E2eProduct;
let orderId: string;

const db = () => app.api.ctx.db.$client;
const short = (id: string) => id.slice(0, 8);

beforeAll(async () => {
  app = await startE2eApp();
  await addStaff(app, PASSWORD, [{ ...agent, role: 'support' }]);
  refill = await createE2eProduct(app, 'Lavender Refill');
  other = await createE2eProduct(app, 'Glass Bottle');
  orderId = await insertE2eOrder(app, {
    email,
    name: 'Drew Drip',
    lines: [
      { productId: other.id, productName: other.name, quantity: 1, price: '20.00' },
      { productId: refill.id, productName: refill.name, quantity: 2, price: '20.00' },
    ],
    status: 'delivered',
    daysAgo: 3,
  });
});
afterAll(() => app?.close());

describe('a leaking refill at the support desk', () => {
  it('an agent finds the customer, writes a note, sends a free replacement of the leaking line, and the customer page shows it all in one timeline', async () => {
    const page = await app.newPage();
    await page.goto('/admin/customers');
    await signInStaff(page, agent.email, PASSWORD);

    // Find the customer by email and write the note.
    await page.getByLabel('Search customers').fill(email);
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const link = page.getByRole('link', { name: 'Drew Drip' });
    await poll(() => link.isVisible()).toBe(true);
    await link.click();
    await poll(() => new URL(page.url()).pathname.startsWith('/admin/customers/')).toBe(true);
    const customerPath = new URL(page.url()).pathname;
    await page.getByLabel('Write a note on this customer').fill('Called: the refill arrived leaking, free replacement approved');
    await page.getByRole('button', { name: 'Save note' }).click();
    const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
    await poll(async () => (await timeline.getByRole('listitem').first().textContent()) ?? '').toContain('free replacement approved');

    // The order with the leaking refill: a replacement of that line only.
    await timeline.getByRole('link', { name: `Order ${short(orderId)} placed` }).click();
    await poll(() => new URL(page.url()).pathname).toBe(`/admin-orders/${orderId}`);
    await page.getByRole('button', { name: 'Report a problem' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(`${refill.name} (ordered 2)`).fill('1');
    await dialog.getByLabel('Reason').selectOption({ label: 'Arrived leaking' });
    await dialog.getByLabel('Resolution').selectOption({ label: 'Free replacement' });
    await dialog.getByLabel('Note (staff only)').fill('Cap split in transit');
    await dialog.getByRole('button', { name: 'Make claim' }).click();
    await visible(page, 'Claim resolved');
    await poll(() => dialog.isVisible()).toBe(false);

    const { rows: replacements } = await db().query<{ id: string; total: string; items: Array<{ productId: number; quantity: number; price: string }> }>(
      `select id, total::text, items from orders where replacement_of_order_id = $1`,
      [orderId],
    );
    expect(replacements).toHaveLength(1);
    const replacement = replacements[0]!;
    expect(Number(replacement.total)).toBe(0);
    expect(replacement.items.map((i) => [i.productId, i.quantity, i.price])).toEqual([[refill.id, 1, '0.00']]);

    // The customer's page: the note, the original order, the claim and the $0 replacement, one timeline.
    await page.goto(customerPath);
    const entries = page.getByRole('list', { name: 'Timeline, newest first' }).getByRole('listitem');
    await poll(async () => (await entries.allTextContents()).some((t) => t.includes(`Order ${short(replacement.id)} placed`))).toBe(true);
    const texts = await entries.allTextContents();
    const at = (needle: string) => texts.findIndex((t) => t.includes(needle));
    expect(at('free replacement approved')).toBeGreaterThanOrEqual(0);
    expect(at(`Order ${short(orderId)} placed`)).toBeGreaterThanOrEqual(0);
    expect(texts[at(`Order ${short(orderId)} placed`)]).toContain('$60.00');
    const claim = texts.find((t) => t.includes(AUDIT_ACTION_LABELS['order.claim_resolved']));
    expect(claim).toContain(`Order ${short(orderId)}`);
    expect(claim).toContain(agent.email);
    // The claim names its replacement order, linked (issue 23 follow-up).
    const claimEntry = entries.filter({ hasText: AUDIT_ACTION_LABELS['order.claim_resolved'] });
    expect(await claimEntry.getByRole('link', { name: `Replacement order ${short(replacement.id)}` }).getAttribute('href')).toBe(`/admin-orders/${replacement.id}`);
    expect(texts[at(`Order ${short(replacement.id)} placed`)]).toContain('$0.00');
    // Newest first: the replacement and the claim come after the note, the original order before it.
    expect(at(`Order ${short(replacement.id)} placed`)).toBeLessThan(at(`Order ${short(orderId)} placed`));
    expect(at('free replacement approved')).toBeLessThan(at(`Order ${short(orderId)} placed`));

    // NetSuite: the replacement's one order.placed row (the sync's request), the claim audited once.
    const { rows: outbox } = await db().query(`select topic from outbox where topic = $1 and payload->>'orderId' = $2`, [OUTBOX_TOPICS.orderPlaced, replacement.id]);
    expect(outbox).toHaveLength(1);
    const { rows: audit } = await db().query(`select action from audit_events where entity_type = 'order' and entity_id = $1 and action like 'order.claim%'`, [orderId]);
    expect(audit).toEqual([{ action: 'order.claim_resolved' }]);
  });
});
