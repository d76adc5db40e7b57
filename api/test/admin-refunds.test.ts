/**
 * Refunds and voids from the back office (POST /api/admin/orders/{id}/refunds) against the real
 * database: orders are placed through the real checkout and charged by the local sandbox (whose
 * charges settle when a test calls its `settle` hook), or by the Authorize.Net adapter against the
 * local stub. Then the Authorize.Net adapter's own calls against the stub: refund, void, the
 * settlement lookup, a declined refund.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal } from '@nh/shared';
import { adminOrderSchema } from '@nh/shared/contracts/admin';
import { NOT_SHIPPABLE_MESSAGES, refundResponseSchema } from '@nh/shared/contracts/refunds';
import { AuthorizeNetGateway, orderInvoiceNumber, refundInvoiceNumber, type LocalSandboxGateway, type OpaqueChargeRequest } from '@nh/server/payments';
import { startAuthnetStub, type AuthnetStub } from './support/authnet-stub';
import { makeTestProduct, placePaidOrder } from './support/paid-orders';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let sandbox: LocalSandboxGateway;
let manager: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
  sandbox = api.payments.sandbox!;
  manager = await signInAs(api, 'manager');
});
afterAll(() => api.close());

const inventoryOf = async (id: number) => (await q<{ inventory: number }>('select inventory from products where id = $1', [id]))[0]!.inventory;

interface Placed {
  id: string;
  /** The charge's cents and transaction id. */
  total: number;
  transactionId: string;
  productId: number;
}

/** An order placed and paid through the real checkout (support/paid-orders.ts): `quantity` of a new product at $20.00 (total with shipping and tax). */
async function placeOrder(on: TestApi = api, quantity = 2, inventory = 10): Promise<Placed> {
  const productId = await makeTestProduct(on, { price: 2000, inventory, prefix: 'Refund Test', skuPrefix: 'R' });
  const order = await placePaidOrder(on, { lines: [{ price: 2000, quantity }], productIds: [productId] });
  return { id: order.id, total: order.total, transactionId: order.transactionId, productId };
}

interface RefundBody {
  amount?: unknown;
  reason?: unknown;
  restock?: unknown;
  storeCode?: string;
}

const refund = (orderId: string, body: RefundBody, options: { key?: string | null; client?: StaffClient } = {}) => {
  const key = options.key === undefined ? randomUUID() : options.key;
  return (options.client ?? manager).request(`/api/admin/orders/${orderId}/refunds`, {
    method: 'POST',
    body: { reason: 'Damaged in transit', restock: false, ...body },
    headers: key === null ? {} : { 'Idempotency-Key': key },
  });
};

const detail = async (orderId: string, client: StaffClient = manager) =>
  adminOrderSchema.parse(await (await client.request(`/api/admin/orders/${orderId}`, { method: 'POST', body: {} })).json());

const dollars = (cents: number) => centsToDecimal(cents);

describe('a void before the charge settles', () => {
  it('voids the whole amount: a void row, nothing left to refund, the charge voided at the gateway', async () => {
    const order = await placeOrder();
    const res = await refund(order.id, { amount: dollars(order.total), reason: 'Customer changed their mind' });
    expect(res.status).toBe(201);
    const body = refundResponseSchema.parse(await res.json());
    expect(body).toMatchObject({
      payment: { kind: 'void', status: 'approved', amount: dollars(order.total), parentId: expect.any(String), reason: 'Customer changed their mind', staffEmail: manager.email, lastFour: '1111', restocked: false },
      refunded: dollars(order.total),
      refundable: '0.00',
    });
    expect(await sandbox.settlementOf(order.transactionId)).toMatchObject({ state: 'closed', status: 'voided' });

    const shown = await detail(order.id);
    expect(shown.refundable).toBe('0.00');
    expect(shown.payments.map((p) => [p.kind, p.status, p.amount])).toEqual([
      ['charge', 'approved', dollars(order.total)],
      ['void', 'approved', dollars(order.total)],
    ]);
    expect(shown.payments[1]!.parentId).toBe(shown.payments[0]!.id);
  });

  it('refuses part of an unsettled charge, telling staff to refund it all or wait for settlement', async () => {
    const order = await placeOrder();
    const res = await refund(order.id, { amount: '10.00' });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 'REFUND_PARTIAL_UNSETTLED',
      message: `This payment has not settled yet, so it can only be voided in full ($${dollars(order.total)}). Refund the whole amount now, or wait until the payment settles (usually within a day) to refund part of it.`,
      refundable: dollars(order.total),
    });
    expect((await detail(order.id)).payments).toHaveLength(1);
  });
});

