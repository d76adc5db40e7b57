/**
 * The back office's dashboard and Subscribe & Save plans in real Chromium against the real API,
 * database and built SPA (issue 11): support finds a plan and skips its next delivery on the customer's
 * behalf (the confirmation names the dates, the plan's next date moves, the skipped period and the
 * audit row are recorded, a manager sees the change in the plan's staff changes and the audit trail);
 * fulfilment lands on the dashboard; axe and a 360 px phone on the new screens.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaff } from '@nh/server/queries/staff';
import { hashPassword } from '@nh/server/passwords';
import { ADMIN_SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/admin-subscriptions';
import { nextBillingDate } from '@nh/shared/contracts/subscriptions';
import { STAFF_MESSAGES, type StaffRole } from '@nh/shared/contracts/staff';
import { poll, seriousAxeViolations, visible } from './support/page-helpers';
import { startE2eApp, type E2eApp } from './support/app';
import { createE2eProduct, type E2eProduct } from './support/shop';

const PASSWORD = 'e2e plans staff password';
const suffix = randomUUID().slice(0, 6);
/** A word only this file's plans carry in their customer name. */
const TAG = `Plantest${suffix}`;
let app: E2eApp;
let product: E2eProduct;
const staff = {} as Record<StaffRole, { email: string; name: string }>;
let planId: string;
let due: Date;

const db = () => app.api.ctx.db.$client;
const DAY = 86_400_000;
/** `days` from today (UTC) at 14:30. */
const onDay = (days: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY + 14.5 * 3_600_000);
};
/** A UTC day as the screens write it: "Mar 5, 2026". */
const day = (date: Date) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' }).format(date);

beforeAll(async () => {
  app = await startE2eApp();
  product = await createE2eProduct(app, 'Plans E2E Cleaner');
  const passwordHash = await hashPassword(PASSWORD);
  for (const role of ['manager', 'fulfilment', 'support'] as const) {
    staff[role] = { email: `e2e-plans-${role}-${suffix}@staff.test`, name: `Plans ${role} ${suffix}` };
    await insertStaff(app.api.ctx.db, { ...staff[role], role, passwordHash });
  }
  due = onDay(10);
  const items = [
    { productId: product.id, productName: product.name, variantSku: null, sku: null, itemNumber: null, quantity: 2, price: '20.00' },
  ];
  const { rows } = await db().query<{ id: string }>(
    `insert into subscriptions (customer_email, customer_name, items, interval, amount, discount_percent, next_billing_date, status, shipping_address,
                                authnet_customer_profile_id, authnet_payment_profile_id, created_at)
     values ($1, $2, $3::jsonb, 'monthly', '36.72', 15, $4, 'active', $5::jsonb, '9001', '9002', now() - interval '20 days') returning id`,
    [
      `ada.${suffix}@example.com`,
      `${TAG} Ada Saver`,
      JSON.stringify(items),
      due,
      JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' }),
    ],
  );
  planId = rows[0]!.id;
  // Charged last on a Visa ending 1111; the customer has since given the plan a Mastercard ending 0015 (issue 19).
  await db().query(
    `insert into payment_transactions (subscription_id, billing_period, amount, status, card_type, card_last_four, created_at)
     values ($1, to_char(now() - interval '20 days', 'YYYY-MM-DD'), '36.72', 'approved', 'Visa', '1111', now() - interval '20 days')`,
    [planId],
  );
  await db().query(`update subscriptions set card_type = 'MasterCard', card_last_four = '0015' where id = $1`, [planId]);
});
afterAll(() => app?.close());

async function signIn(page: Page, role: StaffRole) {
  await page.getByLabel('Email', { exact: true }).fill(staff[role].email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await visible(page, STAFF_MESSAGES.signedIn);
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });

