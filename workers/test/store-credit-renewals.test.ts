/**
 * Store credit at each renewal (issue 23), against the real database, Redis and the local sandbox:
 * credit pays before the card, the card is charged the rest exactly once even when the job is retried
 * (run twice, or retried after the charge's answer was lost), credit that pays it all needs no charge,
 * and a declined card gives the credit back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { priceCart, toCents } from '@nh/shared';
import * as tables from '@nh/server/db/schema';
import { LocalSandboxGateway, subscriptionInvoiceNumber, type PaymentGateway } from '@nh/server/payments';
import { createLogger } from '@nh/server/observability/logger';
import { creditBalance, creditHistory, moveCredit, spendCreditOnOrder } from '@nh/server/queries/store-credit';
import type { Job } from 'bullmq';
import { createPaymentReconcileProcessor } from '../src/maintenance/reconcile-payments';
import { renewSubscription } from '../src/renewals/renew';
import type { WorkerRuntime } from '../src/runtime';
import { renewNow } from './support/renew';
import { storedTestCard, TEST_ADDRESS } from './support/sandbox-card';
import { createTestDatabase, startTestWorkers, testWorkerConfig, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let runtime: WorkerRuntime;
let sandbox: LocalSandboxGateway;
const DAY = 86_400_000;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  tdb = await createTestDatabase('credit');
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'credit', { WORKER_QUEUES: 'renewals' }));
  sandbox = runtime.gateway as LocalSandboxGateway;
});
afterAll(async () => {
  await runtime?.queues.renewals.removeJobScheduler('renewals-daily').catch(() => {});
  await runtime?.close(2000);
  await tdb?.drop();
});

/** A shopper account with `credit` cents, and an active plan of one $20.00 product due yesterday. */
async function planWithCredit(credit: number, zip = TEST_ADDRESS.zip) {
  const [user] = await tdb.db.insert(tables.users).values({ email: `credit-${randomUUID().slice(0, 8)}@example.com` }).returning({ id: tables.users.id });
  const [product] = await tdb.db
    .insert(tables.products)
    .values({ name: `Credit renewal ${randomUUID().slice(0, 6)}`, slug: `credit-renewal-${randomUUID().slice(0, 8)}`, price: 2000, inventory: 50, status: 'active' })
    .returning({ id: tables.products.id, name: tables.products.name });
  const items = [{ productId: product!.id, productName: product!.name, variantSku: null, sku: null, itemNumber: null, quantity: 1, price: '20.00' }];
  const amount = priceCart([{ price: 2000, quantity: 1 }], { subscribe: true }).total;
  const profile = await storedTestCard(sandbox);
  const due = new Date(Date.now() - DAY);
  const [sub] = await tdb.db
    .insert(tables.subscriptions)
    .values({
      userId: user!.id,
      customerEmail: 'saver@example.com',
      customerName: 'Sam Saver',
      items,
      amount,
      nextBillingDate: due,
      status: 'active',
      shippingAddress: { ...TEST_ADDRESS, zip },
      authnetCustomerProfileId: profile.customerProfileId,
      authnetPaymentProfileId: profile.paymentProfileId,
    })
    .returning({ id: tables.subscriptions.id });
  if (credit > 0) await moveCredit(tdb.db.$client, { userId: user!.id, kind: 'grant', amount: credit, reason: 'test', staffId: null, orderId: null, subscriptionId: null, reference: null });
  return { userId: user!.id, subscriptionId: sub!.id, amount, due };
}

const chargesOf = (subscriptionId: string, due: Date) => sandbox.charges.filter((c) => c.invoiceNumber === subscriptionInvoiceNumber(subscriptionId, due.toISOString().slice(0, 10)));
const ordersOf = (id: string) => tdb.db.select().from(tables.orders).where(eq(tables.orders.subscriptionId, id));
const paymentsOf = (id: string) => tdb.db.select().from(tables.paymentTransactions).where(eq(tables.paymentTransactions.subscriptionId, id));

