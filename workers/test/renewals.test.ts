/**
 * Renewal charging against the real database, Redis and the local sandbox gateway: stored profiles
 * are made as checkout makes them (a tokenised test card charged with createProfile), and a billing
 * ZIP of 46282 declines (the sandbox decides a profile charge on the billTo ZIP, here the shipping one).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { addMonths } from 'date-fns';
import { eq } from 'drizzle-orm';
import { formatCents, priceCart, SHOP, toCents } from '@nh/shared';
import { TAX_RATE_BPS } from '@nh/shared/constants';
import { percentOf } from '@nh/shared/money';
import * as tables from '@nh/server/db/schema';
import type { LineItem } from '@nh/server/db/schema';
import { nextBillingDate, RENEWAL_REMINDER_DAYS, SUBSCRIPTION_HEADS_UP_DAYS, subscriptionViewSchema } from '@nh/shared/contracts/subscriptions';
import { adminOrderSchema } from '@nh/shared/contracts/admin';
import {
  LocalSandboxGateway,
  SANDBOX_API_LOGIN_ID,
  SANDBOX_CLIENT_KEY,
  SANDBOX_DECLINE_ZIP,
  subscriptionInvoiceNumber,
  type StoredPaymentProfile,
} from '@nh/server/payments';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis, type Redis } from '@nh/server/runtime/redis';
import { addMissedSweep, createRenewalSweep, lastScheduledSweep, lastSweepAt, renewalSweepJob, type SweepResult } from '../src/renewals/sweep';
import { catchUp } from '../src/renewals/rules';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs } from '../../api/test/support/staff';
import { renewSubscriptionJob, type RenewResult } from '../src/renewals/renew';
import { emailsTotal, renewalsTotal } from '@nh/server/observability/metrics';
import { email as renewalReminderJob } from '../src/emails/renewal-reminder';
import { email as subscriptionItemUnavailableJob } from '../src/emails/subscription-item-unavailable';
// For the stored card's expiry (before the missed-sweep tests).
import { centsToDecimal, toPayloadStrings } from '@nh/shared';
import type { PaymentGateway } from '@nh/server/payments';
import { CARD_EXPIRY_LOOKUPS_PER_SWEEP, CARD_EXPIRY_MESSAGES, CARD_EXPIRY_SWEEP_PRIORITY, lookUpCardExpiry, recordCardExpiryJob } from '../src/renewals/card-expiry';
import { email as subscriptionCardExpiringJob, expiryMonth } from '../src/emails/subscription-card-expiring';
import type { WorkerRuntime } from '../src/runtime';
import { TestSmtpServer } from './support/smtp-server';
import { storedTestCard, TEST_ADDRESS } from './support/sandbox-card';
// For the resumed plans (at the end of the file).
import { planBillTo } from '@nh/server/payments';
import { OUTBOX_CHANNEL } from '@nh/server/queries/outbox';
import { createTestDatabase, sleep, startTestWorkers, sweepsFinished, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let runtime: WorkerRuntime;
let sandbox: LocalSandboxGateway;
/** For sweeps run outside the worker (their completion marker). */
let redis: Redis;

const DAY = 86_400_000;
const ADDRESS = TEST_ADDRESS;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);
const period = (date: Date) => date.toISOString().slice(0, 10);
/** Start of the UTC day `days` from today: when a retry after a decline is due. */
const utcDayFromToday = (days: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
};

let productCounter = 0;
async function makeProduct(inventory: number, price = '20.00'): Promise<{ id: number; name: string }> {
  productCounter++;
  const name = `Renewal Test Product ${productCounter}`;
  const [row] = await tdb.db
    .insert(tables.products)
    .values({ name, slug: `renewal-test-${productCounter}-${randomUUID().slice(0, 6)}`, price: toCents(price), inventory, status: 'active' })
    .returning({ id: tables.products.id });
  return { id: row!.id, name };
}

const line = (product: { id: number; name: string }, quantity: number, price = '20.00'): LineItem => ({
  productId: product.id,
  productName: product.name,
  variantSku: null,
  sku: null,
  itemNumber: null,
  quantity,
  price,
});

const makeProfile = () => storedTestCard(sandbox);

interface SubscriptionInput {
  email: string;
  items: LineItem[];
  due: Date;
  zip?: string;
  status?: 'active' | 'paused' | 'cancelled';
  failedAttempts?: number;
  retryAt?: Date | null;
  profile?: StoredPaymentProfile | null;
  /** The plan's agreed amount (default: its items priced today as any plan delivery). */
  amount?: number;
  /** Months between deliveries (default 1). */
  intervalCount?: number;
}

async function makeSubscription(input: SubscriptionInput): Promise<{ id: string; amount: number }> {
  const profile = input.profile === undefined ? await makeProfile() : input.profile;
  const amount = input.amount ?? priceCart(input.items.map((l) => ({ price: toCents(l.price), quantity: l.quantity })), { subscribe: true }).total;
  const [row] = await tdb.db
    .insert(tables.subscriptions)
    .values({
      customerEmail: input.email,
      customerName: 'Sam Saver',
      items: input.items,
      amount,
      nextBillingDate: input.due,
      intervalCount: input.intervalCount ?? 1,
      status: input.status ?? 'active',
      shippingAddress: { ...ADDRESS, zip: input.zip ?? ADDRESS.zip },
      failedAttempts: input.failedAttempts ?? 0,
      retryAt: input.retryAt ?? null,
      authnetCustomerProfileId: profile?.customerProfileId ?? null,
      authnetPaymentProfileId: profile?.paymentProfileId ?? null,
    })
    .returning({ id: tables.subscriptions.id });
  return { id: row!.id, amount };
}

const subscription = async (id: string) => (await tdb.db.select().from(tables.subscriptions).where(eq(tables.subscriptions.id, id)))[0]!;
const ordersOf = (id: string) => tdb.db.select().from(tables.orders).where(eq(tables.orders.subscriptionId, id));
const paymentsOf = (id: string) => tdb.db.select().from(tables.paymentTransactions).where(eq(tables.paymentTransactions.subscriptionId, id));
const inventory = async (productId: number) => (await tdb.db.select({ n: tables.products.inventory }).from(tables.products).where(eq(tables.products.id, productId)))[0]!.n;
const chargesFor = (subscriptionId: string, due: Date) => sandbox.charges.filter((c) => c.invoiceNumber === subscriptionInvoiceNumber(subscriptionId, period(due)));
const outboxRows = (topic: string, key: string, value: string) => q<{ id: number }>(`select id from outbox where topic = $1 and payload->>$2 = $3`, [topic, key, value]);
/** Every renewal charge of a plan, whatever its period. */
const allChargesOf = (subscriptionId: string) => sandbox.charges.filter((c) => c.invoiceNumber?.startsWith(subscriptionInvoiceNumber(subscriptionId, '')));
const skippedOf = (subscriptionId: string) =>
  q<{ billing_period: string; reason: string }>('select billing_period, reason from subscription_skipped_periods where subscription_id = $1 order by billing_period', [subscriptionId]);

/**
 * The billing dates of a plan `behind` periods overdue: the first is its next billing date, the one
 * at `behind - 1` (yesterday or a little earlier) the current period, the last one in the future.
 */
function overdueDates(behind: number): Date[] {
  const dates = [addMonths(new Date(Date.now() - DAY), -(behind - 1))];
  for (let i = 0; i < behind; i++) dates.push(nextBillingDate(dates[i]!));
  expect(dates[behind - 1]!.getTime()).toBeLessThan(Date.now());
  expect(dates[behind]!.getTime()).toBeGreaterThan(Date.now());
  return dates;
}

async function finished(job: Job, rt: WorkerRuntime = runtime): Promise<unknown> {
  await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), 15_000, `job ${job.id}`);
  const done = await rt.queues.renewals.getJob(job.id!);
  if (done?.failedReason) throw new Error(done.failedReason);
  return done?.returnvalue;
}

/** Runs one renew job through the renewals queue (a fresh job id each time, so a repeat really runs). */
async function renew(subscriptionId: string, due: Date): Promise<RenewResult> {
  const job = await runtime.queues.renewals.add(renewSubscriptionJob.name, { subscriptionId, period: period(due) }, { jobId: `test-${randomUUID()}` });
  return (await finished(job)) as RenewResult;
}

