/**
 * The payment reconciliation (maintenance queue) against the real database, Redis and the local
 * sandbox gateway: orders are left as the API leaves them (pending, stock taken, a single-use code
 * spent; no payment row when the process died, a pending row when the outcome was unknown), and the
 * sandbox's record of a charge is made by really charging its invoice number.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { toCents } from '@nh/shared';
import * as tables from '@nh/server/db/schema';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import type { LineItem } from '@nh/server/db/schema';
import {
  GATEWAY_MESSAGES,
  LocalSandboxGateway,
  orderInvoiceNumber,
  SANDBOX_API_LOGIN_ID,
  SANDBOX_CLIENT_KEY,
  SANDBOX_DECLINE_ZIP,
  subscriptionInvoiceNumber,
  type ChargeResult,
} from '@nh/server/payments';
import { requestHash } from '../../api/src/lib/idempotency';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { reverseKeys } from '../../api/test/support/json';
import { createPaymentReconcileProcessor, NO_CHARGE_MESSAGE, NOT_TAKEN_ANSWER, reconcilePaymentsJob, type PaymentReconcileResult } from '../src/maintenance/reconcile-payments';
import type { WorkerRuntime } from '../src/runtime';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let runtime: WorkerRuntime;
let sandbox: LocalSandboxGateway;

const ADDRESS = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' };
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);

let productCounter = 0;
async function makeProduct(inventory: number): Promise<{ id: number; name: string }> {
  productCounter++;
  const name = `Reconcile Test Product ${productCounter}`;
  const [row] = await tdb.db
    .insert(tables.products)
    .values({ name, slug: `reconcile-test-${productCounter}-${randomUUID().slice(0, 6)}`, price: toCents('20.00'), inventory, status: 'active' })
    .returning({ id: tables.products.id });
  return { id: row!.id, name };
}

async function singleUsePromo(): Promise<{ id: number; code: string }> {
  const code = `ONCE-${randomUUID().slice(0, 8).toUpperCase()}`;
  const [row] = await tdb.db.insert(tables.promoCodes).values({ code, discountType: 'percentage', discountValue: 15, singleUse: true }).returning({ id: tables.promoCodes.id });
  return { id: row!.id, code };
}

interface OrderInput {
  ageMinutes: number;
  product: { id: number; name: string };
  quantity?: number;
  promo?: { id: number; code: string };
  subscriptionId?: string;
}

/** A pending order as the reservation leaves it: the order row, its stock taken, its single-use code spent. */
async function pendingOrder(input: OrderInput): Promise<{ id: string; total: number }> {
  const quantity = input.quantity ?? 2;
  const items: LineItem[] = [{ productId: input.product.id, productName: input.product.name, variantSku: null, sku: null, itemNumber: null, quantity, price: '20.00' }];
  const total = 2000 * quantity;
  const [order] = await q<{ id: string }>(
    `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, promo_code, status, subscription_id, created_at, updated_at)
     values ('NH', 'rae@example.com', 'Rae Conciler', $1::jsonb, $2::jsonb, $3::numeric, 0, 0, $3::numeric, $4, 'pending', $5, now() - make_interval(mins => $6), now() - make_interval(mins => $6))
     returning id`,
    [JSON.stringify(ADDRESS), JSON.stringify(items), (total / 100).toFixed(2), input.promo?.code ?? null, input.subscriptionId ?? null, input.ageMinutes],
  );
  await q('update products set inventory = inventory - $2 where id = $1', [input.product.id, quantity]);
  if (input.promo) await q('update promo_codes set redeemed_at = now(), redeemed_order_id = $2 where id = $1', [input.promo.id, order!.id]);
  return { id: order!.id, total };
}