describe('refunds after settlement', () => {
  it('refunds the whole amount', async () => {
    const order = await placeOrder();
    expect(await sandbox.settle(order.transactionId)).toBe(true);
    const res = await refund(order.id, { amount: dollars(order.total) });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ payment: { kind: 'refund', status: 'approved', amount: dollars(order.total), transactionId: expect.stringMatching(/^\d+$/) }, refunded: dollars(order.total), refundable: '0.00' });
    const [row] = await q<{ invoice_number: string; id: string }>(`select id, invoice_number from payment_transactions where order_id = $1 and kind = 'refund'`, [order.id]);
    expect(row!.invoice_number).toBe(refundInvoiceNumber(row!.id));
  });

  it('refunds in parts up to the captured amount, then refuses with what is left', async () => {
    const order = await placeOrder();
    await sandbox.settle(order.transactionId);
    expect((await refund(order.id, { amount: '10.00' })).status).toBe(201);
    // The same amount again is a second refund (each has its own invoice number), not a duplicate.
    expect((await refund(order.id, { amount: '10.00' })).status).toBe(201);
    const left = order.total - 2000;

    const tooMuch = await refund(order.id, { amount: dollars(left + 1) });
    expect(tooMuch.status).toBe(422);
    expect(await tooMuch.json()).toEqual({
      code: 'REFUND_TOO_LARGE',
      message: `At most $${dollars(left)} can be refunded: $${dollars(order.total)} was captured and $20.00 has already been refunded or is being refunded.`,
      refundable: dollars(left),
    });

    const rest = await refund(order.id, { amount: dollars(left) });
    expect(await rest.json()).toMatchObject({ refunded: dollars(order.total), refundable: '0.00' });
    const more = await refund(order.id, { amount: '0.01' });
    expect(more.status).toBe(422);
    expect(await more.json()).toMatchObject({ code: 'REFUND_TOO_LARGE', message: 'This order has been refunded in full: nothing is left to refund.' });
    expect((await detail(order.id)).payments.filter((p) => p.kind === 'refund' && p.status === 'approved')).toHaveLength(3);
  });

  it("asks NetSuite for the matching credit in the refund's own transaction: an order.refunded outbox row per approved refund, the synced order pending again", async () => {
    const order = await placeOrder();
    await sandbox.settle(order.transactionId);
    await q(`update orders set netsuite_sync_status = 'synced' where id = $1`, [order.id]);
    const first = refundResponseSchema.parse(await (await refund(order.id, { amount: '3.00' })).json());
    const second = refundResponseSchema.parse(await (await refund(order.id, { amount: '4.00' })).json());
    const rows = await q<{ payload: unknown }>(`select payload from outbox where topic = 'order.refunded' and payload->>'orderId' = $1 order by id`, [order.id]);
    expect(rows.map((r) => r.payload)).toEqual([
      { orderId: order.id, paymentId: first.payment.id },
      { orderId: order.id, paymentId: second.payment.id },
    ]);
    expect(await q('select netsuite_sync_status from orders where id = $1', [order.id])).toEqual([{ netsuite_sync_status: 'pending' }]);
    // A refund refused (more than is left) asks nothing.
    const declinedBefore = rows.length;
    expect((await refund(order.id, { amount: dollars(order.total) })).status).toBe(422);
    expect(await q(`select 1 from outbox where topic = 'order.refunded' and payload->>'orderId' = $1`, [order.id])).toHaveLength(declinedBefore);
  });

  it('never gives back more than was captured under concurrent refunds: 5 at once of 40% each, 2 succeed', async () => {
    const order = await placeOrder();
    await sandbox.settle(order.transactionId);
    const share = Math.floor(order.total * 0.4);
    const answers = await Promise.all(Array.from({ length: 5 }, () => refund(order.id, { amount: dollars(share) })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 422, 422, 422]);
    const [sum] = await q<{ refunded: string; n: number }>(
      `select coalesce(sum(amount), 0)::text as refunded, count(*)::int as n from payment_transactions where order_id = $1 and kind <> 'charge'`,
      [order.id],
    );
    expect(sum).toEqual({ refunded: dollars(2 * share), n: 2 });
    expect((await detail(order.id)).refundable).toBe(dollars(order.total - 2 * share));
  });

  it('is idempotent: a repeat with the same key answers the first refund; the key cannot name another refund', async () => {
    const order = await placeOrder();
    await sandbox.settle(order.transactionId);
    const key = randomUUID();
    // Two at once with one key: one refunds, the other waits for it and answers the same refund.
    const both = await Promise.all([refund(order.id, { amount: '5.00' }, { key }), refund(order.id, { amount: '5.00' }, { key })]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both.map((r) => r.headers.get('idempotent-replayed')).sort()).toEqual(['true', null].sort());
    const [firstBody, secondBody] = await Promise.all(both.map(async (r) => refundResponseSchema.parse(await r.json())));
    expect(secondBody!.payment).toEqual(firstBody!.payment);

    const again = await refund(order.id, { amount: '5.00' }, { key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(refundResponseSchema.parse(await again.json()).payment).toEqual(firstBody!.payment);
    const other = await refund(order.id, { amount: '6.00' }, { key });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await detail(order.id)).payments.filter((p) => p.kind === 'refund')).toHaveLength(1);

    const missing = await refund(order.id, { amount: '1.00' }, { key: null });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_MISSING' });
    const bad = await refund(order.id, { amount: '1.00' }, { key: 'short' });
    expect(await bad.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_INVALID' });
  });

  it('puts the items back in stock when asked, once; cancelling the order afterwards leaves stock alone', async () => {
    const order = await placeOrder(api, 2, 10);
    expect(await inventoryOf(order.productId)).toBe(8);
    await sandbox.settle(order.transactionId);
    const res = await refund(order.id, { amount: '10.00', restock: true });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ payment: { restocked: true } });
    expect(await inventoryOf(order.productId)).toBe(10);

    const twice = await refund(order.id, { amount: '1.00', restock: true });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toEqual({ code: 'REFUND_ALREADY_RESTOCKED', message: 'The items of this order are already back in stock. Refund without restocking.' });
    expect((await refund(order.id, { amount: '1.00', restock: false })).status).toBe(201);

    const cancelled = await manager.request(`/api/admin/orders/${order.id}`, { method: 'PATCH', body: { status: 'cancelled' } });
    expect(cancelled.status).toBe(200);
    expect(await inventoryOf(order.productId)).toBe(10);
    const reopened = await manager.request(`/api/admin/orders/${order.id}`, { method: 'PATCH', body: { status: 'processing' } });
    expect(reopened.status).toBe(200);
    expect(await inventoryOf(order.productId)).toBe(10);
  });

  it('refuses to restock a cancelled order (cancelling restocked it)', async () => {
    const order = await placeOrder(api, 1, 5);
    await manager.request(`/api/admin/orders/${order.id}`, { method: 'PATCH', body: { status: 'cancelled' } });
    expect(await inventoryOf(order.productId)).toBe(5);
    const res = await refund(order.id, { amount: dollars(order.total), restock: true });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'REFUND_ALREADY_RESTOCKED' });
    expect((await refund(order.id, { amount: dollars(order.total), restock: false })).status).toBe(201);
    expect(await inventoryOf(order.productId)).toBe(5);
  });

  it('writes an audit row with the refunded total before and after, in the same transaction', async () => {
    const order = await placeOrder();
    await sandbox.settle(order.transactionId);
    await refund(order.id, { amount: '3.00', reason: 'Late delivery' });
    await refund(order.id, { amount: '2.50', reason: 'Scratched lid', restock: true });
    const rows = await q<{ action: string; entity_type: string; actor_email: string; actor_role: string; before: unknown; after: unknown }>(
      `select action, entity_type, actor_email, actor_role, before, after from audit_events where entity_id = $1 order by id`,
      [order.id],
    );
    expect(rows).toEqual([
      { action: 'order.refunded', entity_type: 'order', actor_email: manager.email, actor_role: 'manager', before: { refunded: '0.00' }, after: { refunded: '3.00', kind: 'refund', amount: '3.00', reason: 'Late delivery', restocked: false, notified: true } },
      { action: 'order.refunded', entity_type: 'order', actor_email: manager.email, actor_role: 'manager', before: { refunded: '3.00' }, after: { refunded: '5.50', kind: 'refund', amount: '2.50', reason: 'Scratched lid', restocked: true, notified: true } },
    ]);
    const audit = await manager.request(`/api/admin/audit?entityType=order&entityId=${order.id}`);
    expect(audit.status).toBe(200);
    expect(((await audit.json()) as { total: number }).total).toBe(2);
  });
});