beforeAll(async () => {
  tdb = await createTestDatabase('renew');
  smtp = await new TestSmtpServer().start();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'renew', { SMTP_URL: smtp.url, WORKER_QUEUES: 'renewals,emails', EMAIL_BACKOFF_MS: '50' }));
  expect(runtime.gateway).toBeInstanceOf(LocalSandboxGateway);
  sandbox = runtime.gateway as LocalSandboxGateway;
  redis = createRedis(runtime.config.REDIS_URL);
});
afterAll(async () => {
  redis?.disconnect();
  await runtime?.queues.renewals.removeJobScheduler('renewals-daily').catch(() => {});
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

describe('renewal charging', () => {
  it('charges a due subscription once: an order, an approved payment row, order.placed, next billing date one interval from the due date', async () => {
    const product = await makeProduct(50, '20.00');
    const due = new Date(Date.now() - 3 * DAY);
    const items = [line(product, 2)];
    const sub = await makeSubscription({ email: 'renew-ok@example.com', items, due });

    const result = await renew(sub.id, due);
    expect(result).toMatchObject({ outcome: 'approved' });
    const charges = chargesFor(sub.id, due);
    expect(charges).toHaveLength(1);
    expect(charges[0]!.amount).toBe(sub.amount);

    const [order] = await ordersOf(sub.id);
    const pricing = priceCart([{ price: 2000, quantity: 2 }], { subscribe: true });
    expect(order).toMatchObject({
      status: 'processing',
      storeCode: 'NH',
      customerEmail: 'renew-ok@example.com',
      customerName: 'Sam Saver',
      shippingAddress: ADDRESS,
      items,
      subtotal: pricing.subtotal,
      discount: pricing.discount,
      // All of it Subscribe & Save, its own line on the order page and in the confirmation (issue 19).
      subscribeDiscount: pricing.discount,
      promoDiscount: 0,
      shipping: 0,
      tax: pricing.tax,
      total: pricing.total,
      paymentTransactionId: charges[0]!.transactionId,
    });
    const payments = await paymentsOf(sub.id);
    expect(payments).toEqual([
      expect.objectContaining({
        orderId: order!.id,
        billingPeriod: period(due),
        invoiceNumber: subscriptionInvoiceNumber(sub.id, period(due)),
        amount: sub.amount,
        status: 'approved',
        authnetTransactionId: charges[0]!.transactionId,
        cardLastFour: '1111',
        environment: 'sandbox',
      }),
    ]);
    expect(await outboxRows('order.placed', 'orderId', order!.id)).toHaveLength(1);
    expect(await inventory(product.id)).toBe(48);

    const after = await subscription(sub.id);
    expect(after.nextBillingDate.toISOString()).toBe(addMonths(due, 1).toISOString());
    expect(after).toMatchObject({ status: 'active', failedAttempts: 0, retryAt: null });
    // The renewal's order confirmation goes out as for any order.
    await waitFor(() => smtp.to('renew-ok@example.com').length === 1, 10_000, 'renewal order confirmation');
    expect(smtp.to('renew-ok@example.com')[0]!.decoded).toContain(`order confirmation #${order!.id.slice(0, 8)}`);
  });

  it('counts renewals by outcome, and the emails they send, in the worker metrics', async () => {
    const value = async (metric: { get: () => Promise<{ values: Array<{ labels: Record<string, string | number>; value: number }> }> }, labels: Record<string, string>) =>
      (await metric.get()).values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))?.value ?? 0;
    const approvedBefore = await value(renewalsTotal, { outcome: 'approved' });
    const skippedBefore = await value(renewalsTotal, { outcome: 'skipped' });
    const product = await makeProduct(50, '20.00');
    const due = new Date(Date.now() - 3 * DAY);
    const sub = await makeSubscription({ email: 'renew-metrics@example.com', items: [line(product, 1)], due });
    expect(await renew(sub.id, due)).toMatchObject({ outcome: 'approved' });
    expect(await renew(randomUUID(), due)).toMatchObject({ outcome: 'skipped' });
    expect(await value(renewalsTotal, { outcome: 'approved' })).toBe(approvedBefore + 1);
    expect(await value(renewalsTotal, { outcome: 'skipped' })).toBe(skippedBefore + 1);
    // The renewal's order.placed becomes a confirmation email once relayed; any email sent counts by name.
    await waitFor(async () => (await value(emailsTotal, { outcome: 'sent' })) > 0, 15_000, 'an email counted');
  });

  it("records exactly the amount charged when the plan's agreed amount differs from its lines priced today: the agreed (lower) amount wins, a lower price today is passed on", async () => {
    const product = await makeProduct(50, '20.00');
    const items = [line(product, 2)];
    const today = priceCart([{ price: 2000, quantity: 2 }], { subscribe: true });
    const cases = [
      // Agreed when the line cost 18.00 (the price changed since): the shopper was told this amount, and is charged it.
      { email: 'renew-locked@example.com', agreed: priceCart([{ price: 1800, quantity: 2 }], { subscribe: true }).total, charged: (agreed: number) => agreed },
      // Agreed above what the same lines cost today (our pricing rules changed in the shopper's favour): today's price.
      { email: 'renew-lower@example.com', agreed: today.total + 250, charged: () => today.total },
    ];
    for (const c of cases) {
      const due = new Date(Date.now() - DAY);
      const sub = await makeSubscription({ email: c.email, items, due, amount: c.agreed });
      expect(sub.amount).not.toBe(today.total);
      expect(await renew(sub.id, due)).toMatchObject({ outcome: 'approved' });
      const charged = c.charged(c.agreed);
      const [charge] = chargesFor(sub.id, due);
      expect(charge!.amount).toBe(charged);
      const [order] = await ordersOf(sub.id);
      // One figure: the order's total is the captured amount, and its lines and figures add up to it.
      expect(order).toMatchObject({ status: 'processing', items, subtotal: today.subtotal, shipping: 0, total: charged });
      expect(order!.subtotal - order!.discount + order!.shipping + order!.tax).toBe(order!.total);
      // The price lock comes off before tax: the tax is on what was sold.
      expect(order!.tax).toBe(percentOf(order!.subtotal - order!.discount, TAX_RATE_BPS));
      expect(await paymentsOf(sub.id)).toEqual([expect.objectContaining({ orderId: order!.id, amount: charged, status: 'approved' })]);
    }
  });

  it('running the same renew job twice charges once', async () => {
    const product = await makeProduct(50);
    const due = new Date(Date.now() - DAY);
    const sub = await makeSubscription({ email: 'renew-twice@example.com', items: [line(product, 1)], due });
    const [first, second] = [await renew(sub.id, due), await renew(sub.id, due)];
    expect(first.outcome).toBe('approved');
    expect(second).toEqual({ outcome: 'skipped', reason: 'this period is settled; the subscription moved on' });
    expect(chargesFor(sub.id, due)).toHaveLength(1);
    expect(await ordersOf(sub.id)).toHaveLength(1);
    expect(await paymentsOf(sub.id)).toHaveLength(1);
    expect(await inventory(product.id)).toBe(49);
  });

  it('finishes only the bookkeeping when the period is already paid, and never charges over a pending (unknown) payment', async () => {
    const product = await makeProduct(50);
    const due = new Date(Date.now() - DAY);
    const paid = await makeSubscription({ email: 'renew-paid@example.com', items: [line(product, 1)], due });
    await tdb.db.insert(tables.paymentTransactions).values({ subscriptionId: paid.id, billingPeriod: period(due), amount: paid.amount, status: 'approved' });
    expect(await renew(paid.id, due)).toEqual({ outcome: 'already-paid' });
    expect((await subscription(paid.id)).nextBillingDate.toISOString()).toBe(addMonths(due, 1).toISOString());

    const unknown = await makeSubscription({ email: 'renew-unknown@example.com', items: [line(product, 1)], due });
    await tdb.db.insert(tables.paymentTransactions).values({ subscriptionId: unknown.id, billingPeriod: period(due), amount: unknown.amount, status: 'pending' });
    expect(await renew(unknown.id, due)).toMatchObject({ outcome: 'skipped', reason: expect.stringContaining('unknown outcome') });
    const left = await subscription(unknown.id);
    expect(left.nextBillingDate.toISOString()).toBe(due.toISOString());
    expect(left.failedAttempts).toBe(0);

    expect(chargesFor(paid.id, due)).toHaveLength(0);
    expect(chargesFor(unknown.id, due)).toHaveLength(0);
    expect(await ordersOf(paid.id)).toHaveLength(0);
    expect(await ordersOf(unknown.id)).toHaveLength(0);
    expect(await inventory(product.id)).toBe(50);
    // Clean up: the unknown one would otherwise stay due for the sweep test.
    await tdb.db.update(tables.subscriptions).set({ status: 'paused' }).where(eq(tables.subscriptions.id, unknown.id));
  });

  it('leaves a subscription that is not due, or cancelled, untouched', async () => {
    const product = await makeProduct(50);
    const later = new Date(Date.now() + 3 * DAY);
    const notDue = await makeSubscription({ email: 'renew-later@example.com', items: [line(product, 1)], due: later });
    const yesterday = new Date(Date.now() - DAY);
    const cancelled = await makeSubscription({ email: 'renew-cancelled@example.com', items: [line(product, 1)], due: yesterday, status: 'cancelled' });

    expect(await renew(notDue.id, later)).toEqual({ outcome: 'skipped', reason: 'not due yet' });
    expect(await renew(cancelled.id, yesterday)).toEqual({ outcome: 'skipped', reason: 'subscription is cancelled' });
    for (const [sub, due] of [[notDue, later], [cancelled, yesterday]] as const) {
      const row = await subscription(sub.id);
      expect(row.nextBillingDate.toISOString()).toBe(due.toISOString());
      expect(row.failedAttempts).toBe(0);
      expect(await ordersOf(sub.id)).toHaveLength(0);
      expect(await paymentsOf(sub.id)).toHaveLength(0);
      expect(chargesFor(sub.id, due)).toHaveLength(0);
    }
    expect(await inventory(product.id)).toBe(50);
  });

  it('a decline cancels the order, puts the stock back, counts a failed attempt and sets the retry time', async () => {
    const product = await makeProduct(10);
    const due = new Date(Date.now() - DAY);
    const sub = await makeSubscription({ email: 'renew-declined@example.com', items: [line(product, 3)], due, zip: SANDBOX_DECLINE_ZIP });

    expect(await renew(sub.id, due)).toMatchObject({ outcome: 'declined', reason: 'This transaction has been declined.', status: 'active' });
    const [order] = await ordersOf(sub.id);
    expect(order).toMatchObject({ status: 'cancelled', netsuiteSyncStatus: 'not_applicable', paymentTransactionId: null });
    expect(await inventory(product.id)).toBe(10);
    expect(await paymentsOf(sub.id)).toEqual([expect.objectContaining({ orderId: order!.id, status: 'declined', responseCode: '2', billingPeriod: period(due) })]);
    expect(await outboxRows('order.placed', 'orderId', order!.id)).toHaveLength(0);
    let row = await subscription(sub.id);
    expect(row).toMatchObject({ status: 'active', failedAttempts: 1 });
    expect(row.retryAt?.toISOString()).toBe(utcDayFromToday(1).toISOString());
    expect(row.nextBillingDate.toISOString()).toBe(due.toISOString());
    expect(chargesFor(sub.id, due)).toHaveLength(0);

    // Not due again until the retry day.
    expect(await renew(sub.id, due)).toEqual({ outcome: 'skipped', reason: 'not due yet' });

    // The retry day comes: a second decline reuses the period's payment row and waits 3 days.
    await tdb.db.update(tables.subscriptions).set({ retryAt: new Date(Date.now() - 60_000) }).where(eq(tables.subscriptions.id, sub.id));
    expect(await renew(sub.id, due)).toMatchObject({ outcome: 'declined', status: 'active' });
    row = await subscription(sub.id);
    expect(row.failedAttempts).toBe(2);
    expect(row.retryAt?.toISOString()).toBe(utcDayFromToday(3).toISOString());
    const orders = await ordersOf(sub.id);
    expect(orders.map((o) => o.status)).toEqual(['cancelled', 'cancelled']);
    const payments = await paymentsOf(sub.id);
    expect(payments).toHaveLength(1);
    expect(orders.map((o) => o.id)).toContain(payments[0]!.orderId);
    expect(await inventory(product.id)).toBe(10);
  });

  it('the last failed retry pauses the plan and emails the customer why and what to do', async () => {
    const product = await makeProduct(10);
    const due = new Date(Date.now() - 8 * DAY);
    const sub = await makeSubscription({
      email: 'renew-paused@example.com',
      items: [line(product, 1)],
      due,
      zip: SANDBOX_DECLINE_ZIP,
      failedAttempts: 3,
      retryAt: new Date(Date.now() - 3_600_000),
    });
    expect(await renew(sub.id, due)).toMatchObject({ outcome: 'declined', status: 'paused' });
    expect(await subscription(sub.id)).toMatchObject({ status: 'paused', failedAttempts: 4, retryAt: null });
    expect(await outboxRows('subscription.paused', 'subscriptionId', sub.id)).toHaveLength(1);
    expect(await inventory(product.id)).toBe(10);

    const [mail] = await waitFor(() => (smtp.to('renew-paused@example.com').length ? smtp.to('renew-paused@example.com') : null), 10_000, 'paused email');
    expect(mail!.decoded).toContain(`Subject: Payment failed: your ${SHOP.name} Subscribe & Save plan is paused`);
    expect(mail!.decoded).toContain('Reason: This transaction has been declined.');
    expect(mail!.decoded).toContain(`Contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone}`);
    expect(mail!.decoded).toContain('Resume with a new card');
    expect(mail!.decoded).toContain(`in My Subscriptions (${SHOP.siteUrl}/subscriptions)`);
    expect(mail!.decoded).toContain(`1 x ${product.name} @ $20.00`);
    expect(mail!.decoded).toContain('text/html');
    const log = await waitFor(
      async () => (await q<{ status: string }>(`select status from email_log where kind = 'subscription-paused' and subject_id = $1`, [`${sub.id}:${period(due)}`]))[0]?.status === 'sent',
      5000,
      'email log',
    );
    expect(log).toBe(true);
    // Paused: no further attempt.
    expect(await renew(sub.id, due)).toEqual({ outcome: 'skipped', reason: 'subscription is paused' });
  });

  it('pauses at once, without charging, when there is no stored card', async () => {
    const product = await makeProduct(10);
    const due = new Date(Date.now() - DAY);
    const sub = await makeSubscription({ email: 'renew-nocard@example.com', items: [line(product, 1)], due, profile: null });
    expect(await renew(sub.id, due)).toEqual({ outcome: 'not-charged', reason: 'There is no saved card for this subscription.', status: 'paused' });
    expect(await subscription(sub.id)).toMatchObject({ status: 'paused', retryAt: null });
    expect(await ordersOf(sub.id)).toHaveLength(0);
    const [mail] = await waitFor(() => (smtp.to('renew-nocard@example.com').length ? smtp.to('renew-nocard@example.com') : null), 10_000, 'paused email');
    expect(mail!.decoded).toContain('Reason: There is no saved card for this subscription.');
  });

  it('short stock: no charge, no order, stock untouched, a failed attempt with a clear reason', async () => {
    const scarce = await makeProduct(1);
    const plenty = await makeProduct(30);
    const due = new Date(Date.now() - DAY);
    const sub = await makeSubscription({ email: 'renew-short@example.com', items: [line(plenty, 1), line(scarce, 2)], due });
    const reason = `${scarce.name} is out of stock (2 needed, 1 left).`;
    expect(await renew(sub.id, due)).toEqual({ outcome: 'not-charged', reason, status: 'active' });
    expect(chargesFor(sub.id, due)).toHaveLength(0);
    expect(await ordersOf(sub.id)).toHaveLength(0);
    expect(await inventory(scarce.id)).toBe(1);
    expect(await inventory(plenty.id)).toBe(30);
    expect(await paymentsOf(sub.id)).toEqual([expect.objectContaining({ status: 'error', orderId: null, responseMessage: reason, billingPeriod: period(due) })]);
    const row = await subscription(sub.id);
    expect(row).toMatchObject({ status: 'active', failedAttempts: 1 });
    expect(row.retryAt?.toISOString()).toBe(utcDayFromToday(1).toISOString());

    // Restocked by the retry day: the same period is charged, its payment row made current.
    await tdb.db.update(tables.products).set({ inventory: 5 }).where(eq(tables.products.id, scarce.id));
    await tdb.db.update(tables.subscriptions).set({ retryAt: new Date(Date.now() - 60_000) }).where(eq(tables.subscriptions.id, sub.id));
    expect(await renew(sub.id, due)).toMatchObject({ outcome: 'approved' });
    expect(await paymentsOf(sub.id)).toEqual([expect.objectContaining({ status: 'approved', responseMessage: 'This transaction has been approved.' })]);
    expect(await inventory(scarce.id)).toBe(3);
    expect(await subscription(sub.id)).toMatchObject({ failedAttempts: 0, retryAt: null });
  });
});

