/**
 * Issue 25: a plan keeps its pre-tax price, and its tax is worked out again at each renewal for its
 * shipping address (docs/decisions/tax-and-shipping.md, "Renewals"). The workers run with an inline
 * calculator of rates by state; the rate of the plan's state changes between two renewals: the second
 * charges the new tax, the order keeps it line by line, and the reminder and the confirmation say it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { centsToDecimal, formatCents, priceCart, toCents } from '@nh/shared';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import * as tables from '@nh/server/db/schema';
import type { LineItem } from '@nh/server/db/schema';
import { LocalSandboxGateway, subscriptionInvoiceNumber } from '@nh/server/payments';
import { inlineTaxTable } from '@nh/server/testing/tax-table';
import { email as renewalReminderJob } from '../src/emails/renewal-reminder';
import type { WorkerRuntime } from '../src/runtime';
import { renewNow } from './support/renew';
import { storedTestCard, TEST_ADDRESS } from './support/sandbox-card';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import { createLogger } from '@nh/server/observability/logger';

/** Rates by state, changed by the test, under the table's rules. */
const byState = inlineTaxTable();

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let runtime: WorkerRuntime;
let sandbox: LocalSandboxGateway;

beforeAll(async () => {
  tdb = await createTestDatabase('renewtax');
  smtp = await new TestSmtpServer().start();
  const config = testWorkerConfig(tdb.url, 'renewtax', { SMTP_URL: smtp.url, WORKER_QUEUES: 'renewals,emails', EMAIL_BACKOFF_MS: '50' });
  runtime = await startTestWorkers(config, createLogger('renewal-tax-test', 'silent'), { tax: byState });
  sandbox = runtime.gateway as LocalSandboxGateway;
});
afterAll(async () => {
  await runtime?.queues.renewals.removeJobScheduler('renewals-daily').catch(() => {});
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

async function product(price: string): Promise<LineItem> {
  const name = `Tax Renewal ${randomUUID().slice(0, 6)}`;
  const [row] = await tdb.db
    .insert(tables.products)
    .values({ name, slug: `tax-renewal-${randomUUID().slice(0, 8)}`, price: toCents(price), inventory: 50, status: 'active' })
    .returning({ id: tables.products.id });
  return { productId: row!.id, productName: name, variantSku: null, sku: null, itemNumber: null, quantity: 1, price };
}

const ordersOf = (id: string) => tdb.db.select().from(tables.orders).where(eq(tables.orders.subscriptionId, id)).orderBy(tables.orders.createdAt);
const DAY = 86_400_000;

describe('a renewal after the rate changed', () => {
  it('charges the pre-tax price held by the plan plus the new tax for its address, keeps the tax per line, and emails it', async () => {
    const items = [{ ...(await product('20.00')), quantity: 2 }, await product('12.50')];
    const cents = items.map((l) => ({ price: toCents(l.price), quantity: l.quantity }));
    // The plan's amount as every plan's: priced with the flat 8 % (48.19 for 44.62 before tax).
    const plan = priceCart(cents, { subscribe: true });
    expect(plan.lineNet).toEqual([3400, 1062]);
    expect(plan.total).toBe(4819);
    const profile = await storedTestCard(sandbox);
    const due = new Date(Date.now() - 3 * DAY);
    const [sub] = await tdb.db
      .insert(tables.subscriptions)
      .values({
        customerEmail: 'tax-renewal@example.com',
        customerName: 'Sam Saver',
        items,
        amount: plan.total,
        nextBillingDate: due,
        shippingAddress: TEST_ADDRESS,
        authnetCustomerProfileId: profile.customerProfileId,
        authnetPaymentProfileId: profile.paymentProfileId,
      })
      .returning({ id: tables.subscriptions.id });
    const id = sub!.id;

    // First renewal: 7 % in Illinois.
    byState.set(TEST_ADDRESS.state, '0.07');
    expect(await renewNow(runtime, id, due)).toMatchObject({ outcome: 'approved' });
    const first = sandbox.charges.filter((c) => c.invoiceNumber === subscriptionInvoiceNumber(id, billingPeriodOf(due)));
    expect(first.map((c) => c.amount)).toEqual([4462 + 238 + 74]);
    expect(byState.asked.at(-1)).toMatchObject({ to: { state: 'IL', zip: TEST_ADDRESS.zip }, lines: [{ productId: items[0]!.productId, amount: 3400 }, { productId: items[1]!.productId, amount: 1062 }], shipping: 0 });

    // The rate rises to 9.5 %: the reminder of the next delivery quotes the new tax.
    byState.set(TEST_ADDRESS.state, '0.095');
    const next = (await tdb.db.select().from(tables.subscriptions).where(eq(tables.subscriptions.id, id)))[0]!.nextBillingDate;
    const reminderId = renewalReminderJob.jobId(id, billingPeriodOf(next));
    await runtime.queues.emails.add(renewalReminderJob.name, { subscriptionId: id, period: billingPeriodOf(next) }, { jobId: reminderId });
    await waitFor(() => smtp.to('tax-renewal@example.com').some((m) => m.decoded.includes('renews on')), 10_000, 'renewal reminder');
    const reminder = smtp.to('tax-renewal@example.com').find((m) => m.decoded.includes('renews on'))!;
    expect(reminder.decoded).toContain(`we will charge ${formatCents(4462 + 323 + 101)} to your saved card`);
    expect(reminder.decoded).toContain(`This includes ${formatCents(424)} sales tax at today's rate for your shipping address.`);

    // A month on, the second renewal charges the held pre-tax price and the new tax: more than the plan's amount.
    const secondDue = new Date(Date.now() - DAY);
    await tdb.db.update(tables.subscriptions).set({ nextBillingDate: secondDue }).where(eq(tables.subscriptions.id, id));
    expect(await renewNow(runtime, id, secondDue)).toMatchObject({ outcome: 'approved' });
    const second = sandbox.charges.filter((c) => c.invoiceNumber === subscriptionInvoiceNumber(id, billingPeriodOf(secondDue)));
    expect(second.map((c) => c.amount)).toEqual([4886]);
    expect(4886).toBeGreaterThan(plan.total);

    const orders = await ordersOf(id);
    expect(orders).toHaveLength(2);
    expect(orders[0]).toMatchObject({ subtotal: 5250, discount: 788, shipping: 0, tax: 312, total: 4774, shippingTax: 0, taxSource: 'table', shippingMethod: 'standard' });
    expect(orders[0]!.items.map((l) => l.tax)).toEqual(['2.38', '0.74']);
    expect(orders[1]).toMatchObject({ subtotal: 5250, discount: 788, shipping: 0, tax: 424, total: 4886, shippingTax: 0, taxSource: 'table', shippingMethod: 'standard' });
    expect(orders[1]!.items.map((l) => l.tax)).toEqual([centsToDecimal(323), centsToDecimal(101)]);

    // Each renewal's order confirmation shows the tax the order stored.
    const confirmation = (orderId: string) => smtp.to('tax-renewal@example.com').find((m) => m.decoded.includes(`order confirmation #${orderId.slice(0, 8)}`));
    await waitFor(() => Boolean(confirmation(orders[1]!.id)), 10_000, 'second renewal confirmation');
    expect(confirmation(orders[1]!.id)!.decoded).toContain('Tax: $4.24');
    expect(confirmation(orders[1]!.id)!.decoded).toContain('Total: $48.86');
  });
});