describe('store credit at renewals', () => {
  it('a renewal paid partly by credit charges the card the rest, once, when the job runs twice', async () => {
    const plan = await planWithCredit(500);
    expect(plan.amount).toBe(toCents('17.00') + toCents('1.36')); // 15% off $20.00, free shipping, 8% tax
    const first = await renewNow(runtime, plan.subscriptionId, plan.due);
    const second = await renewNow(runtime, plan.subscriptionId, plan.due);
    expect(first.outcome).toBe('approved');
    expect(second.outcome).toBe('skipped');
    expect(chargesOf(plan.subscriptionId, plan.due).map((c) => c.amount)).toEqual([plan.amount - 500]);
    const [order] = await ordersOf(plan.subscriptionId);
    expect(order).toMatchObject({ status: 'processing', total: plan.amount, creditApplied: 500 });
    expect((await paymentsOf(plan.subscriptionId)).map((p) => [p.status, p.amount])).toEqual([['approved', plan.amount - 500]]);
    expect(await creditBalance(tdb.db.$client, plan.userId)).toBe(0);
    expect((await creditHistory(tdb.db.$client, plan.userId)).filter((e) => e.kind === 'spend')).toEqual([expect.objectContaining({ amount: -500, orderId: order!.id, subscriptionId: plan.subscriptionId })]);
  });

  it('retried after the charge answer was lost: the card is charged once and the credit spent once', async () => {
    const plan = await planWithCredit(300);
    // The gateway charges, then the answer is lost on the way back (a worker killed, a timeout).
    const losing: PaymentGateway = Object.create(sandbox, {
      chargeProfile: {
        value: async (...args: Parameters<PaymentGateway['chargeProfile']>) => {
          await sandbox.chargeProfile(...args);
          throw new Error('socket hang up');
        },
      },
    }) as PaymentGateway;
    const log = createLogger('credit-test', 'silent');
    const lost = await renewSubscription({ db: tdb.db, gateway: losing, log }, plan.subscriptionId, plan.due.toISOString().slice(0, 10));
    expect(lost.outcome).toBe('unsettled');
    const retried = await renewNow(runtime, plan.subscriptionId, plan.due);
    expect(retried.outcome).toBe('skipped');
    expect(chargesOf(plan.subscriptionId, plan.due).map((c) => c.amount)).toEqual([plan.amount - 300]);
    expect(await ordersOf(plan.subscriptionId)).toHaveLength(1);
    expect((await creditHistory(tdb.db.$client, plan.userId)).map((e) => [e.kind, e.amount])).toEqual([
      ['spend', -300],
      ['grant', 300],
    ]);
  });

  it('credit that pays the whole renewal: approved with no card charge', async () => {
    const plan = await planWithCredit(10_000);
    const result = await renewNow(runtime, plan.subscriptionId, plan.due);
    expect(result).toMatchObject({ outcome: 'approved', transactionId: null });
    expect(chargesOf(plan.subscriptionId, plan.due)).toEqual([]);
    expect((await paymentsOf(plan.subscriptionId)).map((p) => [p.status, p.amount, p.responseMessage])).toEqual([['approved', 0, 'Paid in full with store credit']]);
    expect(await creditBalance(tdb.db.$client, plan.userId)).toBe(10_000 - plan.amount);
    const rows = await q<{ next: Date }>('select next_billing_date as next from subscriptions where id = $1', [plan.subscriptionId]);
    expect(rows[0]!.next.getTime()).toBeGreaterThan(Date.now());
  });

  it('a declined card cancels the order and gives the credit back', async () => {
    const plan = await planWithCredit(400, '46282');
    const result = await renewNow(runtime, plan.subscriptionId, plan.due);
    expect(result.outcome).toBe('declined');
    const [order] = await ordersOf(plan.subscriptionId);
    expect(order).toMatchObject({ status: 'cancelled', creditApplied: 400 });
    expect(await creditBalance(tdb.db.$client, plan.userId)).toBe(400);
    expect((await creditHistory(tdb.db.$client, plan.userId))[0]).toMatchObject({ kind: 'reverse', amount: 400, orderId: order!.id });
  });
});

describe('the payment reconciliation and store credit (the API died after reserving)', () => {
  /** A checkout's pending order of $10.00, 30 minutes old, its credit spent as the reservation spends it. */
  async function pendingOrder(credit: number) {
    const [user] = await tdb.db.insert(tables.users).values({ email: `recon-${randomUUID().slice(0, 8)}@example.com` }).returning({ id: tables.users.id });
    await moveCredit(tdb.db.$client, { userId: user!.id, kind: 'grant', amount: credit, reason: 'test', staffId: null, orderId: null, subscriptionId: null, reference: null });
    const [order] = await q<{ id: string }>(
      `insert into orders (store_code, user_id, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status, created_at)
       values ('NH', $1, 'r@example.com', 'Rae', $2::jsonb, '[]'::jsonb, 10.00, 0, 0, 10.00, 'pending', now() - interval '30 minutes') returning id`,
      [user!.id, JSON.stringify(TEST_ADDRESS)],
    );
    await spendCreditOnOrder(tdb.db.$client, { userId: user!.id, orderId: order!.id, subscriptionId: null, max: 1000 });
    return { userId: user!.id, orderId: order!.id };
  }
  const reconcile = () => createPaymentReconcileProcessor({ db: tdb.db, gateway: sandbox, log: createLogger('credit-test', 'silent'), afterMinutes: 15 })({ id: 'credit' } as Job);

  it('an order credit paid in full goes ahead (no card was to be charged); one credit paid part of, with no charge found, is cancelled and its credit given back', async () => {
    const full = await pendingOrder(5000);
    const part = await pendingOrder(400);
    await reconcile();
    expect((await q('select status, credit_applied::text from orders where id = $1', [full.orderId]))[0]).toEqual({ status: 'processing', credit_applied: '10.00' });
    expect(await q('select status, amount::text, response_message from payment_transactions where order_id = $1', [full.orderId])).toEqual([
      { status: 'approved', amount: '0.00', response_message: 'Paid in full with store credit' },
    ]);
    expect(await creditBalance(tdb.db.$client, full.userId)).toBe(4000);
    expect((await q('select status from orders where id = $1', [part.orderId]))[0]).toEqual({ status: 'cancelled' });
    expect(await creditBalance(tdb.db.$client, part.userId)).toBe(400);
  });
});