/** Really charges the order's invoice number through the sandbox (which then keeps the charge on record). */
async function chargeFor(orderId: string, amount: number, zip = ADDRESS.zip): Promise<ChargeResult> {
  const token = await sandbox.tokenize({
    authData: { clientKey: SANDBOX_CLIENT_KEY, apiLoginID: SANDBOX_API_LOGIN_ID },
    cardData: { cardNumber: '4111111111111111', month: '12', year: String(new Date().getUTCFullYear() + 3), cardCode: '123', zip },
  });
  if (!('opaqueData' in token)) throw new Error('tokenise failed');
  return sandbox.chargeOpaqueData({
    opaqueData: token.opaqueData,
    amount,
    invoiceNumber: orderInvoiceNumber(orderId),
    email: 'rae@example.com',
    billTo: { firstName: 'Rae', lastName: 'Conciler', ...ADDRESS, zip },
  });
}

async function reconcile(): Promise<PaymentReconcileResult> {
  const job: Job = await runtime.queues.maintenance.add(reconcilePaymentsJob.name, {}, { jobId: `reconcile-${randomUUID()}` });
  await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), 15_000, 'reconcile-payments job');
  const done = await runtime.queues.maintenance.getJob(job.id!);
  if (done?.failedReason) throw new Error(done.failedReason);
  return done!.returnvalue as PaymentReconcileResult;
}

const orderRow = async (id: string) => (await q<{ status: string; payment_transaction_id: string | null; netsuite_sync_status: string }>('select status, payment_transaction_id, netsuite_sync_status from orders where id = $1', [id]))[0]!;
const paymentsOf = (id: string) =>
  q<Record<string, unknown>>(
    'select status, authnet_transaction_id, invoice_number, amount::text as amount, response_code, response_message, card_type, card_last_four, environment, subscription_id, billing_period from payment_transactions where order_id = $1 order by created_at',
    [id],
  );
const outboxOf = (id: string) => q<{ topic: string }>(`select topic from outbox where payload->>'orderId' = $1`, [id]);
const inventory = async (productId: number) => (await q<{ inventory: number }>('select inventory from products where id = $1', [productId]))[0]!.inventory;

beforeAll(async () => {
  tdb = await createTestDatabase('recpay');
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'recpay', { WORKER_QUEUES: 'maintenance', RELAY_ENABLED: 'false' }));
  expect(runtime.gateway).toBeInstanceOf(LocalSandboxGateway);
  sandbox = runtime.gateway as LocalSandboxGateway;
});
afterAll(async () => {
  await runtime?.close(2000);
  await tdb?.drop();
});

describe('reconcile-payments schedule', () => {
  it('is registered on the maintenance queue every 10 minutes', async () => {
    const schedulers = await runtime.queues.maintenance.getJobSchedulers();
    expect(schedulers).toContainEqual(expect.objectContaining({ key: 'maintenance-reconcile-payments', name: 'reconcile-payments', pattern: '*/10 * * * *', tz: 'UTC' }));
    // The tests below run the job themselves; a scheduled run must not race them.
    for (const s of schedulers) await runtime.queues.maintenance.removeJobScheduler(s.key);
  });
});