describe('an order whose payment went back is not marked shipped', () => {
  const setStatus = (orderId: string, status: string) => manager.request(`/api/admin/orders/${orderId}`, { method: 'PATCH', body: { storeCode: 'NH', status } });
  const shippedRows = (orderId: string) => q(`select id from outbox where topic = 'order.shipped' and payload->>'orderId' = $1`, [orderId]);

  /** The refusal: 409, the reason in staff words (the order page shows the same words), nothing changed. */
  async function refused(orderId: string, status: string, message: string) {
    const res = await setStatus(orderId, status);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'ORDER_PAYMENT_RETURNED', message });
    expect((await detail(orderId)).status).toBe('processing');
    expect(await shippedRows(orderId)).toEqual([]);
  }

  it('voided: shipped and delivered are refused saying why and what to do; the order page carries the same reason; cancelling is allowed', async () => {
    const order = await placeOrder();
    expect((await refund(order.id, { amount: dollars(order.total) })).status).toBe(201);
    await refused(order.id, 'shipped', NOT_SHIPPABLE_MESSAGES.voided);
    await refused(order.id, 'delivered', NOT_SHIPPABLE_MESSAGES.voided);
    expect((await detail(order.id)).shippingBlockedReason).toBe(NOT_SHIPPABLE_MESSAGES.voided);
    const cancelled = await setStatus(order.id, 'cancelled');
    expect(cancelled.status).toBe(200);
    expect(adminOrderSchema.parse(await cancelled.json())).toMatchObject({ status: 'cancelled', shippingBlockedReason: NOT_SHIPPABLE_MESSAGES.voided });
  });

  it('refunded in full (in two parts): refused with the amount; refunded in part: it ships', async () => {
    const order = await placeOrder();
    await sandbox.settle(order.transactionId);
    expect((await refund(order.id, { amount: '10.00' })).status).toBe(201);
    expect((await detail(order.id)).shippingBlockedReason).toBeNull();
    expect((await refund(order.id, { amount: dollars(order.total - 1000) })).status).toBe(201);
    await refused(order.id, 'shipped', NOT_SHIPPABLE_MESSAGES.refunded(order.total));

    const partly = await placeOrder();
    await sandbox.settle(partly.transactionId);
    expect((await refund(partly.id, { amount: '5.00' })).status).toBe(201);
    const shipped = await setStatus(partly.id, 'shipped');
    expect(shipped.status).toBe(200);
    expect(await shippedRows(partly.id)).toHaveLength(1);
  });

  it('a refund of the whole payment still in flight holds it too; a declined one does not', async () => {
    const order = await placeOrder();
    const [charge] = await q<{ id: string }>(`select id from payment_transactions where order_id = $1 and kind = 'charge'`, [order.id]);
    await q(`insert into payment_transactions (order_id, parent_id, kind, amount, status) values ($1, $2, 'refund', $3, 'declined')`, [order.id, charge!.id, dollars(order.total)]);
    expect((await detail(order.id)).shippingBlockedReason).toBeNull();
    await q(`insert into payment_transactions (order_id, parent_id, kind, amount, status) values ($1, $2, 'refund', $3, 'pending')`, [order.id, charge!.id, dollars(order.total)]);
    await refused(order.id, 'shipped', NOT_SHIPPABLE_MESSAGES.refunding);
  });

  it('an order that shipped before its refund stays shipped and may still be marked delivered', async () => {
    const order = await placeOrder();
    expect((await setStatus(order.id, 'shipped')).status).toBe(200);
    await sandbox.settle(order.transactionId);
    expect((await refund(order.id, { amount: dollars(order.total), reason: 'Returned unopened' })).status).toBe(201);
    const delivered = await setStatus(order.id, 'delivered');
    expect(delivered.status).toBe(200);
    expect(adminOrderSchema.parse(await delivered.json())).toMatchObject({ status: 'delivered', shippingBlockedReason: NOT_SHIPPABLE_MESSAGES.refunded(order.total) });
  });
});

