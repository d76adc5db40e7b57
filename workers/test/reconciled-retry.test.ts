/**
 * A checkout whose charge answer was lost answers 502 ("We could not confirm your payment") and keeps
 * its order pending; the payment reconciliation later settles that order from the gateway's records.
 * A retry with the same Idempotency-Key and body must then get the settled answer, not the stored 502:
 * the reconciliation replaces the key's answer in its own commit. End to end: the real API and the
 * reconciliation's Authorize.Net adapter against the local Authorize.Net server (api/test/support).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { centsToDecimal, priceCart, toPayloadStrings } from '@nh/shared';
import { createLogger } from '@nh/server/observability/logger';
import { AuthorizeNetGateway, GATEWAY_MESSAGES, orderInvoiceNumber } from '@nh/server/payments';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { startAuthnetStub, type AuthnetStub } from '../../api/test/support/authnet-stub';
import { reverseKeys } from '../../api/test/support/json';
import { createPaymentReconcileProcessor, NOT_TAKEN_ANSWER } from '../src/maintenance/reconcile-payments';
import { createTestDatabase, waitFor, type TestDatabase } from './support/setup';

const credentials = { apiLoginId: 'stub-login', transactionKey: 'stub-key' };
let tdb: TestDatabase;
let stub: AuthnetStub;
let api: TestApi;

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  tdb.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  tdb = await createTestDatabase('recretry');
  stub = await startAuthnetStub(credentials);
  api = await startTestApi({
    DATABASE_URL: tdb.url,
    QUEUE_PREFIX: `recretry-${randomUUID().slice(0, 8)}`,
    ...stub.apiEnv({ AUTHNET_TIMEOUT_MS: '500' }),
  });
});
afterAll(async () => {
  await api?.close();
  await stub?.close();
  await tdb?.drop();
});

/** The reconciliation as the maintenance worker runs it, with the workers' Authorize.Net adapter on the same gateway. */
async function reconcile() {
  const gateway = new AuthorizeNetGateway({ ...credentials, environment: 'sandbox', endpoint: stub.url, timeoutMs: 2_000 });
  // Orders younger than this were in flight a moment ago; the test ages its own orders past it.
  const run = createPaymentReconcileProcessor({
    db: tdb.db,
    gateway,
    log: createLogger('reconciled-retry-test', 'silent'),
    afterMinutes: 15,
  });
  return run({ id: `reconcile-${randomUUID()}` } as Job);
}
const age = (orderId: string) => q(`update orders set created_at = now() - interval '20 minutes' where id = $1`, [orderId]);