describe('a plan every 2 months (issue 21, "Cadence")', () => {
  it('in dates: Jan 31 → Mar 31 → May 31, and a renewal behind catches up by 2 months at a time', () => {
    const jan31 = new Date('2027-01-31T14:00:00.000Z');
    const mar31 = nextBillingDate(jan31, 'monthly', 2);
    expect(mar31).toEqual(new Date('2027-03-31T14:00:00.000Z'));
    expect(nextBillingDate(mar31, 'monthly', 2)).toEqual(new Date('2027-05-31T14:00:00.000Z'));
    // Not behind until a whole cadence went by (a monthly plan would be a period behind on Mar 1).
    expect(catchUp(jan31, new Date('2027-03-31T00:00:00.000Z'), 'monthly', 2)).toEqual({ current: jan31, skipped: [] });
    expect(catchUp(jan31, new Date('2027-06-01T00:00:00.000Z'), 'monthly', 2)).toEqual({ current: new Date('2027-05-31T14:00:00.000Z'), skipped: [jan31, mar31] });
  });

  it('renews 2 months after the delivery it charges, and a plan due 6 weeks ago is charged for that period, none skipped', async () => {
    const product = await makeProduct(50);
    const due = new Date(Date.now() - 3 * DAY);
    const sub = await makeSubscription({ email: 'two-months@example.com', items: [line(product, 1)], due, intervalCount: 2 });
    expect(await renew(sub.id, due)).toMatchObject({ outcome: 'approved' });
    expect(chargesFor(sub.id, due)).toHaveLength(1);
    expect((await subscription(sub.id)).nextBillingDate.toISOString()).toBe(addMonths(due, 2).toISOString());

    const late = new Date(Date.now() - 42 * DAY);
    const behind = await makeSubscription({ email: 'two-months-late@example.com', items: [line(product, 1)], due: late, intervalCount: 2 });
    expect(await renew(behind.id, late)).toMatchObject({ outcome: 'approved' });
    expect(allChargesOf(behind.id)).toHaveLength(1);
    expect(chargesFor(behind.id, late)).toHaveLength(1);
    expect(await skippedOf(behind.id)).toEqual([]);
    expect((await subscription(behind.id)).nextBillingDate.toISOString()).toBe(addMonths(late, 2).toISOString());
  });
});

describe('renewal sweep', () => {
  it('adds one renew job per due subscription (retries whose day has come included), never a duplicate, and each is charged once', async () => {
    const product = await makeProduct(100);
    const items = [line(product, 1)];
    const now = Date.now();
    const dueA = await makeSubscription({ email: 'sweep-a@example.com', items, due: new Date(now - 2 * DAY) });
    const dueB = await makeSubscription({ email: 'sweep-b@example.com', items, due: new Date(now - 20 * DAY) });
    // Due later today (UTC) counts as due today: a billing date is a day.
    const dueToday = await makeSubscription({ email: 'sweep-today@example.com', items, due: new Date(Math.min(now + 60_000, utcDayFromToday(1).getTime() - 1)) });
    const retryNow = await makeSubscription({ email: 'sweep-retry@example.com', items, due: new Date(now - 5 * DAY), failedAttempts: 1, retryAt: new Date(now - 60_000) });
    const retryLater = await makeSubscription({ email: 'sweep-retry-later@example.com', items, due: new Date(now - 5 * DAY), failedAttempts: 1, retryAt: utcDayFromToday(2) });
    const notDue = await makeSubscription({ email: 'sweep-later@example.com', items, due: new Date(now + 3 * DAY) });
    const paused = await makeSubscription({ email: 'sweep-paused@example.com', items, due: new Date(now - DAY), status: 'paused' });
    const due = [dueA, dueB, dueToday, retryNow];
    const dueRows = await Promise.all(due.map((s) => subscription(s.id)));
    const expectedIds = dueRows.map((s) => renewSubscriptionJob.jobId(s.id, period(s.nextBillingDate), s.failedAttempts));
    expect(expectedIds).toContain(`renew-${retryNow.id}-${period(new Date(now - 5 * DAY))}-1`);

    // Two sweeps in a row while the renewals worker is paused: the second adds nothing.
    const worker = runtime.workers.get('renewals')!;
    await worker.pause();
    const sweepNow = createRenewalSweep({ db: tdb.db, gateway: sandbox, queues: runtime.queues, redis, config: runtime.config, log: createLogger('sweep-test', 'silent') });
    const sweepJob = { name: renewalSweepJob.name, id: 'test-sweep', data: {} } as Job;
    let first: SweepResult;
    let waiting: Job[];
    try {
      first = await sweepNow(sweepJob);
      await sweepNow(sweepJob);
      waiting = (await runtime.queues.renewals.getJobs(['waiting', 'prioritized'])).filter((j) => j.name === renewSubscriptionJob.name);
    } finally {
      void worker.resume();
    }
    expect(first.jobs).toEqual(expect.arrayContaining(expectedIds));
    expect(first.due).toBe(first.jobs.length);
    for (const other of [retryLater, notDue, paused]) expect(first.jobs.join(' ')).not.toContain(other.id);
    expect(waiting.map((j) => j.id).sort()).toEqual([...first.jobs].sort());
    const jobs = await Promise.all(expectedIds.map((id) => runtime.queues.renewals.getJob(id)));
    expect(jobs.map((j) => j?.data)).toEqual(dueRows.map((s) => ({ subscriptionId: s.id, period: period(s.nextBillingDate) })));

    for (const job of jobs) expect(await finished(job!)).toMatchObject({ outcome: 'approved' });
    for (const s of dueRows) expect(chargesFor(s.id, s.nextBillingDate)).toHaveLength(1);
    for (const other of [retryLater, notDue, paused]) expect(await ordersOf(other.id)).toHaveLength(0);

    // Paid: the next sweep finds none of them.
    const again = await sweepNow(sweepJob);
    for (const s of due) expect(again.jobs.join(' ')).not.toContain(s.id);
  });

  it('runs on the daily schedule of the renewals queue', async () => {
    const schedulers = await runtime.queues.renewals.getJobSchedulers();
    expect(schedulers).toEqual([expect.objectContaining({ key: 'renewals-daily', pattern: '0 6 * * *', tz: 'UTC' })]);
    const job = await runtime.queues.renewals.add(renewalSweepJob.name, {}, { jobId: 'test-scheduled-sweep' });
    const result = (await finished(job)) as SweepResult;
    expect(result.due).toBe(result.jobs.length);
    // Let the jobs it added finish before the runtime closes.
    for (const id of result.jobs) {
      const added = await runtime.queues.renewals.getJob(id);
      if (added) await finished(added).catch(() => {});
    }
  });
});