describe('refusals', () => {
  it('a role without orders.refund gets 403 and nothing is refunded', async () => {
    const order = await placeOrder();
    for (const role of ['support', 'fulfilment'] as const) {
      const client = await signInAs(api, role);
      const res = await refund(order.id, { amount: '1.00' }, { client });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'STAFF_FORBIDDEN' });
    }
    const owner = await signInAs(api, 'owner');
    expect((await refund(order.id, { amount: dollars(order.total) }, { client: owner })).status).toBe(201);
    const signedOut = await api.request(`/api/admin/orders/${order.id}/refunds`, { method: 'POST', body: { amount: '1.00', reason: 'x', restock: false }, headers: { 'Idempotency-Key': randomUUID() } });
    expect(signedOut.status).toBe(401);
  });

  it('an order with no captured charge, an unknown order, another store', async () => {
    const [unpaid] = await q<{ id: string }>(
      `insert into orders (customer_email, customer_name, shipping_address, items, subtotal, discount, shipping, tax, total, status)
       values ('x@example.com', 'No Charge', '{"address":"1 Main St","city":"Portland","state":"OR","zip":"97201"}', '[]', '10.00', '0', '0', '0', '10.00', 'pending') returning id`,
    );
    const res = await refund(unpaid!.id, { amount: '1.00' });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'REFUND_NO_CHARGE', message: 'This order has no captured payment, so there is nothing to refund.' });
    expect((await refund(randomUUID(), { amount: '1.00' })).status).toBe(404);
    expect((await refund('not-a-uuid', { amount: '1.00' })).status).toBe(404);
    const order = await placeOrder();
    expect((await refund(order.id, { amount: '1.00', storeCode: 'ELSEWHERE' })).status).toBe(404);
  });

  it.each([
    [{ amount: '0.00' }, 'Refund amount must be at least 0.01'],
    [{ amount: '12.505' }, 'Refund amount must be an amount such as 12.50, with at most 2 decimals'],
    [{ amount: 'ten' }, 'Refund amount must be an amount such as 12.50, with at most 2 decimals'],
    [{ amount: null }, 'Please enter the amount to refund'],
    [{ amount: '1.00', reason: '   ' }, 'Please give a reason for the refund'],
    [{ amount: '1.00', reason: 'x'.repeat(501) }, 'The reason must be at most 500 characters'],
    [{ amount: '1.00', restock: 'yes' }, 'Say whether the items go back in stock (restock: true or false)'],
  ])('answers 400 for %j', async (body, message) => {
    // The body is checked before the order is looked up.
    const res = await refund(randomUUID(), body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('a charge voided at the gateway already cannot be refunded', async () => {
    const order = await placeOrder();
    expect(await sandbox.voidCharge(order.transactionId)).toMatchObject({ outcome: 'approved' });
    const res = await refund(order.id, { amount: dollars(order.total) });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'REFUND_NOT_POSSIBLE', message: 'The payment service has this charge as voided, so nothing can be refunded.' });
  });
});