/** A checkout body for one unit of a product of this file's own, as the browser sends it. */
async function checkoutBody() {
  const name = `Lost Answer ${randomUUID().slice(0, 8)}`;
  const [row] = await q<{ id: number }>(
    `insert into products (name, slug, price, inventory, status) values ($1, $2, '20.00', 5, 'active') returning id`,
    [name, name.toLowerCase().replace(/\s+/g, '-')],
  );
  const strings = toPayloadStrings(priceCart([{ price: 2000, quantity: 1 }]));
  const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' };
  return {
    amount: strings.total,
    dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT',
    dataValue: `accept-token-${randomUUID()}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    ...address,
    orderData: {
      items: [{ productId: row!.id, quantity: 1, price: centsToDecimal(2000) }],
      ...strings,
      promoCode: null,
      shippingAddress: address,
      billingAddress: address,
    },
  };
}

const checkout = (key: string, body: unknown) => api.request('/api/payments/checkout-nonce', { body, headers: { 'Idempotency-Key': key } });

/** The first answer was lost: 502 with the order it kept pending. */
async function lostAnswer(res: Response): Promise<string> {
  expect(res.status).toBe(502);
  const body = (await res.json()) as { orderId: string; code: string; message: string };
  expect(body).toMatchObject({ code: 'PAYMENT_OUTCOME_UNKNOWN', message: GATEWAY_MESSAGES.unknown });
  return body.orderId;
}

describe('a checkout retried after the reconciliation settled its lost answer', () => {
  it('reconciled to paid: the same key and body answer 200 with the order id (not the stored 502), and nothing is charged again', async () => {
    const body = await checkoutBody();
    const key = randomUUID();
    const before = stub.requests.length;
    // The gateway takes the charge but its answer never arrives; the API's second try (same invoice) gets no answer either.
    stub.scenario = 'charge-then-timeout';
    const pending = checkout(key, body);
    await waitFor(
      async () => stub.requests.slice(before).some((r) => r.name === 'createTransactionRequest'),
      5_000,
      'the first charge to reach the gateway',
    );
    stub.scenario = 'timeout';
    const orderId = await lostAnswer(await pending);
    expect(stub.charges.filter((c) => c.invoiceNumber === orderInvoiceNumber(orderId))).toHaveLength(1);

    // Before the reconciliation, a retry gets the stored 502 again (the outcome is still unknown).
    stub.scenario = 'approve';
    const early = await checkout(key, body);
    expect(early.status).toBe(502);
    expect(early.headers.get('idempotent-replayed')).toBe('true');

    await age(orderId);
    expect(await reconcile()).toMatchObject({ checked: 1, paid: 1 });
    expect(await q('select status from orders where id = $1', [orderId])).toEqual([{ status: 'processing' }]);

    const retry = await checkout(key, reverseKeys(body));
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual({ orderId });
    expect(await q('select status_code from idempotency_keys where key = $1', [key])).toEqual([{ status_code: 200 }]);
    // One order, one charge.
    expect(
      await q(`select count(*)::int as n from orders where items @> $1::jsonb`, [
        JSON.stringify([{ productId: body.orderData.items[0]!.productId }]),
      ]),
    ).toEqual([{ n: 1 }]);
    expect(stub.charges.filter((c) => c.invoiceNumber === orderInvoiceNumber(orderId))).toHaveLength(1);
  });

  it("reconciled to declined: the same key and body answer the decline (402, the gateway's words), the order cancelled and its stock back", async () => {
    const body = await checkoutBody();
    const key = randomUUID();
    stub.scenario = 'timeout';
    const orderId = await lostAnswer(await checkout(key, body));
    // What the gateway did with that charge, as its transaction lists will tell: declined.
    stub.transactions.push({
      transId: '60999999001',
      invoiceNumber: orderInvoiceNumber(orderId),
      amount: body.amount,
      transactionStatus: 'declined',
      submitTimeUTC: new Date().toISOString(),
      batchId: null,
    });
    stub.scenario = 'approve';

    await age(orderId);
    expect(await reconcile()).toMatchObject({ checked: 1, cancelled: 1 });
    const retry = await checkout(key, body);
    expect(retry.status).toBe(402);
    const message = `${GATEWAY_MESSAGES.declined} ${NOT_TAKEN_ANSWER}`;
    expect(await retry.json()).toEqual({ message, code: 'PAYMENT_DECLINED', responseMessage: message, orderId });
    expect(await q('select status from orders where id = $1', [orderId])).toEqual([{ status: 'cancelled' }]);
    expect(await q('select inventory from products where id = $1', [body.orderData.items[0]!.productId])).toEqual([{ inventory: 5 }]);
  });

  it('keeps the 502 while the order is too young to reconcile (its charge may still be in flight)', async () => {
    const body = await checkoutBody();
    const key = randomUUID();
    stub.scenario = 'timeout';
    const orderId = await lostAnswer(await checkout(key, body));
    stub.scenario = 'approve';
    expect(await reconcile()).toMatchObject({ checked: 0 });
    expect(await q('select status_code from idempotency_keys where key = $1', [key])).toEqual([{ status_code: 502 }]);
    expect(await q('select status from orders where id = $1', [orderId])).toEqual([{ status: 'pending' }]);
  });
});