describe('renewal reminders', () => {
  const sweepJob = { name: renewalSweepJob.name, id: 'test-reminder-sweep', data: {} } as Job;
  const sweeper = () => createRenewalSweep({ db: tdb.db, gateway: sandbox, queues: runtime.queues, redis, config: runtime.config, log: createLogger('reminder-test', 'silent') });
  /** A time of day on the UTC day `days` from today. */
  const onDay = (days: number, hours: number) => new Date(utcDayFromToday(days).getTime() + hours * 3_600_000);
  const reminderDone = async (id: string) => {
    const job = await waitFor(() => runtime.queues.emails.getJob(id), 5000, `reminder job ${id}`);
    await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), 10_000, `reminder ${id}`);
    return (await runtime.queues.emails.getJob(id))?.returnvalue;
  };
  const reminderLog = (subscriptionId: string, due: Date) =>
    q<{ status: string; to_address: string }>(`select status, to_address from email_log where kind = 'renewal-reminder' and subject_id = $1`, [`${subscriptionId}:${period(due)}`]);

  it(`reminds each active plan billed ${RENEWAL_REMINDER_DAYS} days ahead once, however often the sweep runs: date, amount, saved card, items, My Subscriptions`, async () => {
    expect(RENEWAL_REMINDER_DAYS).toBe(3);
    const product = await makeProduct(20, '20.00');
    const items = [line(product, 2)];
    const due = onDay(RENEWAL_REMINDER_DAYS, 14.5);
    const plan = await makeSubscription({ email: 'remind-me@example.com', items, due, profile: null });
    await tdb.db.insert(tables.paymentTransactions).values({ subscriptionId: plan.id, billingPeriod: '2000-01-01', amount: plan.amount, status: 'approved', cardType: 'Visa', cardLastFour: '1111' });
    const earlyInDay = await makeSubscription({ email: 'remind-early@example.com', items, due: onDay(RENEWAL_REMINDER_DAYS, 0), profile: null });
    // Last charged on a Visa ending 1111, then given a Mastercard ending 0015 on My Subscriptions: the reminder names the plan's card (issue 19).
    const switched = await makeSubscription({ email: 'remind-switched@example.com', items, due: onDay(RENEWAL_REMINDER_DAYS, 10), profile: null });
    await tdb.db.insert(tables.paymentTransactions).values({ subscriptionId: switched.id, billingPeriod: '2000-01-01', amount: switched.amount, status: 'approved', cardType: 'Visa', cardLastFour: '1111' });
    await tdb.db.update(tables.subscriptions).set({ cardType: 'MasterCard', cardLastFour: '0015' }).where(eq(tables.subscriptions.id, switched.id));
    const tooSoon = await makeSubscription({ email: 'remind-soon@example.com', items, due: onDay(RENEWAL_REMINDER_DAYS - 1, 23.9), profile: null });
    const tooLate = await makeSubscription({ email: 'remind-late@example.com', items, due: onDay(RENEWAL_REMINDER_DAYS + 1, 0), profile: null });
    const cancelled = await makeSubscription({ email: 'remind-cancelled@example.com', items, due, status: 'cancelled', profile: null });
    const paused = await makeSubscription({ email: 'remind-paused@example.com', items, due, status: 'paused', profile: null });

    const sweepNow = sweeper();
    const first = await sweepNow(sweepJob);
    const second = await sweepNow(sweepJob);
    const expected = [renewalReminderJob.jobId(plan.id, period(due)), renewalReminderJob.jobId(earlyInDay.id, period(onDay(RENEWAL_REMINDER_DAYS, 0)))];
    expect(first.reminders).toEqual(expect.arrayContaining(expected));
    expect(second.reminders).toEqual(first.reminders);
    for (const other of [tooSoon, tooLate, cancelled, paused]) expect(first.reminders.join(' ')).not.toContain(other.id);
    const job = await runtime.queues.emails.getJob(expected[0]!);
    expect(job?.data).toEqual({ subscriptionId: plan.id, period: period(due), cadences: runtime.config.PLAN_CADENCE_MONTHS });
    expect(job?.opts.attempts).toBe(runtime.config.EMAIL_ATTEMPTS);

    expect(await reminderDone(expected[0]!)).toMatchObject({ outcome: 'sent' });
    expect(await reminderDone(expected[1]!)).toMatchObject({ outcome: 'sent' });
    expect(await reminderDone(renewalReminderJob.jobId(switched.id, period(onDay(RENEWAL_REMINDER_DAYS, 10))))).toMatchObject({ outcome: 'sent' });
    expect(smtp.to('remind-switched@example.com')[0]!.decoded).toContain('to your saved card (Mastercard ending in 0015) that day.');
    const [mail] = smtp.to('remind-me@example.com');
    const day = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(due);
    expect(mail!.decoded).toContain(`Subject: Your ${SHOP.name} Subscribe & Save renews on ${day}`);
    expect(mail!.decoded).toContain(`your next Subscribe & Save delivery is on ${day}, and we will charge ${formatCents(plan.amount)} to your saved card (Visa ending in 1111) that day.`);
    expect(mail!.decoded).toContain(`2 x ${product.name} @ $20.00`);
    expect(mail!.decoded).toContain(`To see or cancel your plan, go to My Subscriptions before then: ${SHOP.siteUrl}/subscriptions`);
    expect(mail!.decoded).toContain(`<a href="${SHOP.siteUrl}/subscriptions">My Subscriptions</a>`);
    expect(mail!.decoded).toContain('text/html');
    expect(mail!.decoded).toContain(SHOP.supportEmail);
    // No approved payment with a card yet: just "your saved card".
    expect(smtp.to('remind-early@example.com')[0]!.decoded).toContain('to your saved card that day.');
    expect(await reminderLog(plan.id, due)).toEqual([{ status: 'sent', to_address: 'remind-me@example.com' }]);

    // Once the job is gone from Redis, a third sweep adds it again: the email_log row keeps it to one email.
    await runtime.queues.emails.remove(expected[0]!);
    const third = await sweepNow(sweepJob);
    expect(third.reminders).toContain(expected[0]);
    expect(await reminderDone(expected[0]!)).toEqual({ outcome: 'skipped', reason: 'already sent' });
    expect(smtp.to('remind-me@example.com')).toHaveLength(1);
    for (const other of [tooSoon, tooLate, cancelled, paused]) expect(await reminderLog(other.id, (await subscription(other.id)).nextBillingDate)).toEqual([]);
    for (const address of ['remind-soon@example.com', 'remind-late@example.com', 'remind-cancelled@example.com', 'remind-paused@example.com']) {
      expect(smtp.to(address)).toHaveLength(0);
    }
    // A reminder is only a reminder: nothing charged, nothing ordered.
    expect(await ordersOf(plan.id)).toHaveLength(0);
    expect((await subscription(plan.id)).nextBillingDate.toISOString()).toBe(due.toISOString());
  });

  it('sends no reminder to a plan cancelled between the sweep and the send, or whose billing date moved', async () => {
    const product = await makeProduct(20);
    const due = onDay(RENEWAL_REMINDER_DAYS, 9);
    const toCancel = await makeSubscription({ email: 'remind-then-cancel@example.com', items: [line(product, 1)], due, profile: null });
    const toMove = await makeSubscription({ email: 'remind-then-move@example.com', items: [line(product, 1)], due, profile: null });
    const worker = runtime.workers.get('emails')!;
    await worker.pause();
    try {
      const result = await sweeper()(sweepJob);
      expect(result.reminders).toEqual(expect.arrayContaining([renewalReminderJob.jobId(toCancel.id, period(due)), renewalReminderJob.jobId(toMove.id, period(due))]));
      await tdb.db.update(tables.subscriptions).set({ status: 'cancelled', cancelledAt: new Date() }).where(eq(tables.subscriptions.id, toCancel.id));
      await tdb.db.update(tables.subscriptions).set({ nextBillingDate: addMonths(due, 1) }).where(eq(tables.subscriptions.id, toMove.id));
    } finally {
      void worker.resume();
    }
    expect(await reminderDone(renewalReminderJob.jobId(toCancel.id, period(due)))).toEqual({ outcome: 'skipped', reason: 'subscription is cancelled' });
    expect(await reminderDone(renewalReminderJob.jobId(toMove.id, period(due)))).toEqual({ outcome: 'skipped', reason: 'the billing date has moved' });
    expect(smtp.to('remind-then-cancel@example.com')).toHaveLength(0);
    expect(smtp.to('remind-then-move@example.com')).toHaveLength(0);
    expect(await reminderLog(toCancel.id, due)).toEqual([]);

    // A reminder job that waited past the billing day says nothing.
    const yesterday = onDay(-1, 12);
    const overdue = await makeSubscription({ email: 'remind-overdue@example.com', items: [line(product, 1)], due: yesterday, profile: null });
    const job = await runtime.queues.emails.add(renewalReminderJob.name, { subscriptionId: overdue.id, period: period(yesterday) }, { jobId: `test-overdue-${overdue.id}` });
    expect(await reminderDone(job.id!)).toEqual({ outcome: 'skipped', reason: 'the billing date has passed' });
    expect(smtp.to('remind-overdue@example.com')).toHaveLength(0);
    // Out of the way of the sweep tests (it would be renewed).
    await tdb.db.update(tables.subscriptions).set({ status: 'cancelled' }).where(eq(tables.subscriptions.id, overdue.id));
  });
});