describe('Subscribe & Save plans in the back office', () => {
  it('support skips the next delivery on the customer’s behalf: the confirmation names the dates, the next date moves, the change is recorded and a manager sees it', async () => {
    const page = await app.newPage();
    await page.goto('/admin/subscriptions');
    await signIn(page, 'support');
    expect(await nav(page).getByRole('link').allTextContents()).toEqual(['Dashboard', 'Orders', 'Customers', 'Subscriptions', 'Claims']);

    // Find the plan by the customer's name.
    await page.getByLabel('Search plans').fill(TAG);
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await poll(() => new URL(page.url()).search).toBe(`?search=${TAG}`);
    const row = page.getByTestId(`plan-${planId}`);
    await poll(() => row.isVisible()).toBe(true);
    expect(await row.textContent()).toContain(day(due));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await row.getByRole('link', { name: `${TAG} Ada Saver` }).click();

    await poll(() => new URL(page.url()).pathname).toBe(`/admin/subscriptions/${planId}`);
    const next = page.getByTestId('plan-next-billing');
    await poll(() => next.textContent()).toBe(day(due));
    // The plan's card, the one its renewals charge, not the card of its last charge.
    expect(await page.getByTestId('plan-card').textContent()).toBe('Mastercard ending 0015');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The confirmation says what will happen, in the plan's dates.
    const after = nextBillingDate(due, 'monthly', 1);
    await page.getByRole('button', { name: 'Skip next delivery' }).click();
    const dialog = page.getByRole('dialog', { name: 'Skip the next delivery?' });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.textContent()).toContain(`The delivery of ${day(due)} is not charged or sent. The next one is on ${day(after)}.`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Skip next delivery' }).click();
    await visible(page, ADMIN_SUBSCRIPTION_MESSAGES.skipped);
    await poll(() => dialog.count()).toBe(0);

    // The plan's next date moved, on the screen and in the database; the period is skipped by staff, never charged.
    await poll(() => next.textContent()).toBe(day(after));
    const plan = (await db().query<{ next_billing_date: Date }>('select next_billing_date from subscriptions where id = $1', [planId]))
      .rows[0]!;
    expect(plan.next_billing_date.toISOString()).toBe(after.toISOString());
    const skipped = await db().query<{ period: string; reason: string }>(
      'select billing_period as period, reason from subscription_skipped_periods where subscription_id = $1',
      [planId],
    );
    expect(skipped.rows).toEqual([{ period: due.toISOString().slice(0, 10), reason: 'staff-skip' }]);
    const history = page.getByTestId(`billing-${due.toISOString().slice(0, 10)}`);
    await poll(() => history.isVisible()).toBe(true);
    expect(await history.textContent()).toContain('skipped by staff for the customer');

    // The audit row names support, before and after.
    const audit = await db().query<{
      actor_email: string;
      actor_role: string;
      before: { nextBillingDate?: string };
      after: { nextBillingDate?: string };
    }>(
      `select actor_email, actor_role, before, after from audit_events where entity_type = 'subscription' and entity_id = $1 and action = 'subscription.skipped'`,
      [planId],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actor_email: staff.support.email, actor_role: 'support' });
    // Support does not read the audit trail: no staff changes on the plan.
    expect(await page.getByTestId('plan-history').count()).toBe(0);

    // A manager sees the change on the plan and in the audit trail.
    const managerPage = await app.newPage();
    await managerPage.goto(`/admin/subscriptions/${planId}`);
    await signIn(managerPage, 'manager');
    const changes = managerPage.getByTestId('plan-history');
    await poll(async () => (await changes.textContent()) ?? '').toContain('Skipped subscription delivery');
    expect(await changes.textContent()).toContain(staff.support.email);
    await changes.getByRole('link', { name: 'Open in the audit trail' }).click();
    const entry = managerPage.locator('tbody tr', { hasText: 'Skipped subscription delivery' });
    await poll(() => entry.count()).toBe(1);
    const text = (await entry.textContent()) ?? '';
    for (const words of [staff.support.email, 'Support', 'Subscription', planId]) expect(text).toContain(words);
  });

  it('lists the plan at risk when its item is out of stock, on the At risk tab', async () => {
    const items = [
      { productId: product.id, productName: product.name, variantSku: null, sku: null, itemNumber: null, quantity: 500, price: '20.00' },
    ];
    const { rows } = await db().query<{ id: string }>(
      `insert into subscriptions (customer_email, customer_name, items, interval, amount, next_billing_date, status, authnet_customer_profile_id, authnet_payment_profile_id)
       values ($1, $2, $3::jsonb, 'monthly', '9000.00', $4, 'active', '9001', '9002') returning id`,
      [`risky.${suffix}@example.com`, `${TAG} Risky Rita`, JSON.stringify(items), onDay(3)],
    );
    const page = await app.newPage();
    await page.goto('/admin/subscriptions?tab=at-risk&reason=item-unavailable');
    await signIn(page, 'manager');
    const row = page.getByTestId(`at-risk-${rows[0]!.id}`);
    // Sorted soonest first among every plan at risk in the database: page on until this one shows.
    await poll(async () => {
      if (await row.isVisible()) return true;
      const nextPage = page.getByRole('button', { name: 'Next' });
      if ((await nextPage.count()) > 0 && (await nextPage.isEnabled())) await nextPage.click();
      return false;
    }).toBe(true);
    expect(await row.textContent()).toContain(`${product.name}: Out of stock (needs 500, 100 in stock)`);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

describe('the dashboard', () => {
  it('opens for fulfilment at /admin with the figures, chart, NetSuite and queues, and no plan calls', async () => {
    const page = await app.newPage();
    const planCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/admin/subscriptions')) planCalls.push(request.url());
    });
    await page.goto('/admin');
    await signIn(page, 'fulfilment');
    await poll(() => page.getByRole('heading', { name: 'Dashboard', level: 1 }).isVisible()).toBe(true);
    await poll(() => page.getByTestId('stat-orders-today').isVisible()).toBe(true);
    expect(await nav(page).getByRole('link').allTextContents()).toEqual(['Dashboard', 'Orders']);
    for (const id of [
      'stat-revenue-30',
      'stat-aov',
      'stat-active-plans',
      'stat-mrr',
      'stat-renewals-due',
      'stat-dunning',
      'stat-paused',
      'dashboard-netsuite',
      'dashboard-queues',
    ]) {
      expect(await page.getByTestId(id).isVisible()).toBe(true);
    }
    expect(await page.getByTestId('stat-at-risk').count()).toBe(0);
    expect(await page.getByRole('img', { name: /Revenue per day, last 30 days/ }).isVisible()).toBe(true);
    expect(await page.getByTestId('sales-chart').locator('rect').count()).toBe(30);
    const queues = (await page.getByTestId('dashboard-queues').textContent()) ?? '';
    for (const words of ['NetSuite sync', 'Emails', 'Renewals', 'Exports']) expect(queues).toContain(words);
    expect(await page.getByTestId('dashboard-netsuite').textContent()).toContain('Not configured');
    expect(await page.locator('main').textContent()).not.toMatch(/not_configured|erp-sync/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(planCalls).toEqual([]);
  });

  it('has no serious axe-core violations for a manager on the dashboard and reviews, and fits a 360 px phone', async () => {
    const page = await app.newPage({ viewport: { width: 360, height: 740 } });
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await page.goto('/admin');
    await signIn(page, 'manager');
    await poll(() => page.getByTestId('stat-at-risk').isVisible()).toBe(true);
    expect(await fits()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await nav(page).getByRole('link', { name: 'Reviews' }).click();
    await poll(() => page.getByRole('heading', { name: 'Reviews', level: 1 }).isVisible()).toBe(true);
    await poll(() => page.getByText('Loading reviews...').count()).toBe(0);
    expect(await fits()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await nav(page).getByRole('link', { name: 'Subscriptions' }).click();
    await poll(() => page.getByRole('tab', { name: 'All plans' }).isVisible()).toBe(true);
    await poll(() => page.getByText('Loading plans...').count()).toBe(0);
    expect(await fits()).toBe(true);
    await page.goto(`/admin/subscriptions/${planId}`);
    await poll(() => page.getByTestId('plan-next-billing').isVisible()).toBe(true);
    expect(await fits()).toBe(true);
  });
});
