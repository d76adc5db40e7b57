/**
 * Ship now and one-time add-ons as the renewals apply them (issue 21): the real API (its sandbox on the
 * workers' Redis prefix) and a worker runtime with the relay, the renewals and the emails queues.
 * - ship-now racing the daily sweep charges once (one approved payment, one order, next date = today + cadence);
 * - an add-on ships once (the first renewal carries it and removes it, the second does not);
 * - a declined renewal keeps the add-on for the retry; a skipped delivery keeps it for the next one.
 *
 * "On the new date": a renewal is due by the database's clock, which a test cannot move; the plan's billing
 * date is moved back instead (the same "due today" the sweep would see on that day).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { centsToDecimal, pricePlan, priceRenewal } from '@nh/shared';
import { billingPeriodOf, nextBillingDate, subscriptionViewSchema } from '@nh/shared/contracts/subscriptions';
import * as tables from '@nh/server/db/schema';
import { SANDBOX_DECLINE_ZIP, subscriptionInvoiceNumber, type LocalSandboxGateway, type StoredPaymentProfile } from '@nh/server/payments';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis, type Redis } from '@nh/server/runtime/redis';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { renewSubscriptionJob } from '../src/renewals/renew';
import { createRenewalSweep, renewalSweepJob } from '../src/renewals/sweep';
import { renewalReminderEmail } from '../src/emails/renewal-reminder';
import type { WorkerRuntime } from '../src/runtime';
import { storedTestCard, TEST_ADDRESS } from './support/sandbox-card';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import { renewNow, utcDay } from './support/renew';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let runtime: WorkerRuntime;
let sandbox: LocalSandboxGateway;
let api: TestApi;
let redis: Redis;

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  tdb = await createTestDatabase('shipnow');
  smtp = await new TestSmtpServer().start();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'shipnow', { SMTP_URL: smtp.url, WORKER_QUEUES: 'renewals,emails', EMAIL_BACKOFF_MS: '50' }));
  sandbox = runtime.gateway as LocalSandboxGateway;
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: runtime.config.QUEUE_PREFIX });
  redis = createRedis(runtime.config.REDIS_URL);
});
afterAll(async () => {
  await api?.close();
  redis?.disconnect();
  await runtime?.queues.renewals.removeJobScheduler('renewals-daily').catch(() => {});
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

type Shopper = { id: string; call: (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Response> };
async function signUp(): Promise<Shopper> {
  const email = `shipnow-worker.${randomBytes(4).toString('hex')}@example.com`;
  const res = await api.request('/api/register', { body: { firstName: 'Sam', lastName: 'Saver', email, password: 'correct horse battery' } });
  expect(res.status).toBe(201);
  const { user } = (await res.json()) as { user: { id: string } };
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))!;
  return { id: user.id, call: (path, init = {}) => api.request(path, { ...init, headers: { cookie, ...init.headers } }) };
}

async function product(price: number, inventory = 50) {
  const [row] = await tdb.db
    .insert(tables.products)
    .values({ name: `Ship Now Worker ${randomUUID().slice(0, 6)}`, slug: `ship-now-worker-${randomUUID().slice(0, 8)}`, price, inventory, status: 'active' })
    .returning({ id: tables.products.id, name: tables.products.name });
  return row!;
}

/** A plan of the shopper's for one of a fresh product at 20.00, next billed on `due` (as checkout writes one). */
async function insertPlan(o: { userId: string; due: Date; zip?: string; profile?: StoredPaymentProfile; email?: string }) {
  const p = await product(2000);
  const profile = o.profile ?? (await storedTestCard(sandbox));
  const [plan] = await tdb.db
    .insert(tables.subscriptions)
    .values({
      userId: o.userId,
      customerEmail: o.email ?? 'sam@example.com',
      customerName: 'Sam Saver',
      items: [{ productId: p.id, productName: p.name, variantSku: null, sku: null, itemNumber: null, quantity: 1, price: centsToDecimal(2000) }],
      amount: pricePlan([{ price: 2000, quantity: 1 }], null).renewal.total,
      nextBillingDate: o.due,
      shippingAddress: { ...TEST_ADDRESS, zip: o.zip ?? TEST_ADDRESS.zip },
      authnetCustomerProfileId: profile.customerProfileId,
      authnetPaymentProfileId: profile.paymentProfileId,
    })
    .returning({ id: tables.subscriptions.id, amount: tables.subscriptions.amount });
  return plan!;
}

const subscription = async (id: string) => (await tdb.db.select().from(tables.subscriptions).where(eq(tables.subscriptions.id, id)))[0]!;
const approved = (id: string) => q<{ billing_period: string; amount: string }>(`select billing_period, amount::text from payment_transactions where subscription_id = $1 and status = 'approved' and kind = 'charge'`, [id]);
const ordersOf = (id: string) =>
  q<{ status: string; total: string; items: tables.LineItem[] }>(`select status, total::text, items from orders where subscription_id = $1 order by created_at`, [id]);
const chargesOf = (id: string, period: string) => sandbox.charges.filter((c) => c.invoiceNumber === subscriptionInvoiceNumber(id, period));