describe('a paused plan resumed with a new card (POST /api/subscriptions/{id}/resume)', () => {
  const STALE_PROFILE: StoredPaymentProfile = { customerProfileId: '1', paymentProfileId: '2' };

  /**
   * What the API does: the new card stored with the gateway (not charged), then one statement makes
   * the plan active on it with a clean dunning slate, its billing date left on the unpaid period, and
   * writes the `subscription.resumed` outbox row (the relay of this runtime turns it into a renew job).
   */
  async function resumeLikeTheApi(subscriptionId: string, due: Date): Promise<{ profile: StoredPaymentProfile; outboxId: number }> {
    const token = await sandbox.tokenize({
      authData: { clientKey: SANDBOX_CLIENT_KEY, apiLoginID: SANDBOX_API_LOGIN_ID },
      cardData: { cardNumber: '5424000000000015', month: '12', year: String(new Date().getUTCFullYear() + 3), cardCode: '123', zip: ADDRESS.zip },
    });
    if (!('opaqueData' in token)) throw new Error('tokenise failed');
    const stored = await sandbox.storeCard({
      opaqueData: token.opaqueData,
      customerId: `resume${randomUUID().replace(/-/g, '').slice(0, 14)}`,
      email: 'resume@example.com',
      billTo: planBillTo('Sam Saver', ADDRESS),
    });
    expect(stored).toMatchObject({ outcome: 'stored', cardType: 'MasterCard', lastFour: '0015' });
    const [row] = await q<{ id: number }>(
      `with upd as (
          update subscriptions set authnet_customer_profile_id = $2, authnet_payment_profile_id = $3, status = 'active', failed_attempts = 0, retry_at = null, updated_at = now()
          where id = $1 and status = 'paused' returning id),
        ob as (insert into outbox (topic, payload) select 'subscription.resumed', $4::jsonb from upd returning id)
       select id, pg_notify($5, 'subscription.resumed') from ob`,
      [subscriptionId, stored.profile!.customerProfileId, stored.profile!.paymentProfileId, JSON.stringify({ subscriptionId, period: period(due) }), OUTBOX_CHANNEL],
    );
    return { profile: stored.profile!, outboxId: row!.id };
  }

  /** The renew job the relay adds for the outbox row, once it has run. */
  async function relayedRenewal(outboxId: number): Promise<RenewResult> {
    const job = await waitFor(() => runtime.queues.renewals.getJob(`outbox-${outboxId}-renew-subscription`), 10_000, 'relayed renew job');
    return (await finished(job)) as RenewResult;
  }

  it('a plan paused on a declined period: the relayed renew job charges that period once on the new card, orders it, and moves the date on', async () => {
    const product = await makeProduct(20);
    const due = new Date(Date.now() - 11 * DAY);
    const sub = await makeSubscription({ email: 'resume-declined@example.com', items: [line(product, 2)], due, status: 'paused', failedAttempts: 4, profile: STALE_PROFILE });
    // As dunning left it: the period's payment row declined (its cancelled orders are not needed here).
    await tdb.db.insert(tables.paymentTransactions).values({
      subscriptionId: sub.id, billingPeriod: period(due), invoiceNumber: subscriptionInvoiceNumber(sub.id, period(due)), amount: sub.amount, status: 'declined', responseCode: '2',
    });

    const { profile, outboxId } = await resumeLikeTheApi(sub.id, due);
    expect(await relayedRenewal(outboxId)).toMatchObject({ outcome: 'approved' });

    const charges = chargesFor(sub.id, due);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount: sub.amount, lastFour: '0015' });
    const orders = await ordersOf(sub.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'processing', total: sub.amount, paymentTransactionId: charges[0]!.transactionId });
    expect(await paymentsOf(sub.id)).toEqual([
      expect.objectContaining({ orderId: orders[0]!.id, billingPeriod: period(due), status: 'approved', cardType: 'MasterCard', cardLastFour: '0015' }),
    ]);
    expect(await inventory(product.id)).toBe(18);
    const after = await subscription(sub.id);
    expect(after).toMatchObject({ status: 'active', failedAttempts: 0, retryAt: null, authnetCustomerProfileId: profile.customerProfileId, authnetPaymentProfileId: profile.paymentProfileId });
    expect(after.nextBillingDate.toISOString()).toBe(addMonths(due, 1).toISOString());

    // The sweep's job for the same period (another id) finds it paid and charges nothing.
    expect(await renew(sub.id, due)).toEqual({ outcome: 'skipped', reason: 'this period is settled; the subscription moved on' });
    expect(chargesFor(sub.id, due)).toHaveLength(1);
  });

  it('a plan paused by dunning on an error (its stored card gone): resumed, the same period is charged on the new card', async () => {
    const product = await makeProduct(20);
    const due = new Date(Date.now() - 8 * DAY);
    const sub = await makeSubscription({
      email: 'resume-error@example.com', items: [line(product, 1)], due, failedAttempts: 3, retryAt: new Date(Date.now() - 3_600_000), profile: STALE_PROFILE,
    });
    expect(await renew(sub.id, due)).toMatchObject({ outcome: 'error', reason: 'The record cannot be found.', status: 'paused' });
    expect(await paymentsOf(sub.id)).toEqual([expect.objectContaining({ status: 'error', billingPeriod: period(due) })]);

    const { outboxId } = await resumeLikeTheApi(sub.id, due);
    expect(await relayedRenewal(outboxId)).toMatchObject({ outcome: 'approved' });
    expect(chargesFor(sub.id, due)).toHaveLength(1);
    const orders = await ordersOf(sub.id);
    expect(orders.map((o) => o.status).sort()).toEqual(['cancelled', 'processing']);
    expect(await paymentsOf(sub.id)).toEqual([expect.objectContaining({ status: 'approved', billingPeriod: period(due), orderId: orders.find((o) => o.status === 'processing')!.id })]);
    expect(await inventory(product.id)).toBe(19);
    const after = await subscription(sub.id);
    expect(after).toMatchObject({ status: 'active', failedAttempts: 0, retryAt: null });
    expect(after.nextBillingDate.toISOString()).toBe(addMonths(due, 1).toISOString());
  });

  it('a plan paused for longer than a period: resumed, it is charged once, for the current period; the periods it missed while paused are skipped', async () => {
    const product = await makeProduct(20);
    const dates = overdueDates(3);
    const sub = await makeSubscription({ email: 'resume-late@example.com', items: [line(product, 1)], due: dates[0]!, status: 'paused', failedAttempts: 4, profile: STALE_PROFILE });
    await tdb.db.insert(tables.paymentTransactions).values({ subscriptionId: sub.id, billingPeriod: period(dates[0]!), amount: sub.amount, status: 'declined', responseCode: '2' });

    const { outboxId } = await resumeLikeTheApi(sub.id, dates[0]!);
    expect(await relayedRenewal(outboxId)).toMatchObject({ outcome: 'approved' });
    expect(allChargesOf(sub.id)).toHaveLength(1);
    expect(chargesFor(sub.id, dates[2]!)).toHaveLength(1);
    expect(await skippedOf(sub.id)).toEqual([
      { billing_period: period(dates[0]!), reason: 'plan-paused' },
      { billing_period: period(dates[1]!), reason: 'plan-paused' },
    ]);
    expect((await paymentsOf(sub.id)).map((p) => [p.billingPeriod, p.status]).sort()).toEqual([
      [period(dates[0]!), 'declined'],
      [period(dates[2]!), 'approved'],
    ]);
    const after = await subscription(sub.id);
    expect(after).toMatchObject({ status: 'active', failedAttempts: 0, retryAt: null });
    expect(after.nextBillingDate.toISOString()).toBe(dates[3]!.toISOString());
  });
});