describe('payment reconciliation', () => {
  const products: Record<string, { id: number; name: string }> = {};
  const orders: Record<string, { id: string; total: number }> = {};
  const charges: Record<string, ChargeResult> = {};
  let promo: { id: number; code: string };
  let renewalSubscriptionId: string;
  let first: PaymentReconcileResult;
  const notifications: string[] = [];

  beforeAll(async () => {
    for (const name of ['paid', 'unknownRow', 'noCharge', 'declined', 'young', 'held', 'renewal', 'old']) products[name] = await makeProduct(10);
    promo = await singleUsePromo();

    // The API died after the charge: no payment row, the sandbox has the approved charge.
    orders.paid = await pendingOrder({ ageMinutes: 20, product: products.paid! });
    charges.paid = await chargeFor(orders.paid.id, orders.paid.total);
    // The charge timed out at checkout (pending row, no provider response code), but it went through.
    orders.unknownRow = await pendingOrder({ ageMinutes: 30, product: products.unknownRow! });
    await q(
      `insert into payment_transactions (order_id, invoice_number, amount, status, response_code, response_message, environment) values ($1, $2, $3::numeric, 'pending', 'timeout', $4, 'sandbox')`,
      [orders.unknownRow.id, orderInvoiceNumber(orders.unknownRow.id), '40.00', GATEWAY_MESSAGES.unknown],
    );
    charges.unknownRow = await chargeFor(orders.unknownRow.id, orders.unknownRow.total);
    // The API died before the charge: nothing on record; the order had spent a single-use code.
    orders.noCharge = await pendingOrder({ ageMinutes: 60, product: products.noCharge!, promo });
    // The card was declined but the answer was lost.
    orders.declined = await pendingOrder({ ageMinutes: 45, product: products.declined! });
    charges.declined = await chargeFor(orders.declined.id, orders.declined.total, SANDBOX_DECLINE_ZIP);
    expect(charges.declined.outcome).toBe('declined');

    // Not the reconciliation's: too young, held for review (staff), a renewal (the renewals worker's),
    // older than the lookup window (staff). None has a charge on record, so taking one would cancel it.
    orders.young = await pendingOrder({ ageMinutes: 5, product: products.young! });
    orders.held = await pendingOrder({ ageMinutes: 40, product: products.held! });
    await q(
      `insert into payment_transactions (order_id, authnet_transaction_id, invoice_number, amount, status, response_code, response_message, environment) values ($1, '40000000001', $2, $3::numeric, 'pending', '4', $4, 'sandbox')`,
      [orders.held.id, orderInvoiceNumber(orders.held.id), '40.00', GATEWAY_MESSAGES.held],
    );
    const [sub] = await tdb.db
      .insert(tables.subscriptions)
      .values({ customerEmail: 'rae@example.com', customerName: 'Rae Conciler', items: [], amount: 4000, nextBillingDate: new Date(Date.now() - 86_400_000) })
      .returning({ id: tables.subscriptions.id });
    renewalSubscriptionId = sub!.id;
    orders.renewal = await pendingOrder({ ageMinutes: 50, product: products.renewal!, subscriptionId: renewalSubscriptionId });
    const period = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await q(
      `insert into payment_transactions (order_id, subscription_id, invoice_number, billing_period, amount, status, environment) values ($1, $2, $3, $4, $5::numeric, 'pending', 'sandbox')`,
      [orders.renewal.id, renewalSubscriptionId, subscriptionInvoiceNumber(renewalSubscriptionId, period), period, '40.00'],
    );
    orders.old = await pendingOrder({ ageMinutes: 25 * 60, product: products.old! });

    const listener = await tdb.db.$client.connect();
    listener.on('notification', (n) => notifications.push(n.payload ?? ''));
    await listener.query('listen outbox_new');
    try {
      first = await reconcile();
      await waitFor(() => notifications.length >= 2, 5000, 'outbox notifications');
    } finally {
      await listener.query('unlisten outbox_new');
      listener.release();
    }
  });

  it('counts what it did', () => {
    expect(first).toEqual({ checked: 4, paid: 2, cancelled: 2, left: 0, beyondWindow: 1 });
  });

  it('an old pending order whose charge the gateway has as approved goes ahead: processing, approved payment row, order.placed with its NOTIFY', async () => {
    const { id, total } = orders.paid!;
    expect(await orderRow(id)).toMatchObject({ status: 'processing', payment_transaction_id: charges.paid!.transactionId });
    expect(await paymentsOf(id)).toEqual([
      {
        status: 'approved',
        authnet_transaction_id: charges.paid!.transactionId,
        invoice_number: orderInvoiceNumber(id),
        amount: (total / 100).toFixed(2),
        response_code: '1',
        response_message: 'This transaction has been approved.',
        card_type: 'Visa',
        card_last_four: '1111',
        environment: 'sandbox',
        subscription_id: null,
        billing_period: null,
      },
    ]);
    expect(await outboxOf(id)).toEqual([{ topic: 'order.placed' }]);
    expect(notifications).toContain('order.placed');
    // The stock stays with the order.
    expect(await inventory(products.paid!.id)).toBe(8);
  });

  it('replaces the pending row of an unknown outcome with the gateway answer (one payment row)', async () => {
    const { id } = orders.unknownRow!;
    expect(await orderRow(id)).toMatchObject({ status: 'processing' });
    expect(await paymentsOf(id)).toEqual([expect.objectContaining({ status: 'approved', authnet_transaction_id: charges.unknownRow!.transactionId, response_code: '1' })]);
    expect(await outboxOf(id)).toEqual([{ topic: 'order.placed' }]);
  });

  it('an order with no charge on record is cancelled: stock back, its single-use code given back, "No charge was made."', async () => {
    const { id } = orders.noCharge!;
    expect(await orderRow(id)).toMatchObject({ status: 'cancelled', payment_transaction_id: null, netsuite_sync_status: 'not_applicable' });
    expect(await paymentsOf(id)).toEqual([
      expect.objectContaining({ status: 'error', authnet_transaction_id: null, invoice_number: orderInvoiceNumber(id), amount: '40.00', response_code: null, response_message: NO_CHARGE_MESSAGE, card_type: null }),
    ]);
    expect(await inventory(products.noCharge!.id)).toBe(10);
    expect(await q('select redeemed_at, redeemed_order_id from promo_codes where id = $1', [promo.id])).toEqual([{ redeemed_at: null, redeemed_order_id: null }]);
    expect(await outboxOf(id)).toEqual([]);
  });

  it('an order whose charge was declined is cancelled with the provider message', async () => {
    const { id } = orders.declined!;
    expect(await orderRow(id)).toMatchObject({ status: 'cancelled' });
    expect(await paymentsOf(id)).toEqual([
      expect.objectContaining({ status: 'declined', authnet_transaction_id: charges.declined!.transactionId, response_code: '2', response_message: 'This transaction has been declined.', card_last_four: '1111' }),
    ]);
    expect(await inventory(products.declined!.id)).toBe(10);
  });

  it('leaves alone a young order, one held for review, a renewal and one older than the lookup window', async () => {
    for (const name of ['young', 'held', 'renewal', 'old']) {
      expect(await orderRow(orders[name]!.id), name).toMatchObject({ status: 'pending' });
      expect(await inventory(products[name]!.id), name).toBe(8);
      expect(await outboxOf(orders[name]!.id), name).toEqual([]);
    }
    expect(await paymentsOf(orders.young!.id)).toEqual([]);
    expect(await paymentsOf(orders.old!.id)).toEqual([]);
    expect(await paymentsOf(orders.held!.id)).toEqual([expect.objectContaining({ status: 'pending', response_code: '4' })]);
    expect(await paymentsOf(orders.renewal!.id)).toEqual([expect.objectContaining({ status: 'pending', response_code: null, billing_period: expect.any(String) })]);
  });

  it('running again changes nothing more', async () => {
    const snapshot = () =>
      Promise.all([
        q(`select id, status, payment_transaction_id from orders order by id`),
        q(`select order_id, status, authnet_transaction_id, response_code from payment_transactions order by order_id, created_at`),
        q(`select count(*)::int as n from outbox`),
        q(`select id, inventory from products order by id`),
        q(`select id, redeemed_at from promo_codes order by id`),
      ]);
    const before = await snapshot();
    expect(await reconcile()).toEqual({ checked: 0, paid: 0, cancelled: 0, left: 0, beyondWindow: 1 });
    expect(await snapshot()).toEqual(before);
  });
});

