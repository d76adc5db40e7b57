/**
 * A shopper's changes on My Subscriptions as the renewals and the emails apply them (issue 13, "Plans"):
 * the real API (its sandbox on the workers' Redis prefix, so the workers charge the cards it stores) and
 * a worker runtime with the relay, the renewals and the emails queues, the local SMTP test server.
 *
 * "On the new date": a renewal is due by the database's clock, which a test cannot move; the plan's
 * billing date is moved back by the days that would have passed instead (the same "due today" the
 * sweep would see on that day).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { centsToDecimal, formatCents, pricePlan, SHOP } from '@nh/shared';
import { billingPeriodOf, nextBillingDate } from '@nh/shared/contracts/subscriptions';
import * as tables from '@nh/server/db/schema';
import { cardExpiresOn, LocalSandboxGateway, SANDBOX_API_LOGIN_ID, SANDBOX_CLIENT_KEY, subscriptionInvoiceNumber, type StoredPaymentProfile } from '@nh/server/payments';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import type { WorkerRuntime } from '../src/runtime';
import { TestSmtpServer } from './support/smtp-server';
import { storedTestCard, TEST_ADDRESS } from './support/sandbox-card';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import { renewNow, utcDay } from './support/renew';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let runtime: WorkerRuntime;
let sandbox: LocalSandboxGateway;
let api: TestApi;

const ADDRESS = TEST_ADDRESS;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);
const longDay = (d: Date) => new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(d);

beforeAll(async () => {
  tdb = await createTestDatabase('plans');
  smtp = await new TestSmtpServer().start();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'plans', { SMTP_URL: smtp.url, WORKER_QUEUES: 'renewals,emails', EMAIL_BACKOFF_MS: '50' }));
  sandbox = runtime.gateway as LocalSandboxGateway;
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: runtime.config.QUEUE_PREFIX });
});
afterAll(async () => {
  await api?.close();
  await runtime?.queues.renewals.removeJobScheduler('renewals-daily').catch(() => {});
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

async function signUp(): Promise<{ id: string; call: (path: string, init?: { method?: string; body?: unknown }) => Promise<Response> }> {
  const email = `plan-worker.${randomBytes(4).toString('hex')}@example.com`;
  const res = await api.request('/api/register', { body: { firstName: 'Sam', lastName: 'Saver', email, password: 'correct horse battery' } });
  expect(res.status).toBe(201);
  const { user } = (await res.json()) as { user: { id: string } };
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))!;
  return { id: user.id, call: (path, init = {}) => api.request(path, { ...init, headers: { cookie } }) };
}

const makeProfile = () => storedTestCard(sandbox);

/** A plan of the shopper's for one of `product` at `cents`, next billed on `due` to `profile` (as checkout writes one). */
async function insertPlan(o: { userId: string; email: string; product: { id: number; name: string }; cents: number; due: Date; profile: StoredPaymentProfile }) {
  const [plan] = await tdb.db
    .insert(tables.subscriptions)
    .values({
      userId: o.userId,
      customerEmail: o.email,
      customerName: 'Sam Saver',
      items: [{ productId: o.product.id, productName: o.product.name, variantSku: null, sku: null, itemNumber: null, quantity: 1, price: centsToDecimal(o.cents) }],
      amount: pricePlan([{ price: o.cents, quantity: 1 }], null).renewal.total,
      nextBillingDate: o.due,
      shippingAddress: ADDRESS,
      authnetCustomerProfileId: o.profile.customerProfileId,
      authnetPaymentProfileId: o.profile.paymentProfileId,
    })
    .returning({ id: tables.subscriptions.id, amount: tables.subscriptions.amount });
  return plan!;
}

const subscription = async (id: string) => (await tdb.db.select().from(tables.subscriptions).where(eq(tables.subscriptions.id, id)))[0]!;