describe('renewals after downtime: a plan more than one period behind is charged once, for the current period', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ DATABASE_URL: tdb.url });
  });
  afterAll(() => api?.close());

  /** A shopper's account and session cookie, made through the API. */
  async function signUp(): Promise<{ id: string; cookie: string }> {
    const email = `late.${randomUUID().slice(0, 8)}@example.com`;
    const res = await api.request('/api/register', { body: { firstName: 'Sam', lastName: 'Saver', email, password: 'correct horse battery' } });
    expect(res.status).toBe(201);
    const { user } = (await res.json()) as { user: { id: string } };
    return { id: user.id, cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))! };
  }

  /** A sweep through the renewals queue, and every renew job it added, run to the end. */
  async function sweepThroughQueue(id: string): Promise<SweepResult> {
    const result = (await finished(await runtime.queues.renewals.add(renewalSweepJob.name, {}, { jobId: id }))) as SweepResult;
    for (const jobId of result.jobs) {
      const job = await runtime.queues.renewals.getJob(jobId);
      if (job) await finished(job);
    }
    return result;
  }

  it('the catch-up in dates: the latest billing date before the start of tomorrow is charged, the ones before it skipped', () => {
    const jan31 = new Date('2026-01-31T14:00:00.000Z');
    expect(catchUp(jan31, new Date('2026-04-28T00:00:00.000Z'), 'monthly', 1)).toEqual({
      current: new Date('2026-03-28T14:00:00.000Z'),
      skipped: [jan31, new Date('2026-02-28T14:00:00.000Z')],
    });
    // Due later today counts as today: not behind one period earlier.
    expect(catchUp(jan31, new Date('2026-02-28T00:00:00.000Z'), 'monthly', 1)).toEqual({ current: jan31, skipped: [] });
    expect(catchUp(jan31, new Date('2026-03-01T00:00:00.000Z'), 'monthly', 1)).toEqual({ current: new Date('2026-02-28T14:00:00.000Z'), skipped: [jan31] });
    // Each step from the one before, as renewals advance (Apr 30 → Jul 30).
    expect(catchUp(jan31, new Date('2026-08-01T00:00:00.000Z'), 'quarterly', 1)).toEqual({ current: new Date('2026-07-30T14:00:00.000Z'), skipped: [jan31, new Date('2026-04-30T14:00:00.000Z')] });
  });

  it('three periods overdue: one charge, two skipped periods, the next billing date in the future; sweeps a second apart charge nothing more; the shopper and staff see the skipped periods', async () => {
    const product = await makeProduct(50);
    const dates = overdueDates(3);
    const shopper = await signUp();
    const sub = await makeSubscription({ email: 'late-three@example.com', items: [line(product, 2)], due: dates[0]! });
    await tdb.db.update(tables.subscriptions).set({ userId: shopper.id }).where(eq(tables.subscriptions.id, sub.id));

    // What went wrong before: two sweeps a second apart each charged one more missed period.
    const firstJob = (await runtime.queues.renewals.add(renewalSweepJob.name, {}, { jobId: 'late-sweep-1' }));
    await sleep(1000);
    await sweepThroughQueue('late-sweep-2');
    const first = (await finished(firstJob)) as SweepResult;
    for (const jobId of first.jobs) await finished((await runtime.queues.renewals.getJob(jobId))!);
    expect(first.jobs).toContain(renewSubscriptionJob.jobId(sub.id, period(dates[0]!), 0));

    const charged = () => {
      expect(allChargesOf(sub.id)).toHaveLength(1);
      expect(chargesFor(sub.id, dates[2]!)).toHaveLength(1);
      expect(chargesFor(sub.id, dates[2]!)[0]!.amount).toBe(sub.amount);
    };
    charged();
    const orders = await ordersOf(sub.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'processing', total: sub.amount });
    expect(await paymentsOf(sub.id)).toEqual([expect.objectContaining({ billingPeriod: period(dates[2]!), status: 'approved', orderId: orders[0]!.id })]);
    expect(await skippedOf(sub.id)).toEqual([
      { billing_period: period(dates[0]!), reason: 'renewals-late' },
      { billing_period: period(dates[1]!), reason: 'renewals-late' },
    ]);
    expect(await inventory(product.id)).toBe(48);
    const after = await subscription(sub.id);
    expect(after.nextBillingDate.toISOString()).toBe(dates[3]!.toISOString());
    expect(after.nextBillingDate.getTime()).toBeGreaterThan(Date.now());
    expect(after).toMatchObject({ status: 'active', failedAttempts: 0, retryAt: null });

    // Any number of sweeps later: nothing more.
    const third = await sweepThroughQueue('late-sweep-3');
    await sleep(1000);
    const fourth = await sweepThroughQueue('late-sweep-4');
    for (const result of [third, fourth]) expect(result.jobs.join(' ')).not.toContain(sub.id);
    charged();
    expect(await ordersOf(sub.id)).toHaveLength(1);
    expect(await skippedOf(sub.id)).toHaveLength(2);

    // The shopper's list says so…
    const res = await api.request('/api/subscriptions', { headers: { cookie: shopper.cookie } });
    expect(res.status).toBe(200);
    const [view] = ((await res.json()) as unknown[]).map((v) => subscriptionViewSchema.parse(v));
    expect(view).toMatchObject({
      id: sub.id,
      nextBillingDate: dates[3]!.toISOString(),
      skippedPeriods: [
        { period: period(dates[0]!), reason: 'renewals-late' },
        { period: period(dates[1]!), reason: 'renewals-late' },
      ],
    });
    // …and so does the order staff open.
    const staff = await signInAs(api, 'support');
    const detail = await staff.request(`/api/admin/orders/${orders[0]!.id}`, { body: { storeCode: 'NH' } });
    expect(detail.status).toBe(200);
    expect(adminOrderSchema.parse(await detail.json())).toMatchObject({ subscriptionId: sub.id, subscriptionSkippedPeriods: view!.skippedPeriods });
  });

  it('dunning: a plan in retry for the current period waits for its retry day; one in retry for a period long gone is caught up at once', async () => {
    const product = await makeProduct(50);
    const items = [line(product, 1)];
    const retrying = await makeSubscription({ email: 'late-retry-current@example.com', items, due: new Date(Date.now() - 5 * DAY), failedAttempts: 1, retryAt: utcDayFromToday(2) });
    const dates = overdueDates(2);
    const stale = await makeSubscription({ email: 'late-retry-stale@example.com', items, due: dates[0]!, failedAttempts: 2, retryAt: utcDayFromToday(2) });
    await tdb.db.insert(tables.paymentTransactions).values({ subscriptionId: stale.id, billingPeriod: period(dates[0]!), amount: stale.amount, status: 'declined', responseCode: '2' });

    const result = await sweepThroughQueue('late-sweep-dunning');
    expect(result.jobs).toContain(renewSubscriptionJob.jobId(stale.id, period(dates[0]!), 2));
    expect(result.jobs.join(' ')).not.toContain(retrying.id);

    expect(allChargesOf(stale.id)).toHaveLength(1);
    expect(chargesFor(stale.id, dates[1]!)).toHaveLength(1);
    expect(await skippedOf(stale.id)).toEqual([{ billing_period: period(dates[0]!), reason: 'renewals-late' }]);
    expect((await paymentsOf(stale.id)).map((p) => [p.billingPeriod, p.status]).sort()).toEqual([
      [period(dates[0]!), 'declined'],
      [period(dates[1]!), 'approved'],
    ]);
    expect(await subscription(stale.id)).toMatchObject({ failedAttempts: 0, retryAt: null, nextBillingDate: dates[2] });

    // Its retry day comes: a retry of the current period, nothing skipped.
    await tdb.db.update(tables.subscriptions).set({ retryAt: new Date(Date.now() - 60_000) }).where(eq(tables.subscriptions.id, retrying.id));
    const due = (await subscription(retrying.id)).nextBillingDate;
    expect(await renew(retrying.id, due)).toMatchObject({ outcome: 'approved' });
    expect(allChargesOf(retrying.id)).toHaveLength(1);
    expect(await skippedOf(retrying.id)).toEqual([]);
  });
});