describe('payment reconciliation when the gateway cannot be asked', () => {
  it('leaves the order for the next run', async () => {
    const product = await makeProduct(10);
    const order = await pendingOrder({ ageMinutes: 20, product });
    const redis = createRedis('redis://127.0.0.1:1', 'client', { enableOfflineQueue: false, retryStrategy: () => null });
    try {
      const unreachable = new LocalSandboxGateway({ redis, keyPrefix: runtime.config.QUEUE_PREFIX });
      const processor = createPaymentReconcileProcessor({ db: tdb.db, gateway: unreachable, log: createLogger('reconcile-test', 'silent'), afterMinutes: 15 });
      const result = await processor({ id: 'unreachable' } as Job);
      expect(result).toMatchObject({ checked: 1, paid: 0, cancelled: 0, left: 1 });
      expect(await orderRow(order.id)).toMatchObject({ status: 'pending' });
      expect(await inventory(product.id)).toBe(8);
      expect(await paymentsOf(order.id)).toEqual([]);
    } finally {
      redis.disconnect();
    }
    // With the gateway back, the next run settles it (nothing was charged).
    expect(await reconcile()).toMatchObject({ checked: 1, cancelled: 1 });
    expect(await orderRow(order.id)).toMatchObject({ status: 'cancelled' });
  });
});