describe('a plan the shopper changed, renewed', () => {
  it('skip, move the date, a new card and new quantities: the renewal on the new date charges the new card the new amount once; each change emailed once', async () => {
    const email = `changes-${randomUUID().slice(0, 8)}@example.com`;
    const shopper = await signUp();
    const [product] = await tdb.db
      .insert(tables.products)
      .values({ name: 'Plan Worker Cleaner', slug: `plan-worker-${randomUUID().slice(0, 6)}`, price: 2000, inventory: 50, status: 'active' })
      .returning({ id: tables.products.id, name: tables.products.name });
    const oldProfile = await makeProfile();
    const due = utcDay(2, 10);
    const plan = await insertPlan({ userId: shopper.id, email, product: product!, cents: 2000, due, profile: oldProfile });
    const id = plan.id;

    // Skip the next delivery, then move the one after it to 20 days from today.
    expect((await shopper.call(`/api/subscriptions/${id}/skip`, { body: { period: billingPeriodOf(due) } })).status).toBe(200);
    expect((await subscription(id)).nextBillingDate.toISOString()).toBe(nextBillingDate(due).toISOString());
    const moved = utcDay(20, 10);
    expect((await shopper.call(`/api/subscriptions/${id}/reschedule`, { body: { nextBillingDate: billingPeriodOf(moved) } })).status).toBe(200);

    // A new card (MasterCard ending 0015), stored by the API with the gateway the workers charge.
    const tokenized = await api.request('/api/payments/sandbox/tokenize', {
      body: { authData: { clientKey: SANDBOX_CLIENT_KEY, apiLoginID: SANDBOX_API_LOGIN_ID }, cardData: { cardNumber: '5424000000000015', month: '10', year: '2031', cardCode: '123', zip: ADDRESS.zip } },
    });
    const { opaqueData } = (await tokenized.json()) as { opaqueData: unknown };
    const card = await shopper.call(`/api/subscriptions/${id}/card`, { body: opaqueData });
    expect(card.status, await card.clone().text()).toBe(200);
    const afterCard = await subscription(id);
    expect(afterCard.authnetPaymentProfileId).not.toBe(oldProfile.paymentProfileId);
    const newProfile = { customerProfileId: afterCard.authnetCustomerProfileId!, paymentProfileId: afterCard.authnetPaymentProfileId! };

    // Two of the item from now on, at today's catalogue price.
    const items2 = await shopper.call(`/api/subscriptions/${id}/items`, { method: 'PUT', body: { items: [{ productId: product!.id, variantSku: null, quantity: 2 }] } });
    expect(items2.status).toBe(200);
    const amount = pricePlan([{ price: 2000, quantity: 2 }], null).renewal.total;
    expect((await subscription(id)).amount).toBe(amount);

    // The skipped delivery's renewal (a job added before the skip) charges nothing; the moved one is not due yet.
    expect(await renewNow(runtime, id, due)).toEqual({ outcome: 'skipped', reason: 'this period is settled; the subscription moved on' });
    expect((await renewNow(runtime, id, moved)).outcome).toBe('skipped');
    expect(sandbox.charges.filter((c) => c.invoiceNumber?.startsWith(subscriptionInvoiceNumber(id, '')))).toEqual([]);

    // The new date comes (20 days on): its renewal charges the new card, the new amount, once.
    await q(`update subscriptions set next_billing_date = next_billing_date - interval '20 days' where id = $1`, [id]);
    const onTheDay = (await subscription(id)).nextBillingDate;
    expect(billingPeriodOf(onTheDay)).toBe(billingPeriodOf(utcDay(0)));
    expect(await renewNow(runtime, id, onTheDay)).toMatchObject({ outcome: 'approved' });
    const charges = sandbox.charges.filter((c) => c.invoiceNumber?.startsWith(subscriptionInvoiceNumber(id, '')));
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount, lastFour: '0015', invoiceNumber: subscriptionInvoiceNumber(id, billingPeriodOf(onTheDay)) });
    const [order] = await tdb.db.select().from(tables.orders).where(eq(tables.orders.subscriptionId, id));
    expect(order).toMatchObject({ total: amount, items: [expect.objectContaining({ productId: product!.id, quantity: 2, price: '20.00' })] });
    expect(await subscription(id)).toMatchObject({ status: 'active', nextBillingDate: nextBillingDate(onTheDay), authnetPaymentProfileId: newProfile.paymentProfileId });
    // The new card's expiry, looked up from the change's outbox row.
    await waitFor(async () => (await subscription(id)).cardExpiresOn === cardExpiresOn({ month: 10, year: 2031 }), 10_000, 'card expiry recorded');

    // One confirmation per change, saying what the renewal then did.
    const expected = [
      `You skipped your next ${SHOP.name} delivery`,
      `Your next ${SHOP.name} delivery is now on ${longDay(moved)}`,
      `The card for your ${SHOP.name} Subscribe & Save plan is changed`,
      `Your ${SHOP.name} Subscribe & Save plan is updated`,
    ];
    const subjectsOf = () => smtp.to(email).map((m) => /Subject: (.*)/.exec(m.decoded)?.[1]?.trim());
    await waitFor(() => expected.every((subject) => subjectsOf().includes(subject)), 15_000, 'four change emails');
    expect(subjectsOf().filter((subject) => expected.includes(subject!))).toHaveLength(4);
    const mails = smtp.to(email);
    const cardMail = mails.find((m) => m.decoded.includes('The card for your'))!;
    expect(cardMail.decoded).toContain('Your plan now uses your Mastercard ending in 0015. You have not been charged for this change.');
    // Sent for the change as it was then: one item's amount, on the date moved to.
    expect(cardMail.decoded).toContain(`we will charge ${formatCents(pricePlan([{ price: 2000, quantity: 1 }], null).renewal.total)} to your Mastercard ending in 0015`);
    const itemsMail = mails.find((m) => m.decoded.includes('plan is updated'))!;
    expect(itemsMail.decoded).toContain(`Each delivery is now ${formatCents(amount)}`);
    const logged = await q<{ n: number }>(`select count(*)::int as n from email_log where kind = 'subscription-changed' and subject_id like $1 and status = 'sent'`, [`${id}:%`]);
    expect(logged).toEqual([{ n: 4 }]);
  });

  it('a plan the shopper paused is not charged by its renewal; resumed on its saved card, the next date is charged; both emailed', async () => {
    const email = `pause-${randomUUID().slice(0, 8)}@example.com`;
    const shopper = await signUp();
    const [product] = await tdb.db
      .insert(tables.products)
      .values({ name: 'Plan Worker Pods', slug: `plan-pods-${randomUUID().slice(0, 6)}`, price: 1500, inventory: 50, status: 'active' })
      .returning({ id: tables.products.id, name: tables.products.name });
    const profile = await makeProfile();
    // Due today (a billing date is a day): paused before its renewal ran.
    const due = utcDay(0, 0.1);
    const plan = await insertPlan({ userId: shopper.id, email, product: product!, cents: 1500, due, profile });
    const id = plan.id;

    expect((await shopper.call(`/api/subscriptions/${id}/pause`, { method: 'POST' })).status).toBe(200);
    expect(await renewNow(runtime, id, due)).toEqual({ outcome: 'skipped', reason: 'subscription is paused' });
    // Resumed the same day: today's delivery is kept and charged by its renewal, on the saved card.
    expect((await shopper.call(`/api/subscriptions/${id}/unpause`, { method: 'POST' })).status).toBe(200);
    expect(await renewNow(runtime, id, due)).toMatchObject({ outcome: 'approved' });
    const charges = sandbox.charges.filter((c) => c.invoiceNumber?.startsWith(subscriptionInvoiceNumber(id, '')));
    expect(charges).toEqual([expect.objectContaining({ amount: plan.amount, lastFour: '1111', invoiceNumber: subscriptionInvoiceNumber(id, billingPeriodOf(due)) })]);

    const paused = `Your ${SHOP.name} Subscribe & Save plan is paused`;
    const resumed = `Your ${SHOP.name} Subscribe & Save plan is active again`;
    const mails = await waitFor(() => {
      const all = smtp.to(email);
      return all.some((m) => m.decoded.includes(`Subject: ${paused}`)) && all.some((m) => m.decoded.includes(`Subject: ${resumed}`)) && all;
    }, 15_000, 'paused and resumed emails');
    expect(mails.find((m) => m.decoded.includes(`Subject: ${paused}`))!.decoded).toContain('You paused this plan. No deliveries are sent or charged until it is resumed.');
    expect(mails.find((m) => m.decoded.includes(`Subject: ${resumed}`))!.decoded).toContain(`Your next delivery is on ${longDay(due)}: we will charge ${formatCents(plan.amount)} to your saved card that day.`);
  });

  it('every 2 months (issue 21): the next date is the last delivery + 2 months, emailed in words; its renewal moves on 2 months', async () => {
    const email = `cadence-${randomUUID().slice(0, 8)}@example.com`;
    const shopper = await signUp();
    const [product] = await tdb.db
      .insert(tables.products)
      .values({ name: 'Plan Worker Refill', slug: `plan-refill-${randomUUID().slice(0, 6)}`, price: 1800, inventory: 50, status: 'active' })
      .returning({ id: tables.products.id, name: tables.products.name });
    const last = utcDay(-10, 9);
    const plan = await insertPlan({ userId: shopper.id, email, product: product!, cents: 1800, due: nextBillingDate(last), profile: await makeProfile() });
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, $3, 'approved')`, [plan.id, billingPeriodOf(last), centsToDecimal(plan.amount)]);

    const res = await shopper.call(`/api/subscriptions/${plan.id}/frequency`, { body: { intervalCount: 2 } });
    expect(res.status, await res.clone().text()).toBe(200);
    const next = nextBillingDate(last, 'monthly', 2);
    expect(await subscription(plan.id)).toMatchObject({ intervalCount: 2, nextBillingDate: next });
    const subject = `Your ${SHOP.name} deliveries now come every 2 months`;
    const mail = await waitFor(() => smtp.to(email).find((m) => m.decoded.includes(`Subject: ${subject}`)), 15_000, 'cadence email');
    expect(mail.decoded).toContain('You changed your plan from every month to every 2 months.');
    expect(mail.decoded).toContain(`Your next delivery is on ${longDay(next)}`);

    // On the new date (moved back to today, as the sweep would see it then): charged once, next in 2 months.
    await q(`update subscriptions set next_billing_date = $2 where id = $1`, [plan.id, utcDay(0, 9)]);
    expect(await renewNow(runtime, plan.id, utcDay(0, 9))).toMatchObject({ outcome: 'approved' });
    expect((await subscription(plan.id)).nextBillingDate).toEqual(nextBillingDate(utcDay(0, 9), 'monthly', 2));
  });

  it('a product the shopper added (a size of it): the renewal charges the new amount and its order carries the added line; the email names it', async () => {
    const email = `added-${randomUUID().slice(0, 8)}@example.com`;
    const shopper = await signUp();
    const [kept, added] = await tdb.db
      .insert(tables.products)
      .values([
        { name: 'Plan Worker Spray', slug: `plan-spray-${randomUUID().slice(0, 6)}`, price: 1200, inventory: 50, status: 'active' },
        {
          name: 'Plan Worker Refill',
          slug: `plan-refill-${randomUUID().slice(0, 6)}`,
          price: 1800,
          inventory: 50,
          status: 'active',
          itemNumber: 'RF-100',
          variants: [
            { label: '32 oz', price: '18.00', sku: `RF-32-${randomUUID().slice(0, 6)}` },
            { label: '1 gal', price: '45.00', sku: `RF-128-${randomUUID().slice(0, 6)}` },
          ],
        },
      ])
      .returning({ id: tables.products.id, name: tables.products.name, variants: tables.products.variants });
    const gallon = added!.variants[1]!;
    const profile = await makeProfile();
    const due = utcDay(0, 0.1);
    const plan = await insertPlan({ userId: shopper.id, email, product: kept!, cents: 1200, due, profile });
    const id = plan.id;

    // The browser's price is ignored: the size is priced from the catalogue.
    const res = await shopper.call(`/api/subscriptions/${id}/items`, {
      method: 'PUT',
      body: { items: [{ productId: kept!.id, variantSku: null, quantity: 1 }, { productId: added!.id, variantSku: gallon.sku, quantity: 2, price: '1.00' }] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const amount = pricePlan([{ price: 1200, quantity: 1 }, { price: 4500, quantity: 2 }], null).renewal.total;

    expect(await renewNow(runtime, id, due)).toMatchObject({ outcome: 'approved' });
    const charges = sandbox.charges.filter((c) => c.invoiceNumber?.startsWith(subscriptionInvoiceNumber(id, '')));
    expect(charges).toEqual([expect.objectContaining({ amount, invoiceNumber: subscriptionInvoiceNumber(id, billingPeriodOf(due)) })]);
    const [order] = await tdb.db.select().from(tables.orders).where(eq(tables.orders.subscriptionId, id));
    expect(order).toMatchObject({
      total: amount,
      items: [
        expect.objectContaining({ productId: kept!.id, quantity: 1, price: '12.00' }),
        { productId: added!.id, productName: 'Plan Worker Refill - 1 gal', variantSku: gallon.sku, sku: gallon.sku, itemNumber: 'RF-100', quantity: 2, price: '45.00' },
      ],
    });
    // The renewal took the added line's stock.
    const [stock] = await q<{ inventory: number }>('select inventory from products where id = $1', [added!.id]);
    expect(stock!.inventory).toBe(48);

    const mail = await waitFor(() => smtp.to(email).find((m) => m.decoded.includes('plan is updated')), 15_000, 'items email');
    expect(mail.decoded).toContain('You added: 2 x Plan Worker Refill - 1 gal.');
    expect(mail.decoded).toContain(`Each delivery is now ${formatCents(amount)}`);
  });

  it('two quick item changes: each email lists the lines its own change wrote, even when both are sent after the second', async () => {
    const email = `twice-${randomUUID().slice(0, 8)}@example.com`;
    const shopper = await signUp();
    const [product] = await tdb.db
      .insert(tables.products)
      .values({ name: 'Plan Worker Wipes', slug: `plan-wipes-${randomUUID().slice(0, 6)}`, price: 1000, inventory: 50, status: 'active' })
      .returning({ id: tables.products.id, name: tables.products.name });
    const plan = await insertPlan({ userId: shopper.id, email, product: product!, cents: 1000, due: utcDay(10, 10), profile: await makeProfile() });
    const put = (quantity: number) => shopper.call(`/api/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items: [{ productId: product!.id, variantSku: null, quantity }] } });

    // The emails wait until both changes are written (as a busy queue would make them).
    await runtime.queues.emails.pause();
    try {
      expect((await put(2)).status).toBe(200);
      expect((await put(3)).status).toBe(200);
    } finally {
      await runtime.queues.emails.resume();
    }
    const amountOf = (quantity: number) => formatCents(pricePlan([{ price: 1000, quantity }], null).renewal.total);
    const mails = await waitFor(() => {
      const updated = smtp.to(email).filter((m) => m.decoded.includes('plan is updated'));
      return updated.length === 2 && updated;
    }, 15_000, 'two items emails');
    const first = mails.find((m) => m.decoded.includes(`Each delivery is now ${amountOf(2)}`))!;
    const second = mails.find((m) => m.decoded.includes(`Each delivery is now ${amountOf(3)}`))!;
    expect(first.decoded).toContain('2 x Plan Worker Wipes @ $10.00');
    expect(first.decoded).not.toContain('3 x Plan Worker Wipes');
    expect(second.decoded).toContain('3 x Plan Worker Wipes @ $10.00');
  });
});