const addOneTime = async (shopper: Shopper, id: string, productId: number, quantity: number) => {
  const res = await shopper.call(`/api/subscriptions/${id}/one-time-items`, { body: { productId, quantity } });
  expect(res.status, await res.clone().text()).toBe(201);
  return subscriptionViewSchema.parse(await res.json());
};

describe('ship now', () => {
  it('racing the 06:00 sweep (and a second tab) charges once: one approved payment, one order, the next date today + cadence', async () => {
    const shopper = await signUp();
    const due = utcDay(12, 14);
    const email = `race-${randomUUID().slice(0, 8)}@example.com`;
    const plan = await insertPlan({ userId: shopper.id, due, email });
    const sweep = createRenewalSweep({ db: tdb.db, gateway: sandbox, queues: runtime.queues, redis, config: runtime.config, log: createLogger('shipnow-sweep', 'silent') });
    const sweepJob = { name: renewalSweepJob.name, id: 'test-shipnow-sweep', data: {} } as Job;
    const ship = (key: string) => shopper.call(`/api/subscriptions/${plan.id}/ship-now`, { method: 'POST', body: {}, headers: { 'Idempotency-Key': key } });

    // The sweeps run while the ship-now commits and after it (the relay adds the ship-now's job meanwhile).
    const [first, secondTab, ...sweeps] = await Promise.all([ship(`a-${randomUUID()}`), ship(`b-${randomUUID()}`), sweep(sweepJob), sweep(sweepJob)]);
    expect([first.status, secondTab.status]).toEqual([202, 202]);
    const today = billingPeriodOf(utcDay(0));
    const afterSweep = await sweep(sweepJob);
    expect([...sweeps, afterSweep].flatMap((s) => s.jobs).every((id) => id === renewSubscriptionJob.jobId(plan.id, today, 0))).toBe(true);

    await waitFor(async () => (await approved(plan.id)).length > 0, 15_000, 'the ship-now charge');
    // Anything still racing settles, and a later sweep finds nothing due.
    await waitFor(async () => (await runtime.queues.renewals.getJobCounts('active', 'waiting')).active === 0, 10_000, 'renewals idle');
    expect((await sweep(sweepJob)).jobs).not.toContain(renewSubscriptionJob.jobId(plan.id, today, 0));

    // The relay's job (from the ship-now's outbox row) and the sweep's are one job: the sweep's id.
    const jobs = (await runtime.queues.renewals.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed'])).filter((j) => j?.name === renewSubscriptionJob.name && j.data?.subscriptionId === plan.id);
    expect(jobs.map((j) => j.id)).toEqual([renewSubscriptionJob.jobId(plan.id, today, 0)]);
    expect(await approved(plan.id)).toEqual([{ billing_period: today, amount: centsToDecimal(plan.amount) }]);
    expect(chargesOf(plan.id, today)).toHaveLength(1);
    const orders = await ordersOf(plan.id);
    expect(orders.map((o) => o.status)).toEqual(['processing']);
    expect((await subscription(plan.id)).nextBillingDate.toISOString()).toBe(nextBillingDate(utcDay(0, 14), 'monthly', 1).toISOString());
    expect(await q('select billing_period from subscription_ship_nows where subscription_id = $1', [plan.id])).toEqual([{ billing_period: today }]);

    // The same day again: refused, nothing charged.
    const again = await ship(`c-${randomUUID()}`);
    expect(again.status).toBe(409);
    expect(chargesOf(plan.id, today)).toHaveLength(1);
    // One confirmation of the ship-now (the second tab wrote none), then the order's own confirmation.
    const confirmation = await waitFor(() => smtp.to(email).find((m) => m.decoded.includes('delivery ships today')), 15_000, 'ship-now email');
    expect(confirmation.decoded).toContain(`After it, your next delivery is on ${new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(nextBillingDate(utcDay(0, 14)))}`);
    expect(smtp.to(email).filter((m) => m.decoded.includes('delivery ships today'))).toHaveLength(1);
    // The page shows it charged.
    const list = subscriptionViewSchema.array().parse(await (await shopper.call('/api/subscriptions')).json());
    expect(list.find((p) => p.id === plan.id)?.shipNow).toMatchObject({ period: today, state: 'charged' });
  });
});

describe('one-time add-ons', () => {
  it('ship once: the first renewal carries the add-on (priced today, with the discount, marked one-time) and removes it; the second does not', async () => {
    const shopper = await signUp();
    const due = utcDay(0, 10);
    const plan = await insertPlan({ userId: shopper.id, due });
    const brush = await product(500);
    await addOneTime(shopper, plan.id, brush.id, 2);
    // Priced on the day it is charged: the catalogue price changes after it was added.
    await q('update products set price = 6.00 where id = $1', [brush.id]);

    expect(await renewNow(runtime, plan.id, due)).toMatchObject({ outcome: 'approved' });
    const withAddOn = priceRenewal([{ price: 2000, quantity: 1 }], plan.amount, [{ price: 600, quantity: 2 }]).total;
    expect(withAddOn).toBe(plan.amount + 1102); // 2 x 6.00 less 15 % = 10.20, plus 8 % tax = 11.02
    const [first] = await ordersOf(plan.id);
    expect(first!.total).toBe(centsToDecimal(withAddOn));
    expect(first!.items.map((i) => [i.productId, i.quantity, i.price, i.oneTime ?? false])).toEqual([
      [expect.any(Number), 1, '20.00', false],
      [brush.id, 2, '6.00', true],
    ]);
    expect(await approved(plan.id)).toEqual([{ billing_period: billingPeriodOf(due), amount: centsToDecimal(withAddOn) }]);
    const after = await subscription(plan.id);
    expect(after.oneTimeItems).toEqual([]);

    // The next delivery (on its day: a period of its own, here yesterday's): the plan's own lines and amount only.
    await q('update subscriptions set next_billing_date = $2 where id = $1', [plan.id, utcDay(-1, 11)]);
    expect(await renewNow(runtime, plan.id, utcDay(-1, 11))).toMatchObject({ outcome: 'approved' });
    const orders = await ordersOf(plan.id);
    expect(orders).toHaveLength(2);
    expect(orders[1]!.total).toBe(centsToDecimal(plan.amount));
    expect(orders[1]!.items.map((i) => i.productId)).not.toContain(brush.id);
  });

  it('a period found already paid (its outcome booked elsewhere) only finishes the bookkeeping: the add-on its order shipped comes off', async () => {
    const shopper = await signUp();
    const due = utcDay(0, 8);
    const plan = await insertPlan({ userId: shopper.id, due });
    const view = await addOneTime(shopper, plan.id, (await product(400)).id, 1);
    expect(await renewNow(runtime, plan.id, due)).toMatchObject({ outcome: 'approved' });
    expect((await ordersOf(plan.id))[0]!.items.at(-1)).toMatchObject({ oneTime: true, oneTimeLineId: view.oneTimeItems[0]!.id });
    // As if the payment was approved but the plan not moved on (a charge settled by staff): the add-on still on it.
    await q('update subscriptions set next_billing_date = $2, one_time_items = $3 where id = $1', [plan.id, due, JSON.stringify((await subscription(plan.id)).oneTimeItems.concat(view.oneTimeItems.map(({ priceToday: _p, ...line }) => line)))]);
    expect((await subscription(plan.id)).oneTimeItems).toHaveLength(1);
    expect(await renewNow(runtime, plan.id, due)).toEqual({ outcome: 'already-paid' });
    expect((await subscription(plan.id)).oneTimeItems).toEqual([]);
    expect(chargesOf(plan.id, billingPeriodOf(due))).toHaveLength(1);
  });

  it('a declined renewal keeps the add-on for the retry', async () => {
    const shopper = await signUp();
    const due = utcDay(0, 9);
    const plan = await insertPlan({ userId: shopper.id, due, zip: SANDBOX_DECLINE_ZIP });
    const spare = await product(700);
    const view = await addOneTime(shopper, plan.id, spare.id, 1);
    expect(await renewNow(runtime, plan.id, due)).toMatchObject({ outcome: 'declined' });
    const after = await subscription(plan.id);
    expect(after.failedAttempts).toBe(1);
    expect(after.oneTimeItems.map((o) => o.id)).toEqual(view.oneTimeItems.map((o) => o.id));
    // The declined order carried it, and its stock came back.
    expect((await ordersOf(plan.id))[0]).toMatchObject({ status: 'cancelled' });
    expect((await q<{ inventory: number }>('select inventory from products where id = $1', [spare.id]))[0]!.inventory).toBe(50);
  });

  it('a skipped delivery keeps the add-on for the next one, and the reminder email lists it with the charge it adds', async () => {
    const shopper = await signUp();
    const due = utcDay(4, 10);
    const plan = await insertPlan({ userId: shopper.id, due });
    const refill = await product(1000);
    await addOneTime(shopper, plan.id, refill.id, 1);
    const skipped = await shopper.call(`/api/subscriptions/${plan.id}/skip`, { body: { period: billingPeriodOf(due) } });
    expect(skipped.status).toBe(200);
    const view = subscriptionViewSchema.parse(await skipped.json());
    expect(view.nextBillingDate).toBe(nextBillingDate(due).toISOString());
    expect(view.oneTimeItems.map((o) => o.productId)).toEqual([refill.id]);

    const charge = priceRenewal([{ price: 2000, quantity: 1 }], plan.amount, [{ price: 1000, quantity: 1 }]).total;
    expect(view.nextDeliveryAmount).toBe(centsToDecimal(charge));
    const reminder = renewalReminderEmail({
      customerName: 'Sam Saver',
      items: [{ productName: 'Cleaner', quantity: 1, price: '20.00' }],
      oneTime: [{ productName: refill.name, quantity: 1, price: '10.00' }],
      charge,
      amount: plan.amount,
      discountPercent: 15,
      interval: 'monthly',
      intervalCount: 1,
      nextBillingDate: nextBillingDate(due),
      card: null,
    });
    expect(reminder.text).toContain(`we will charge $${centsToDecimal(charge)}`);
    expect(reminder.text).toContain(`One-time items, this delivery only:\n  1 x ${refill.name} @ $10.00`);
  });
});