describe('local sandbox findCharge', () => {
  it('finds a charge by invoice number; the one that took money wins; a duplicate refusal changes nothing', async () => {
    const orderId = randomUUID();
    expect(await sandbox.findCharge(orderInvoiceNumber(orderId))).toBeNull();
    const declined = await chargeFor(orderId, 1500, SANDBOX_DECLINE_ZIP);
    expect(await sandbox.findCharge(orderInvoiceNumber(orderId))).toMatchObject({ outcome: 'declined', transactionId: declined.transactionId, amount: 1500 });
    const approved = await chargeFor(orderId, 1500);
    expect(approved.outcome).toBe('approved');
    expect(await chargeFor(orderId, 1500, SANDBOX_DECLINE_ZIP)).toMatchObject({ outcome: 'declined' });
    expect(await chargeFor(orderId, 1500)).toMatchObject({ outcome: 'error', errorCode: '11' });
    expect(await sandbox.findCharge(orderInvoiceNumber(orderId))).toMatchObject({
      outcome: 'approved',
      responseCode: '1',
      transactionId: approved.transactionId,
      cardType: 'Visa',
      lastFour: '1111',
      amount: 1500,
      environment: 'sandbox',
    });
    const ttl = await createRedisTtl(orderInvoiceNumber(orderId));
    expect(ttl).toBeGreaterThan(47 * 3600);
    expect(ttl).toBeLessThanOrEqual(48 * 3600);
  });
});

async function createRedisTtl(invoiceNumber: string): Promise<number> {
  const redis = createRedis(runtime.config.REDIS_URL);
  try {
    return await redis.ttl(`${runtime.config.QUEUE_PREFIX}:pay-sandbox:charge:${invoiceNumber}`);
  } finally {
    redis.disconnect();
  }
}