describe('the local sandbox: settlement and refunds', () => {
  it('a charge settles after PAYMENTS_SANDBOX_SETTLE_MINUTES, or at once through the test hook; refunds follow the gateway rules', async () => {
    const order = await placeOrder();
    expect(await sandbox.settlementOf(order.transactionId)).toEqual({ state: 'unsettled', status: 'capturedPendingSettlement', amount: order.total, lastFour: '1111' });
    const early = { transactionId: order.transactionId, amount: 100, lastFour: '1111', invoiceNumber: refundInvoiceNumber(randomUUID()) };
    expect(await sandbox.refund(early)).toMatchObject({ outcome: 'error', errorCode: '54' });
    await sandbox.settle(order.transactionId);
    expect(await sandbox.settlementOf(order.transactionId)).toMatchObject({ state: 'settled', status: 'settledSuccessfully' });
    expect(await sandbox.voidCharge(order.transactionId)).toMatchObject({ outcome: 'error', errorCode: '16' });
    expect(await sandbox.refund(early)).toMatchObject({ outcome: 'approved', transactionId: expect.stringMatching(/^\d+$/) });
    expect(await sandbox.refund(early)).toMatchObject({ outcome: 'error', errorCode: '11', duplicate: true });
    expect(await sandbox.refund({ ...early, amount: order.total, invoiceNumber: refundInvoiceNumber(randomUUID()) })).toMatchObject({ outcome: 'error', errorCode: '55' });
    expect(await sandbox.settlementOf('99999999999')).toMatchObject({ state: 'not-found' });

    const aged = await startTestApi({ PAYMENTS_SANDBOX_SETTLE_MINUTES: '0' });
    try {
      const later = await placeOrder(aged);
      expect(await aged.payments.sandbox!.settlementOf(later.transactionId)).toMatchObject({ state: 'settled' });
    } finally {
      await aged.close();
    }
  });
});