describe('the back office: staff actions on a plan, and the sweep’s heads-up', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ DATABASE_URL: tdb.url });
  });
  afterAll(() => api?.close());

  /** The start of the UTC day `days` from today, plus `hours`. */
  const onDay = (days: number, hours = 10) => new Date(utcDayFromToday(days).getTime() + hours * 3_600_000);
  const mailTo = (address: string, count = 1) => waitFor(() => smtp.to(address).length >= count && smtp.to(address), 10_000, `email to ${address}`);
  const emailDone = async (id: string) => {
    const job = await waitFor(() => runtime.queues.emails.getJob(id), 5000, `email job ${id}`);
    await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), 10_000, `email ${id}`);
    return (await runtime.queues.emails.getJob(id))?.returnvalue;
  };

  it('a delivery skipped by staff is never charged: the renewal of that period charges nothing, the next period is charged once; the customer is emailed', async () => {
    const product = await makeProduct(20);
    const dates = overdueDates(2);
    const sub = await makeSubscription({ email: 'staff-skip@example.com', items: [line(product, 1)], due: dates[0]! });
    const support = await signInAs(api, 'support');

    const res = await support.request(`/api/admin/subscriptions/${sub.id}/skip`, { method: 'POST', body: {} });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await skippedOf(sub.id)).toEqual([{ billing_period: period(dates[0]!), reason: 'staff-skip' }]);
    expect((await subscription(sub.id)).nextBillingDate.toISOString()).toBe(dates[1]!.toISOString());

    // The renewal of the skipped period (a job the sweep added before the skip) finds the plan moved on.
    expect(await renew(sub.id, dates[0]!)).toEqual({ outcome: 'skipped', reason: 'this period is settled; the subscription moved on' });
    // The next period is due: charged once, nothing else skipped (no catch-up: the skip already moved the date).
    expect(await renew(sub.id, dates[1]!)).toMatchObject({ outcome: 'approved' });
    expect(allChargesOf(sub.id)).toHaveLength(1);
    expect(chargesFor(sub.id, dates[1]!)).toHaveLength(1);
    expect(chargesFor(sub.id, dates[0]!)).toHaveLength(0);
    expect(await skippedOf(sub.id)).toEqual([{ billing_period: period(dates[0]!), reason: 'staff-skip' }]);
    expect((await paymentsOf(sub.id)).map((p) => [p.billingPeriod, p.status])).toEqual([[period(dates[1]!), 'approved']]);
    expect(await subscription(sub.id)).toMatchObject({ status: 'active', nextBillingDate: dates[2] });

    const [mail] = await mailTo('staff-skip@example.com');
    const day = (d: Date) => new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(d);
    expect(mail!.decoded).toContain(`Subject: We skipped your next ${SHOP.name} Subscribe & Save delivery`);
    expect(mail!.decoded).toContain(`we have skipped your delivery due ${day(new Date(`${period(dates[0]!)}T00:00:00Z`))}: it will not be sent or charged.`);
    expect(mail!.decoded).toContain(`Your next delivery is on ${day(dates[1]!)}`);
    expect(mail!.decoded).toContain('This change was made by our customer care team on your behalf.');
    // One email per change, however often its job runs.
    const [audit] = await q<{ id: number }>(`select id from audit_events where entity_type = 'subscription' and entity_id = $1`, [sub.id]);
    const logged = () => q<{ status: string }>(`select status from email_log where kind = 'subscription-staff-change' and subject_id = $1`, [`${sub.id}:${audit!.id}`]);
    expect(await waitFor(async () => (await logged())[0]?.status === 'sent' && logged(), 5000, 'email logged')).toEqual([{ status: 'sent' }]);
  });

  it('a plan staff paused is not charged by its renewal; resumed by staff, it is; each change emailed once', async () => {
    const product = await makeProduct(20);
    // Due today (a billing date is a day): paused before its renewal ran.
    const due = new Date(utcDayFromToday(0).getTime() + 60_000);
    const sub = await makeSubscription({ email: 'staff-pause@example.com', items: [line(product, 1)], due });
    const support = await signInAs(api, 'support');
    expect((await support.request(`/api/admin/subscriptions/${sub.id}/pause`, { method: 'POST', body: { reason: 'Customer is away for a month' } })).status).toBe(200);
    expect(await renew(sub.id, due)).toEqual({ outcome: 'skipped', reason: 'subscription is paused' });
    expect(allChargesOf(sub.id)).toHaveLength(0);
    const [paused] = await mailTo('staff-pause@example.com');
    expect(paused!.decoded).toContain(`Subject: Your ${SHOP.name} Subscribe & Save plan is paused`);
    // Who paused it and why, as My Subscriptions says it (shared pausedWords).
    expect(paused!.decoded).toContain('Our team paused this plan (Customer is away for a month). No deliveries are sent or charged until it is resumed.');

    // Resumed the same day: its billing date (today's period) is kept and charged by the next renewal.
    expect((await support.request(`/api/admin/subscriptions/${sub.id}/resume`, { method: 'POST', body: {} })).status).toBe(200);
    expect(await renew(sub.id, due)).toMatchObject({ outcome: 'approved' });
    expect(chargesFor(sub.id, due)).toHaveLength(1);
    // The renewal's own receipt goes to the same address; the two may arrive in either order.
    const resumed = `Subject: Your ${SHOP.name} Subscribe & Save plan is active again`;
    const mails = await waitFor(() => smtp.to('staff-pause@example.com').some((m) => m.decoded.includes(resumed)) && smtp.to('staff-pause@example.com'), 10_000, 'plan active again');
    expect(mails.filter((m) => m.decoded.includes(resumed))).toHaveLength(1);
  });

  it(`heads-up: the sweep emails a plan billed within ${SUBSCRIPTION_HEADS_UP_DAYS} days whose item is unavailable, once per period`, async () => {
    expect(SUBSCRIPTION_HEADS_UP_DAYS).toBe(5);
    const scarce = await makeProduct(1);
    const retired = await makeProduct(50);
    await tdb.db.update(tables.products).set({ status: 'inactive' }).where(eq(tables.products.id, retired.id));
    const plenty = await makeProduct(50);
    const tomorrow = await makeSubscription({ email: 'headsup-tomorrow@example.com', items: [line(scarce, 2)], due: onDay(1), profile: null });
    const fifthDay = await makeSubscription({ email: 'headsup-fifth@example.com', items: [line(plenty, 1), line(retired, 1)], due: onDay(SUBSCRIPTION_HEADS_UP_DAYS, 23) });
    const sixthDay = await makeSubscription({ email: 'headsup-sixth@example.com', items: [line(retired, 1)], due: onDay(SUBSCRIPTION_HEADS_UP_DAYS + 1, 0), profile: null });
    const fine = await makeSubscription({ email: 'headsup-fine@example.com', items: [line(plenty, 2)], due: onDay(2), profile: null });
    const paused = await makeSubscription({ email: 'headsup-paused@example.com', items: [line(retired, 1)], due: onDay(2), status: 'paused', profile: null });
    const comesBack = await makeSubscription({ email: 'headsup-back@example.com', items: [line(scarce, 3)], due: onDay(4), profile: null });
    const ids = (s: { id: string }, due: Date) => subscriptionItemUnavailableJob.jobId(s.id, period(due));

    const sweep = createRenewalSweep({ db: tdb.db, gateway: sandbox, queues: runtime.queues, redis, config: runtime.config, log: createLogger('headsup-test', 'silent') });
    const sweepJob = { name: renewalSweepJob.name, id: 'test-headsup-sweep', data: {} } as Job;
    const worker = runtime.workers.get('emails')!;
    await worker.pause();
    let first: SweepResult;
    let second: SweepResult;
    try {
      first = await sweep(sweepJob);
      second = await sweep(sweepJob);
      // Its items can ship again before the email goes out (staff swapped them): nothing is sent.
      await tdb.db.update(tables.subscriptions).set({ items: [line(plenty, 3)] }).where(eq(tables.subscriptions.id, comesBack.id));
    } finally {
      void worker.resume();
    }
    const expected = [ids(tomorrow, onDay(1)), ids(fifthDay, onDay(SUBSCRIPTION_HEADS_UP_DAYS, 23)), ids(comesBack, onDay(4))];
    expect(first.headsUps).toEqual(expect.arrayContaining(expected));
    expect(second.headsUps).toEqual(first.headsUps);
    for (const other of [sixthDay, fine, paused]) expect(first.headsUps.join(' ')).not.toContain(other.id);
    // A heads-up is only an email: nothing charged, nothing renewed early.
    for (const s of [tomorrow, fifthDay]) expect(first.jobs.join(' ')).not.toContain(s.id);

    expect(await emailDone(expected[0]!)).toMatchObject({ outcome: 'sent' });
    expect(await emailDone(expected[1]!)).toMatchObject({ outcome: 'sent' });
    expect(await emailDone(expected[2]!)).toEqual({ outcome: 'skipped', reason: 'every item is available again' });
    const day = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(onDay(1));
    const [mail] = smtp.to('headsup-tomorrow@example.com');
    expect(mail!.decoded).toContain('Subject: Heads-up: an item of your next delivery is unavailable');
    expect(mail!.decoded).toContain(`A heads-up about your next Subscribe & Save delivery on ${day}: we cannot send everything in it right now.`);
    expect(mail!.decoded).toContain(`${scarce.name}: out of stock`);
    expect(mail!.decoded).toContain('we will not charge you');
    const fifth = smtp.to('headsup-fifth@example.com')[0]!.decoded;
    expect(fifth).toContain(`${retired.name}: no longer sold`);
    expect(fifth).not.toContain(`${plenty.name}:`);
    for (const address of ['headsup-sixth@example.com', 'headsup-fine@example.com', 'headsup-paused@example.com', 'headsup-back@example.com']) expect(smtp.to(address)).toHaveLength(0);

    // The next day's sweep (the job gone from Redis by then): the email_log keeps it to one email per period.
    await runtime.queues.emails.remove(expected[0]!);
    expect((await sweep(sweepJob)).headsUps).toContain(expected[0]);
    expect(await emailDone(expected[0]!)).toEqual({ outcome: 'skipped', reason: 'already sent' });
    expect(smtp.to('headsup-tomorrow@example.com')).toHaveLength(1);

    // Out of the way of later sweeps.
    for (const s of [tomorrow, fifthDay, sixthDay, fine, comesBack]) await tdb.db.update(tables.subscriptions).set({ status: 'cancelled' }).where(eq(tables.subscriptions.id, s.id));
  });
});