describe('a checkout retried after the API died mid-checkout', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: 'recpay-api' });
  });
  afterAll(() => api?.close());

  /** A checkout body for two of `product`, as the browser would send it. */
  const bodyFor = (product: { id: number }) => ({
    firstName: 'Rae',
    lastName: 'Conciler',
    email: 'rae@example.com',
    ...ADDRESS,
    amount: '40.00',
    dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT',
    dataValue: 'spent-token',
    orderData: { items: [{ productId: product.id, quantity: 2, price: '20.00' }], subtotal: '40.00', shipping: '0.00', tax: '0.00', total: '40.00', promoCode: null, shippingAddress: ADDRESS },
  });

  /** The key as the API's reservation leaves it when the process dies before the outcome: claimed, unanswered. */
  const claimKey = (key: string, body: unknown, orderId: string) =>
    q(`insert into idempotency_keys (scope, key, request_hash, order_id) values ('checkout', $1, $2, $3)`, [key, requestHash(body), orderId]);

  const retry = (key: string, body: unknown) => api.request('/api/payments/checkout-nonce', { body, headers: { 'Idempotency-Key': key } });

  it('finishes the idempotency key with the final answer: a retry with the same key (keys in another order) gets the order id, or the decline', async () => {
    const paidProduct = await makeProduct(10);
    const paid = await pendingOrder({ ageMinutes: 20, product: paidProduct });
    await chargeFor(paid.id, paid.total);
    const paidBody = bodyFor(paidProduct);
    const paidKey = randomUUID();
    await claimKey(paidKey, paidBody, paid.id);

    const declinedProduct = await makeProduct(10);
    const declined = await pendingOrder({ ageMinutes: 20, product: declinedProduct });
    await chargeFor(declined.id, declined.total, SANDBOX_DECLINE_ZIP);
    const declinedBody = bodyFor(declinedProduct);
    const declinedKey = randomUUID();
    await claimKey(declinedKey, declinedBody, declined.id);

    await reconcile();
    expect((await orderRow(paid.id)).status).toBe('processing');
    expect((await orderRow(declined.id)).status).toBe('cancelled');

    const paidRetry = await retry(paidKey, reverseKeys(paidBody));
    expect(paidRetry.status).toBe(200);
    expect(paidRetry.headers.get('idempotent-replayed')).toBe('true');
    expect(await paidRetry.json()).toEqual({ orderId: paid.id });

    const declinedRetry = await retry(declinedKey, declinedBody);
    expect(declinedRetry.status).toBe(402);
    const message = `This transaction has been declined. ${NOT_TAKEN_ANSWER}`;
    expect(await declinedRetry.json()).toEqual({ message, code: 'PAYMENT_DECLINED', responseMessage: message, orderId: declined.id });
    expect(await q('select status_code, completed_at is not null as completed from idempotency_keys where key = any($1)', [[paidKey, declinedKey]])).toEqual([
      { status_code: 200, completed: true },
      { status_code: 402, completed: true },
    ]);
    // Nothing was charged or ordered again.
    expect(await q(`select 1 from orders where items @> $1::jsonb`, [JSON.stringify([{ productId: paidProduct.id }])])).toHaveLength(1);
    expect(await inventory(paidProduct.id)).toBe(8);
    expect(await inventory(declinedProduct.id)).toBe(10);
  });

  it('leaves alone a key the API finished with any other answer than the unknown outcome\'s', async () => {
    const product = await makeProduct(10);
    const order = await pendingOrder({ ageMinutes: 20, product });
    const key = randomUUID();
    await q(`insert into idempotency_keys (scope, key, request_hash, order_id, status_code, response, completed_at) values ('checkout', $1, 'h', $2, 502, '{"message":"unknown"}', now())`, [key, order.id]);
    await reconcile();
    expect(await q('select status_code, response from idempotency_keys where key = $1', [key])).toEqual([{ status_code: 502, response: { message: 'unknown' } }]);
  });
});

describe('payment reconciliation reads only charge rows', () => {
  it("a refund or void row never answers a charge's outcome, and is never deleted as the pending row of an unknown one", async () => {
    const product = await makeProduct(10);
    const order = await pendingOrder({ ageMinutes: 20, product });
    // Rows of the back office's kinds (they never stand beside a pending order in practice): an approved
    // one would have read as "settled", a pending one would have been deleted with the charge's.
    await q(
      `insert into payment_transactions (order_id, kind, amount, status, response_code, environment) values ($1, 'refund', '1.00', 'approved', '1', 'sandbox'), ($1, 'void', '2.00', 'pending', null, 'sandbox')`,
      [order.id],
    );
    expect(await reconcile()).toMatchObject({ checked: 1, cancelled: 1 });
    expect(await orderRow(order.id)).toMatchObject({ status: 'cancelled' });
    const rows = await q<{ kind: string; status: string }>('select kind, status from payment_transactions where order_id = $1 order by kind', [order.id]);
    expect(rows).toEqual([
      { kind: 'charge', status: 'error' },
      { kind: 'refund', status: 'approved' },
      { kind: 'void', status: 'pending' },
    ]);
  });
});