// ---------------------------------------------------------------- Authorize.Net (the adapter against the local stub)

const credentials = { apiLoginId: 'stub-login', transactionKey: 'stub-key' };

describe('Authorize.Net adapter: refunds, voids and the settlement lookup', () => {
  let stub: AuthnetStub;
  beforeAll(async () => {
    stub = await startAuthnetStub(credentials);
  });
  afterAll(() => stub.close());

  const gateway = (overrides: Partial<ConstructorParameters<typeof AuthorizeNetGateway>[0]> = {}) =>
    new AuthorizeNetGateway({ ...credentials, environment: 'sandbox', endpoint: stub.url, timeoutMs: 1_000, duplicateWindowSeconds: 600, ...overrides });

  const charge = async (amount = 3699): Promise<string> => {
    stub.scenario = 'approve';
    const request: OpaqueChargeRequest = {
      amount,
      invoiceNumber: orderInvoiceNumber(randomUUID()),
      email: 'ada@example.com',
      billTo: { firstName: 'Ada', lastName: 'Lovelace', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' },
      opaqueData: { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: `token-${randomUUID()}` },
    };
    return (await gateway().chargeOpaqueData(request)).transactionId!;
  };
  const refundOf = (transactionId: string, amount: number) => ({ transactionId, amount, lastFour: '1111', invoiceNumber: refundInvoiceNumber(randomUUID()) });

  it('settlementOf reads getTransactionDetails: capturedPendingSettlement is unsettled, settledSuccessfully settled, E00040 not found', async () => {
    const id = await charge();
    expect(await gateway().settlementOf(id)).toEqual({ state: 'unsettled', status: 'capturedPendingSettlement', amount: 3699, lastFour: '1111' });
    const sent = stub.requests.at(-1)!;
    expect(sent).toMatchObject({ name: 'getTransactionDetailsRequest', topLevelKeys: ['merchantAuthentication', 'clientId', 'transId'] });
    expect(sent.body.transId).toBe(id);
    stub.settle();
    expect(await gateway().settlementOf(id)).toEqual({ state: 'settled', status: 'settledSuccessfully', amount: 3699, lastFour: '1111' });
    expect(await gateway().settlementOf('123')).toMatchObject({ state: 'not-found' });
    await expect(gateway({ transactionKey: 'wrong' }).settlementOf(id)).rejects.toThrow(/E00007/);
    stub.scenario = 'timeout';
    await expect(gateway({ timeoutMs: 200 }).settlementOf(id)).rejects.toThrow(/timeout/);
    stub.scenario = 'approve';
  });

  it('voidCharge is a voidTransaction: approved, then already voided (310, a duplicate); a settled charge cannot be voided', async () => {
    const id = await charge();
    const voided = await gateway().voidCharge(id);
    expect(voided).toMatchObject({ outcome: 'approved', responseCode: '1', duplicate: false, message: 'This transaction has been approved.' });
    const sent = stub.requests.at(-1)!;
    expect(sent.transactionKeys).toEqual(['transactionType', 'refTransId']);
    expect(sent.body.transactionRequest).toEqual({ transactionType: 'voidTransaction', refTransId: id });
    expect(await gateway().settlementOf(id)).toMatchObject({ state: 'closed', status: 'voided' });
    expect(await gateway().voidCharge(id)).toMatchObject({ outcome: 'error', errorCode: '310', duplicate: true });

    const settled = await charge();
    stub.settle();
    expect(await gateway().voidCharge(settled)).toMatchObject({ outcome: 'error', duplicate: false });
  });

  it('refund is a refundTransaction in schema order with the last four digits, XXXX and its own invoice number; refused before settlement (54) and beyond the charge (55)', async () => {
    const id = await charge(5000);
    expect(await gateway().refund(refundOf(id, 1000))).toMatchObject({ outcome: 'error', errorCode: '54', message: 'The referenced transaction does not meet the criteria for issuing a credit.' });
    stub.settle();
    const request = refundOf(id, 1000);
    const refunded = await gateway().refund(request);
    expect(refunded).toMatchObject({ outcome: 'approved', responseCode: '1', errorCode: null, transactionId: expect.stringMatching(/^\d+$/) });
    const sent = stub.requests.at(-1)!;
    expect(sent.transactionKeys).toEqual(['transactionType', 'amount', 'payment', 'refTransId', 'order', 'transactionSettings']);
    expect(sent.body.transactionRequest).toMatchObject({
      transactionType: 'refundTransaction',
      amount: '10.00',
      payment: { creditCard: { cardNumber: '1111', expirationDate: 'XXXX' } },
      refTransId: id,
      order: { invoiceNumber: request.invoiceNumber },
    });
    expect(sent.duplicateWindow).toBe('600');
    // The same refund again is a duplicate; another refund of the same amount is not.
    expect(await gateway().refund(request)).toMatchObject({ outcome: 'error', errorCode: '11', duplicate: true });
    expect(await gateway().refund(refundOf(id, 1000))).toMatchObject({ outcome: 'approved' });
    expect(await gateway().refund(refundOf(id, 3001))).toMatchObject({ outcome: 'error', errorCode: '55' });
    expect(await gateway().refund({ ...refundOf(id, 100), lastFour: '4242' })).toMatchObject({ outcome: 'error', errorCode: '16' });
    // Refunds are listed as refunds, never found as the order's charge.
    expect(stub.transactions.filter((t) => t.refTransId === id)).toHaveLength(2);
  });

  it('a declined refund, an unknown outcome (asked again: a duplicate), bad credentials', async () => {
    const id = await charge();
    stub.settle();
    stub.scenario = 'decline';
    expect(await gateway().refund(refundOf(id, 500))).toMatchObject({ outcome: 'declined', responseCode: '2', message: 'This transaction has been declined.', duplicate: false });
    stub.scenario = 'charge-then-timeout';
    const request = refundOf(id, 700);
    expect(await gateway({ timeoutMs: 200 }).refund(request)).toMatchObject({ outcome: 'unknown', errorCode: 'timeout' });
    stub.scenario = 'approve';
    expect(await gateway().refund(request)).toMatchObject({ outcome: 'error', errorCode: '11', duplicate: true });
    expect(await gateway({ transactionKey: 'wrong' }).refund(refundOf(id, 100))).toMatchObject({ outcome: 'error', errorCode: 'E00007' });
    expect(await gateway({ endpoint: 'http://127.0.0.1:1/xml/v1/request.api' }).refund(refundOf(id, 100))).toMatchObject({ outcome: 'error', errorCode: 'ECONNREFUSED' });
  });
});

describe('refunds through the API with Authorize.Net (the stub)', () => {
  let stub: AuthnetStub;
  let authnet: TestApi;
  let staff: StaffClient;
  beforeAll(async () => {
    stub = await startAuthnetStub(credentials);
    authnet = await startTestApi(stub.apiEnv({ AUTHNET_TIMEOUT_MS: '400' }));
    staff = await signInAs(authnet, 'manager');
  });
  afterAll(async () => {
    await authnet.close();
    await stub.close();
  });

  const refundAt = (orderId: string, amount: string, key = randomUUID()) =>
    staff.request(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', body: { amount, reason: 'Wrong size', restock: false }, headers: { 'Idempotency-Key': key } });

  it('voids before settlement, refunds after, answers a declined refund with 402 and the gateway words (recorded, repeat answered alike)', async () => {
    const voided = await placeOrder(authnet);
    const v = await refundAt(voided.id, dollars(voided.total));
    expect(v.status).toBe(201);
    expect(await v.json()).toMatchObject({ payment: { kind: 'void', status: 'approved' } });

    const order = await placeOrder(authnet);
    stub.settle();
    const r = await refundAt(order.id, '5.00');
    expect(r.status).toBe(201);
    expect(await r.json()).toMatchObject({ payment: { kind: 'refund', status: 'approved', amount: '5.00' }, refundable: dollars(order.total - 500) });

    stub.scenario = 'decline';
    const key = randomUUID();
    const declined = await refundAt(order.id, '6.00', key);
    stub.scenario = 'approve';
    expect(declined.status).toBe(402);
    const body = (await declined.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'REFUND_DECLINED', message: 'This transaction has been declined.' });
    const again = await refundAt(order.id, '6.00', key);
    expect(again.status).toBe(402);
    expect(await again.json()).toEqual(body);
    const shown = await detail(order.id, staff);
    expect(shown.payments.map((p) => [p.kind, p.status, p.amount])).toEqual([
      ['charge', 'approved', dollars(order.total)],
      ['refund', 'approved', '5.00'],
      ['refund', 'declined', '6.00'],
    ]);
    expect(shown.refundable).toBe(dollars(order.total - 500));
  });

  it('an unknown outcome keeps the refund pending with its amount held, and says so', async () => {
    const order = await placeOrder(authnet);
    stub.settle();
    // The refund is made, but neither it nor the retry is answered.
    stub.scenario = 'charge-then-timeout';
    const res = await refundAt(order.id, '4.00');
    stub.scenario = 'approve';
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'PAYMENT_OUTCOME_UNKNOWN', message: expect.stringContaining('not known whether the money was given back') });
    const shown = await detail(order.id, staff);
    expect(shown.payments.at(-1)).toMatchObject({ kind: 'refund', status: 'pending', amount: '4.00' });
    expect(shown.refundable).toBe(dollars(order.total - 400));
  });

  it('a refund of the whole payment whose answer was lost blocks shipping with its own sentence (check it in Authorize.Net), not "being processed"', async () => {
    const order = await placeOrder(authnet);
    stub.settle();
    stub.scenario = 'charge-then-timeout';
    const res = await refundAt(order.id, dollars(order.total));
    stub.scenario = 'approve';
    expect(res.status).toBe(502);
    expect((await detail(order.id, staff)).shippingBlockedReason).toBe(NOT_SHIPPABLE_MESSAGES.refundUnconfirmed);
    const shipped = await staff.request(`/api/admin/orders/${order.id}`, { method: 'PATCH', body: { storeCode: 'NH', status: 'shipped' } });
    expect(shipped.status).toBe(409);
    expect(await shipped.json()).toEqual({ code: 'ORDER_PAYMENT_RETURNED', message: NOT_SHIPPABLE_MESSAGES.refundUnconfirmed });
    expect((await detail(order.id, staff)).status).toBe('processing');
  });

  it('answers 503 when the gateway cannot be asked where the charge stands; nothing is written', async () => {
    const order = await placeOrder(authnet);
    stub.scenario = 'http-500';
    const res = await refundAt(order.id, dollars(order.total));
    stub.scenario = 'approve';
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'PAYMENTS_UNAVAILABLE', message: 'The payment service could not be reached, so nothing was refunded. Please try again in a few minutes.' });
    expect((await detail(order.id, staff)).payments).toHaveLength(1);
  });
});
