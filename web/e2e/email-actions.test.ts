/**
 * One-click actions from emails (issue 22) in Chromium against the real API, database, built SPA and a
 * worker (renewals and emails, with its outbox relay) on the same queues, the emails sent to the local SMTP
 * test server: the renewal sweep sends a subscriber the reminder; its "Skip this delivery" link opens, in
 * a browser that is not signed in, a page naming the plan, the delivery and the effect; one click skips it;
 * the link then says it was used; and My Subscriptions (signed in) shows the skipped delivery.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPeriodOf, describeSkippedPeriod, RENEWAL_REMINDER_DAYS } from '@nh/shared/contracts/subscriptions';
import { EMAIL_ACTION_MESSAGES } from '@nh/shared/contracts/email-actions';
import type { WorkerRuntime } from '../../workers/src/runtime';
import { renewalSweepJob } from '../../workers/src/renewals/sweep';
import { TestSmtpServer } from '../../workers/test/support/smtp-server';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from '../../workers/test/support/setup';
import { startE2eApp, type E2eApp } from './support/app';
import { seriousAxeViolations, visible } from './support/page-helpers';
import { createE2eProduct, registerShopper, type E2eProduct } from './support/shop';

let tdb: TestDatabase;
let app: E2eApp;
let smtp: TestSmtpServer;
let workers: WorkerRuntime;
let product: E2eProduct;

beforeAll(async () => {
  tdb = await createTestDatabase('e2e_email_actions');
  smtp = await new TestSmtpServer().start();
  const workerConfig = testWorkerConfig(tdb.url, 'e2e-actions', {
    WORKER_QUEUES: 'renewals,emails',
    SMTP_URL: smtp.url,
    EMAIL_BACKOFF_MS: '50',
  });
  app = await startE2eApp({ DATABASE_URL: tdb.url, QUEUE_PREFIX: workerConfig.QUEUE_PREFIX });
  workers = await startTestWorkers(workerConfig);
  product = await createE2eProduct(app, 'E2E Action Cleaner');
}, 60_000);
afterAll(async () => {
  await workers?.close(2000);
  await app?.close();
  await smtp?.close();
  await tdb?.drop();
});

const db = () => app.api.ctx.db.$client;
const DAY_MS = 86_400_000;

/** The path of the link named `label` in the latest email to `to` (its token a path segment, never a query string). */
async function actionLinkFromEmail(to: string, label: string): Promise<string> {
  const mail = await waitFor(() => smtp.to(to).at(-1) ?? null, 30_000, `email to ${to}`);
  expect(mail.decoded).not.toMatch(/[?&#]token=/);
  const match = new RegExp(`^ {2}${label}: (https?://\\S+/email-actions/[A-Za-z0-9_-]{43})$`, 'm').exec(mail.decoded);
  expect(match, `the "${label}" link in the email`).not.toBeNull();
  return new URL(match![1]!).pathname;
}

describe('a subscriber acts from the reminder email', () => {
  it("skips the delivery from the email's link without signing in, and the plan shows the skipped delivery", async () => {
    const email = `e2e-actions-${randomUUID().slice(0, 8)}@example.com`;
    const home = await app.newPage();
    await home.goto('/api/login');
    await registerShopper(home, email);
    const { rows: users } = await db().query<{ id: string }>('select id from users where email = $1', [email]);
    // A plan billed RENEWAL_REMINDER_DAYS from today: the renewal sweep reminds it today.
    const due = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + RENEWAL_REMINDER_DAYS * DAY_MS + 14 * 3_600_000);
    const { rows: plans } = await db().query<{ id: string }>(
      `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, shipping_address, authnet_customer_profile_id, authnet_payment_profile_id)
       values ($1, $2, 'Rachel Carson', $3, '18.36', $4, $5, '9001', '9002') returning id`,
      [
        users[0]!.id,
        email,
        JSON.stringify([
          { productId: product.id, productName: product.name, variantSku: null, sku: null, itemNumber: null, quantity: 1, price: '20.00' },
        ]),
        due,
        JSON.stringify({ address: '11701 Berwick Rd', city: 'Silver Spring', state: 'MD', zip: '20904' }),
      ],
    );
    const planId = plans[0]!.id;

    await workers.queues.renewals.add(renewalSweepJob.name, {}, { jobId: `e2e-sweep-${randomUUID()}` });
    const path = await actionLinkFromEmail(email, 'Skip this delivery');

    // A browser that never signed in (a phone's mail app): the page names the plan, the delivery and the effect.
    const phone = await app.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(path);
    await phone.getByRole('heading', { name: 'Skip this delivery?' }).waitFor();
    const summary = phone.getByTestId('plan-summary');
    expect(await summary.textContent()).toContain(product.name);
    expect(await phone.getByTestId('email-action-effect').textContent()).toContain('will be skipped');
    // Fits a phone (no sideways scrolling) and passes the accessibility checks.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(phone)).toEqual([]);
    // Opening it changed nothing.
    const { rows: before } = await db().query<{ next_billing_date: Date }>('select next_billing_date from subscriptions where id = $1', [
      planId,
    ]);
    expect(before[0]!.next_billing_date.toISOString()).toBe(due.toISOString());

    await phone.getByRole('button', { name: 'Skip this delivery' }).click();
    await phone.getByTestId('email-action-done').waitFor();
    expect(await phone.getByTestId('email-action-done').textContent()).toContain('is skipped');

    // The link works once.
    await phone.reload();
    expect(await phone.getByTestId('link-unusable').textContent()).toBe(EMAIL_ACTION_MESSAGES.used);
    expect(await phone.getByRole('link', { name: 'Sign In with an Emailed Code' }).getAttribute('href')).toBe('/api/login');

    // The subscriber's own page shows the skipped delivery; the change is theirs, via email link.
    await home.goto('/subscriptions');
    await visible(home, describeSkippedPeriod({ period: billingPeriodOf(due), reason: 'shopper-skip' }, 'shopper'));
    const { rows: changes } = await db().query<{ actor: string; kind: string; via: string }>(
      'select actor, kind, via from subscription_changes where subscription_id = $1',
      [planId],
    );
    expect(changes).toEqual([{ actor: 'customer', kind: 'skipped', via: 'email-link' }]);
  });
});