describe('the stored card’s expiry: recorded after a card is stored, looked up again by the sweep, and the card heads-up', () => {
  let api: TestApi;
  beforeAll(async () => {
    // The API stores cards in the local sandbox the workers read: the same Redis prefix.
    api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: runtime.config.QUEUE_PREFIX });
  });
  afterAll(() => api?.close());

  const log = createLogger('card-expiry-test', 'silent');
  const sweepJob = { name: renewalSweepJob.name, id: 'test-card-sweep', data: {} } as Job;
  const sweeper = () => createRenewalSweep({ db: tdb.db, gateway: sandbox, queues: runtime.queues, redis, config: runtime.config, log });
  const onDay = (days: number, hours = 10) => new Date(utcDayFromToday(days).getTime() + hours * 3_600_000);
  const expiryOf = async (id: string) => (await subscription(id)).cardExpiresOn;
  /** The lookup job the relay made of an outbox row, run to the end. */
  const relayedLookup = async (topic: string, subscriptionId: string) => {
    const row = await waitFor(async () => (await outboxRows(topic, 'subscriptionId', subscriptionId)).at(-1), 10_000, `${topic} row`);
    const job = await waitFor(() => runtime.queues.renewals.getJob(`outbox-${row.id}-${recordCardExpiryJob.name}`), 10_000, 'relayed lookup');
    return finished(job);
  };
  const emailDone = async (id: string) => {
    const job = await waitFor(() => runtime.queues.emails.getJob(id), 5000, `email job ${id}`);
    await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), 10_000, `email ${id}`);
    return (await runtime.queues.emails.getJob(id))?.returnvalue;
  };

  /** A card typed into the sandbox's Accept.js with this expiry, as the browser tokenises it. */
  async function tokenize(month: string, year: number) {
    const res = await api.request('/api/payments/sandbox/tokenize', {
      body: { authData: { clientKey: SANDBOX_CLIENT_KEY, apiLoginID: SANDBOX_API_LOGIN_ID }, cardData: { cardNumber: '4111111111111111', month, year: String(year), cardCode: '123', zip: ADDRESS.zip } },
    });
    return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
  }

  it('subscribing stores the card, and the lookup the relay makes of subscription.created records its expiry; a resume with a new card records the new one', async () => {
    const product = await makeProduct(10, '12.50');
    const email = `expiry.${randomUUID().slice(0, 8)}@example.com`;
    const registered = await api.request('/api/register', { body: { firstName: 'Sam', lastName: 'Saver', email, password: 'correct horse battery' } });
    expect(registered.status).toBe(201);
    const cookie = registered.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))!;
    const call = (path: string, body: unknown, headers: Record<string, string> = {}) => api.request(path, { body, headers: { cookie, ...headers } });

    const year = new Date().getUTCFullYear() + 2;
    const pricing = priceCart([{ price: 1250, quantity: 1 }], { promo: null, subscribe: true });
    const res = await call(
      '/api/payments/subscribe-nonce',
      {
        amount: toPayloadStrings(pricing).total,
        ...(await tokenize('02', year)),
        firstName: 'Sam',
        lastName: 'Saver',
        email,
        ...ADDRESS,
        interval: 'monthly',
        items: [{ productId: product.id, variantSku: null, quantity: 1, price: centsToDecimal(1250) }],
        shippingAddress: ADDRESS,
      },
      { 'Idempotency-Key': randomUUID() },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const { subscriptionId } = (await res.json()) as { subscriptionId: string };
    // The card is good through the last day of its month (February of a leap year or not).
    const february = new Date(Date.UTC(year, 2, 0)).toISOString().slice(0, 10);
    expect(await relayedLookup('subscription.created', subscriptionId)).toEqual({ outcome: 'recorded', cardExpiresOn: february });
    expect(await expiryOf(subscriptionId)).toBe(february);

    // Paused (its renewals failed), then resumed through the API with a new card: the new card's expiry replaces the old.
    await tdb.db.update(tables.subscriptions).set({ status: 'paused', failedAttempts: 4 }).where(eq(tables.subscriptions.id, subscriptionId));
    const resumed = await call(`/api/subscriptions/${subscriptionId}/resume`, await tokenize('11', year + 2));
    expect(resumed.status, await resumed.clone().text()).toBe(200);
    expect(await relayedLookup('subscription.resumed', subscriptionId)).toEqual({ outcome: 'recorded', cardExpiresOn: `${year + 2}-11-30` });
    expect(await subscription(subscriptionId)).toMatchObject({ status: 'active', cardExpiresOn: `${year + 2}-11-30` });
    await tdb.db.update(tables.subscriptions).set({ status: 'cancelled' }).where(eq(tables.subscriptions.id, subscriptionId));
  });

  it('a lookup that failed leaves the expiry unknown; the sweep looks it up again (bounded, behind the renew jobs); a card the provider does not know stays unknown', async () => {
    const product = await makeProduct(10);
    // A plan stored (makeProfile: December, three years ahead) whose lookup found the payment service down.
    const sub = await makeSubscription({ email: 'expiry-retry@example.com', items: [line(product, 1)], due: onDay(20) });
    const down = Object.assign(Object.create(sandbox) as PaymentGateway, {
      storedCardExpiry: async () => {
        throw new Error('payment service down');
      },
    });
    await expect(lookUpCardExpiry({ db: tdb.db, gateway: down, log }, sub.id)).rejects.toThrow('payment service down');
    expect(await expiryOf(sub.id)).toBeNull();

    const result = await sweeper()(sweepJob);
    const id = recordCardExpiryJob.jobId(sub.id, new Date().toISOString().slice(0, 10));
    expect(result.cardLookups).toContain(id);
    expect(result.cardLookups.length).toBeLessThanOrEqual(CARD_EXPIRY_LOOKUPS_PER_SWEEP);
    const job = (await runtime.queues.renewals.getJob(id))!;
    expect(job.opts.priority).toBe(CARD_EXPIRY_SWEEP_PRIORITY);
    const december = `${new Date().getUTCFullYear() + 3}-12-31`;
    expect(await finished(job)).toEqual({ outcome: 'recorded', cardExpiresOn: december });
    expect(await expiryOf(sub.id)).toBe(december);
    // Known now: no sweep asks again.
    expect((await sweeper()(sweepJob)).cardLookups.join(' ')).not.toContain(sub.id);

    // A profile the provider has no card for: the lookup says so and leaves the expiry unknown (asked again another day).
    const stale = await makeSubscription({ email: 'expiry-stale@example.com', items: [line(product, 1)], due: onDay(20), profile: { customerProfileId: '1', paymentProfileId: '2' } });
    expect(await lookUpCardExpiry({ db: tdb.db, gateway: sandbox, log }, stale.id)).toEqual({ outcome: 'skipped', reason: CARD_EXPIRY_MESSAGES.notSaid });
    expect(await expiryOf(stale.id)).toBeNull();
    for (const s of [sub, stale]) await tdb.db.update(tables.subscriptions).set({ status: 'cancelled' }).where(eq(tables.subscriptions.id, s.id));
  });

  it(`card heads-up: the sweep emails an active plan billed within ${SUBSCRIPTION_HEADS_UP_DAYS} days whose card expires before that day, once per plan and card`, async () => {
    const product = await makeProduct(50);
    const items = [line(product, 1)];
    // Billed in four days (not on the renewal reminder's day: that email is another one).
    const due = onDay(4);
    const expiring = await makeSubscription({ email: 'card-expiring@example.com', items, due });
    const goodThrough = await makeSubscription({ email: 'card-good@example.com', items, due: onDay(2) });
    const later = await makeSubscription({ email: 'card-later@example.com', items, due: onDay(SUBSCRIPTION_HEADS_UP_DAYS + 1, 1) });
    const paused = await makeSubscription({ email: 'card-paused@example.com', items, due: onDay(2), status: 'paused' });
    const unknown = await makeSubscription({ email: 'card-unknown@example.com', items, due: onDay(2), profile: { customerProfileId: '1', paymentProfileId: '2' } });
    const expires = period(onDay(3));
    for (const [s, day] of [[expiring, expires], [goodThrough, period(onDay(2))], [later, period(onDay(1))], [paused, period(onDay(1))]] as const) {
      await tdb.db.update(tables.subscriptions).set({ cardExpiresOn: day }).where(eq(tables.subscriptions.id, s.id));
    }
    const cardOf = async (id: string) => (await subscription(id)).authnetPaymentProfileId!;
    const headsUpId = subscriptionCardExpiringJob.jobId(expiring.id, await cardOf(expiring.id));

    const worker = runtime.workers.get('emails')!;
    await worker.pause();
    let first: SweepResult;
    let second: SweepResult;
    try {
      first = await sweeper()(sweepJob);
      second = await sweeper()(sweepJob);
    } finally {
      void worker.resume();
    }
    expect(first.cardHeadsUps).toContain(headsUpId);
    expect(second.cardHeadsUps).toEqual(first.cardHeadsUps);
    for (const other of [goodThrough, later, paused, unknown]) expect(first.cardHeadsUps.join(' ')).not.toContain(other.id);
    // Only an email: nothing renewed early.
    expect(first.jobs.join(' ')).not.toContain(expiring.id);

    expect(await emailDone(headsUpId)).toMatchObject({ outcome: 'sent' });
    const [mail] = smtp.to('card-expiring@example.com');
    const day = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(due);
    expect(mail!.decoded).toContain('Subject: Heads-up: your saved card expires before your next delivery');
    expect(mail!.decoded).toContain(`A heads-up about your next Subscribe & Save delivery on ${day}: the card saved for your plan expires at the end of ${expiryMonth(expires)}, before that day`);
    expect(mail!.decoded).toContain('sign in and choose "Change Card" on the plan in My Subscriptions before');
    expect(mail!.decoded).toContain(`If you need help, contact us at ${SHOP.supportEmail}`);
    for (const address of ['card-good@example.com', 'card-later@example.com', 'card-paused@example.com', 'card-unknown@example.com']) expect(smtp.to(address)).toHaveLength(0);

    // The next day's sweep (the job gone from Redis by then): the email_log keeps it to one email per plan and card.
    await runtime.queues.emails.remove(headsUpId);
    expect((await sweeper()(sweepJob)).cardHeadsUps).toContain(headsUpId);
    expect(await emailDone(headsUpId)).toEqual({ outcome: 'skipped', reason: 'already sent' });
    expect(smtp.to('card-expiring@example.com')).toHaveLength(1);

    // Another card that expires too (as a resume with a new card would leave it, its expiry looked up): told again, once.
    const next = await makeProfile();
    await tdb.db.update(tables.subscriptions).set({ authnetCustomerProfileId: next.customerProfileId, authnetPaymentProfileId: next.paymentProfileId, cardExpiresOn: expires }).where(eq(tables.subscriptions.id, expiring.id));
    const nextId = subscriptionCardExpiringJob.jobId(expiring.id, next.paymentProfileId);
    expect((await sweeper()(sweepJob)).cardHeadsUps).toContain(nextId);
    expect(await emailDone(nextId)).toMatchObject({ outcome: 'sent' });
    expect(smtp.to('card-expiring@example.com')).toHaveLength(2);

    for (const s of [expiring, goodThrough, later, unknown]) await tdb.db.update(tables.subscriptions).set({ status: 'cancelled' }).where(eq(tables.subscriptions.id, s.id));
  });
});

describe('a renewal sweep missed while no worker ran', () => {
  const HOUR = 3_600_000;

  it('the last scheduled sweep is 06:00 UTC of today, or of yesterday before 06:00', () => {
    expect(lastScheduledSweep(new Date('2026-11-21T05:59:59.999Z')).toISOString()).toBe('2026-11-20T06:00:00.000Z');
    expect(lastScheduledSweep(new Date('2026-11-21T06:00:00.000Z')).toISOString()).toBe('2026-11-21T06:00:00.000Z');
    expect(lastScheduledSweep(new Date('2026-11-21T23:30:00.000Z')).toISOString()).toBe('2026-11-21T06:00:00.000Z');
  });

  it('runs at worker start when the last completed sweep is older than its scheduled time: once for workers starting together, not again once done', async () => {
    const other = await createTestDatabase('renewstart');
    const yesterday = new Date(Date.now() - DAY);
    const [due] = await other.db
      .insert(tables.subscriptions)
      .values({ customerEmail: 'missed@example.com', customerName: 'Sam Saver', items: [], amount: 1000, nextBillingDate: yesterday })
      .returning({ id: tables.subscriptions.id });
    const config = testWorkerConfig(other.url, 'renewstart', { WORKER_QUEUES: 'renewals', RELAY_ENABLED: 'false' });
    const started = Date.now();
    const runtimes = await Promise.all([startTestWorkers(config), startTestWorkers(config)]);
    const [a] = runtimes;
    try {
      const sweeps = await sweepsFinished(a);
      expect(sweeps.map((j) => j.id)).toEqual([renewalSweepJob.jobId(lastScheduledSweep(new Date()))]);
      expect(await finished(sweeps[0]!, a)).toMatchObject({ due: 1, jobs: [renewSubscriptionJob.jobId(due!.id, period(yesterday), 0)] });
      // The plan was renewed within seconds of the start (no stored card: paused without a charge).
      await waitFor(async () => (await other.db.select().from(tables.subscriptions).where(eq(tables.subscriptions.id, due!.id)))[0]?.status === 'paused', 10_000, 'renewed');
      expect(Date.now() - started).toBeLessThan(15_000);
      const marker = { queue: a.queues.renewals, redis };
      expect((await lastSweepAt(marker))!.getTime()).toBeGreaterThanOrEqual(started);

      // A worker starting later finds the sweep done and adds none.
      const later = await startTestWorkers(config);
      runtimes.push(later);
      expect(await addMissedSweep(marker)).toBeNull();
      expect((await sweepsFinished(later)).map((j) => j.id)).toEqual([sweeps[0]!.id]);

      // The next scheduled time passes with no worker up: the next start runs one sweep for it.
      const tomorrowAfterSix = new Date(lastScheduledSweep(new Date()).getTime() + 25 * HOUR);
      const id = await addMissedSweep(marker, tomorrowAfterSix);
      expect(id).toBe(renewalSweepJob.jobId(new Date(lastScheduledSweep(new Date()).getTime() + 24 * HOUR)));
      expect(await finished((await a.queues.renewals.getJob(id!))!, a)).toMatchObject({ due: 0 });
    } finally {
      for (const rt of runtimes) await rt.queues.renewals.removeJobScheduler('renewals-daily').catch(() => {});
      for (const rt of runtimes) await rt.close(1000);
      await other.drop();
    }
  });
});
