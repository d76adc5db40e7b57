/**
 * Refunds and voids reach NetSuite (issue 19), against the NetSuite REST stub: the refund's payment
 * row and its `order.refunded` outbox row are written in one transaction (as the API's refund does:
 * @nh/server requestRefundSync), the relay turns the row into the order's sync job, and the sync sends
 * each refund as a credit memo of its own (external id NH-RFD-<refund id>), and closes the sales order
 * (every line `isClosed`) for a void, or for a refund in full of an order not shipped. End to end once:
 * the back office's refund call, then the worker.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { centsToDecimal, priceCart, toPayloadStrings } from '@nh/shared';
import * as tables from '@nh/server/db/schema';
import { recordOutbox } from '@nh/server/queries/outbox';
import { requestRefundSync } from '@nh/server/queries/sync';
import { netsuiteExternalIds } from '../src/erp-sync/netsuite/client';
import { REFUND_ITEM, SALES_TAX_ITEM } from '../src/erp-sync/order-mapping';
import type { WorkerRuntime } from '../src/runtime';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs } from '../../api/test/support/staff';
import { startNetSuiteStub, type NetSuiteStub } from './support/netsuite-stub';
import {
  createTestDatabase,
  placeOrder,
  sampleLine,
  startTestWorkers,
  testWorkerConfig,
  waitFor,
  type TestDatabase,
} from './support/setup';

let tdb: TestDatabase;
let stub: NetSuiteStub;
let runtime: WorkerRuntime;

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  tdb.db.$client.query<T>(text, values).then((r) => r.rows);
const orderRow = async (id: string) => (await tdb.db.select().from(tables.orders).where(eq(tables.orders.id, id)))[0]!;
const refundRow = async (id: string) =>
  (await tdb.db.select().from(tables.paymentTransactions).where(eq(tables.paymentTransactions.id, id)))[0]!;
/**
 * A refund by amount's credit memo lines (issue 25): the amount less its tax part on the refund item, the
 * tax part (the order's tax in proportion to the amount) on the sales tax item; both not taxable.
 */
const memoLines = (order: { tax: number; total: number }, amount: number) => {
  const tax = Math.round((amount * order.tax) / order.total);
  return [
    expect.objectContaining({ item: { externalId: REFUND_ITEM }, quantity: 1, rate: (amount - tax) / 100, amount: (amount - tax) / 100, isTaxable: false }),
    expect.objectContaining({ item: { externalId: SALES_TAX_ITEM }, quantity: 1, rate: tax / 100, amount: tax / 100, isTaxable: false }),
  ];
};
const ledgerOf = (id: string) =>
  q<{ record: string; outcome: string }>('select record, outcome from netsuite_sync_attempts where order_id = $1 order by at, id', [id]);

/** The order synced with nothing outstanding (every approved refund and void carried). */
const synced = (orderId: string) =>
  waitFor(
    async () => {
      const row = await orderRow(orderId);
      const [open] = await q<{ n: number }>(
        `select count(*)::int as n from payment_transactions where order_id = $1 and kind in ('refund', 'void') and status = 'approved' and netsuite_record_id is null`,
        [orderId],
      );
      return row.netsuiteSyncStatus === 'synced' && open!.n === 0 ? row : null;
    },
    20_000,
    `order ${orderId} synced with its refunds`,
  );

beforeAll(async () => {
  tdb = await createTestDatabase('syncrfd');
  stub = await startNetSuiteStub();
  runtime = await startTestWorkers(
    testWorkerConfig(tdb.url, 'syncrfd', { ...stub.env(), ERP_SYNC_ATTEMPTS: '4', WORKER_QUEUES: 'erp-sync' }),
  );
});
afterAll(async () => {
  await runtime?.close(2000);
  await stub?.close();
  await tdb?.drop();
});

/** An order as the checkout leaves one paid: the order, its approved charge and its `order.placed` row; then synced. */
async function paidOrder(
  input: { email?: string; status?: 'processing' | 'shipped'; sync?: boolean } = {},
): Promise<{ id: string; total: number; chargeId: string }> {
  const id = await placeOrder(tdb.db, {
    customerEmail: input.email ?? `refund-${randomUUID().slice(0, 8)}@example.com`,
    items: [sampleLine()],
    outbox: input.sync !== false,
  });
  const { total } = await orderRow(id);
  const [charge] = await q<{ id: string }>(
    `insert into payment_transactions (order_id, kind, amount, status, authnet_transaction_id, invoice_number) values ($1, 'charge', $2, 'approved', '60001', 'ORD-1') returning id`,
    [id, centsToDecimal(total)],
  );
  if (input.status) await q('update orders set status = $2 where id = $1', [id, input.status]);
  if (input.sync !== false) await synced(id);
  return { id, total, chargeId: charge!.id };
}

/** A refund or void the gateway approved, recorded as the API's refund records it: the row and the sync's outbox row in one transaction. */
async function givenBack(
  order: { id: string; chargeId: string },
  kind: 'refund' | 'void',
  amount: number,
  reason = 'Damaged in transit',
): Promise<string> {
  const id = randomUUID();
  await tdb.db.transaction(async (tx) => {
    await tx.insert(tables.paymentTransactions).values({
      id,
      orderId: order.id,
      parentId: order.chargeId,
      kind,
      amount,
      status: 'approved',
      reason,
      invoiceNumber: `RFD-${id.slice(0, 8)}`,
    });
    await requestRefundSync(tx, order.id, id);
  });
  return id;
}

const creditMemo = (refundId: string) => stub.find('creditMemo', netsuiteExternalIds.creditMemo(refundId));
const salesOrder = (orderId: string) => stub.find('salesOrder', netsuiteExternalIds.salesOrder(orderId))!;
const lines = (record: { body: Record<string, unknown> }) => (record.body.item as { items: Array<Record<string, unknown>> }).items;

describe('refunds and voids reach NetSuite', () => {
  it('partial refunds: one credit memo each for its amount, on the refund item, naming the order; the sales order untouched; an earlier one never sent again', async () => {
    const order = await paidOrder({ email: 'partial@example.com' });
    const before = await orderRow(order.id);
    const soWrites = salesOrder(order.id).writes;

    const first = await givenBack(order, 'refund', 500, 'One bottle leaked');
    // The refund makes the synced order pending until NetSuite has its credit.
    expect((await orderRow(order.id)).netsuiteSyncStatus).toBe('pending');
    await synced(order.id);
    const memo = creditMemo(first)!;
    expect(memo.body).toMatchObject({
      entity: { id: before.netsuiteCustomerId },
      otherRefNum: order.id,
      email: 'partial@example.com',
      tranDate: new Date().toISOString().slice(0, 10),
      // $5.00 of a $38.05 order with $2.08 tax: $4.73 on the refund item, $0.27 of tax on the sales tax item.
      item: { items: memoLines(before, 500) },
      // NetSuite adds no tax of its own: the memo's total is the amount given back.
      taxTotal: 0,
      total: 5,
    });
    expect(lines(memo).map((l) => l.rate)).toEqual([4.73, 0.27]);
    expect(memo.body.memo).toBe(
      `Refund of web order ${order.id} (sales order ${netsuiteExternalIds.salesOrder(order.id)}): One bottle leaked`,
    );
    expect((await refundRow(first)).netsuiteRecordId).toBe(memo.id);

    const requestsBefore = stub.requests.length;
    const second = await givenBack(order, 'refund', 700, 'Late delivery');
    await synced(order.id);
    // One request: the second credit memo (the customer's id is remembered; the first credit memo and the sales order stay as they are).
    expect(stub.requests.slice(requestsBefore).map((r) => `${r.method} ${r.path.split('/')[5]}`)).toEqual(['PUT creditMemo']);
    expect(lines(creditMemo(second)!)).toEqual(memoLines(before, 700));
    expect(creditMemo(second)!.body.total).toBe(7);
    expect(creditMemo(first)!.writes).toBe(1);
    expect(stub.creditMemos().filter((m) => m.body.otherRefNum === order.id)).toHaveLength(2);
    expect(salesOrder(order.id).writes).toBe(soWrites);
    expect(lines(salesOrder(order.id)).some((l) => l.isClosed)).toBe(false);
    expect((await orderRow(order.id)).netsuiteOrderId).toBe(before.netsuiteOrderId);
    expect((await ledgerOf(order.id)).map((e) => `${e.record} ${e.outcome}`)).toEqual([
      'customer ok',
      'salesOrder ok',
      'creditMemo ok',
      'creditMemo ok',
    ]);
  });

  it('a refund in full of an order not shipped: its credit memo, and the sales order closed (every line), so NetSuite fulfils nothing', async () => {
    const order = await paidOrder();
    const refund = await givenBack(order, 'refund', order.total, 'Customer cancelled');
    await synced(order.id);
    // The whole tax back on the sales tax item.
    expect(lines(creditMemo(refund)!)).toEqual(memoLines(await orderRow(order.id), order.total));
    expect(lines(creditMemo(refund)!)[1]).toMatchObject({ rate: (await orderRow(order.id)).tax / 100 });
    expect(creditMemo(refund)!.body.total).toBe(order.total / 100);
    const so = salesOrder(order.id);
    expect(so.writes).toBe(2);
    expect(lines(so).every((l) => l.isClosed === true)).toBe(true);
    expect(so.body.memo).toContain('closed: payment refunded');
  });

  it("a refund by line of an order taxed line by line (issue 25): the credit memo's tax line is the refunded line's own tax, in proportion", async () => {
    const order = await paidOrder({ email: 'taxed-lines@example.com' });
    // As a destination's calculator leaves it: one line taxed 10 %, an exempt one (the charge covers it).
    const items = [sampleLine({ quantity: 2, price: '12.99', tax: '2.60' }), sampleLine({ productName: 'Refill', variantSku: 'NH-REF-2', quantity: 1, price: '5.00', tax: '0.00' })];
    await q(`update orders set items = $2::jsonb, subtotal = 30.98, tax = 2.60, total = 43.57, tax_source = 'table' where id = $1`, [order.id, JSON.stringify(items)]);
    const refundId = randomUUID();
    // One of the two taxed items: half of 25.98 + 2.60 = 14.29, of which 1.30 tax.
    await tdb.db.transaction(async (tx) => {
      await tx.insert(tables.paymentTransactions).values({
        id: refundId, orderId: order.id, parentId: order.chargeId, kind: 'refund', amount: 1429, status: 'approved', reason: 'One leaked', invoiceNumber: `RFD-${refundId.slice(0, 8)}`,
        refundLines: [{ line: 0, quantity: 1, amount: 1429, restock: false }],
      });
      await requestRefundSync(tx, order.id, refundId);
    });
    const exempt = randomUUID();
    await tdb.db.transaction(async (tx) => {
      await tx.insert(tables.paymentTransactions).values({
        id: exempt, orderId: order.id, parentId: order.chargeId, kind: 'refund', amount: 500, status: 'approved', reason: 'Not needed', invoiceNumber: `RFD-${exempt.slice(0, 8)}`,
        refundLines: [{ line: 1, quantity: 1, amount: 500, restock: false }],
      });
      await requestRefundSync(tx, order.id, exempt);
    });
    await synced(order.id);
    expect(lines(creditMemo(refundId)!).map((l) => [(l.item as { externalId: string }).externalId, l.rate, l.description])).toEqual([
      [REFUND_ITEM, 12.99, `Refund of web order ${order.id}`],
      [SALES_TAX_ITEM, 1.3, 'Sales tax refunded IL 62701 (table)'],
    ]);
    // The exempt line gives back no tax: the refund item only.
    expect(lines(creditMemo(exempt)!).map((l) => [(l.item as { externalId: string }).externalId, l.rate])).toEqual([[REFUND_ITEM, 5]]);
  });

  it('a refund in full of an order that shipped (a return): its credit memo only; the sales order stands', async () => {
    const order = await paidOrder({ status: 'shipped' });
    const refund = await givenBack(order, 'refund', order.total, 'Returned unopened');
    await synced(order.id);
    expect(creditMemo(refund)).toBeDefined();
    expect(salesOrder(order.id).writes).toBe(1);
  });

  it('a void before settlement: the sales order closed, no credit memo; the void carries the sales order', async () => {
    const order = await paidOrder();
    const voidId = await givenBack(order, 'void', order.total, 'Customer changed their mind');
    const row = await synced(order.id);
    expect(creditMemo(voidId)).toBeUndefined();
    const so = salesOrder(order.id);
    expect(lines(so)).toEqual([
      expect.objectContaining({ item: { externalId: 'NH-FLU-24' }, quantity: 2, isClosed: true }),
      expect.objectContaining({ item: { externalId: SALES_TAX_ITEM }, isClosed: true }),
    ]);
    expect(so.body.memo).toContain('closed: payment voided');
    expect((await refundRow(voidId)).netsuiteRecordId).toBe(row.netsuiteOrderId);
  });

  it('a refund approved before the order was ever synced: the one sync makes the sales order and the credit memo', async () => {
    const order = await paidOrder({ sync: false });
    const refund = await givenBack(order, 'refund', 300);
    const row = await synced(order.id);
    expect(row.netsuiteOrderId).toBe(salesOrder(order.id).id);
    expect(creditMemo(refund)).toBeDefined();
    expect(lines(salesOrder(order.id)).some((l) => l.isClosed)).toBe(false);
  });

  it('a retried sync makes no second credit: a credit memo saved but its answer lost, then the job run again, then a worker killed before it recorded it', async () => {
    const order = await paidOrder();
    stub.loseAnswersAfterWrite('creditMemo', 2);
    const refund = await givenBack(order, 'refund', 250);
    await synced(order.id);
    const memo = creditMemo(refund)!;
    expect(memo.writes).toBeGreaterThanOrEqual(2);
    expect(stub.creditMemos().filter((m) => m.body.otherRefNum === order.id)).toHaveLength(1);
    expect((await refundRow(refund)).netsuiteRecordId).toBe(memo.id);
    expect((await ledgerOf(order.id)).filter((e) => e.record === 'creditMemo').map((e) => e.outcome)).toContain('failed');

    // The same job again (a relay retry): nothing outstanding, nothing sent.
    const before = stub.requests.length;
    await runtime.queues['erp-sync'].add('sync-order', { orderId: order.id }, { jobId: `again-${order.id}` });
    await waitFor(
      async () => (await runtime.queues['erp-sync'].getJobState(`again-${order.id}`)) === 'completed',
      10_000,
      'the repeated job',
    );
    expect(stub.requests.length).toBe(before);

    // A worker killed after NetSuite saved the credit memo but before the row recorded it: sent again, still one.
    await q(`update payment_transactions set netsuite_record_id = null where id = $1`, [refund]);
    await q(`update orders set netsuite_sync_status = 'pending' where id = $1`, [order.id]);
    await runtime.queues['erp-sync'].add('sync-order', { orderId: order.id }, { jobId: `killed-${order.id}` });
    await synced(order.id);
    expect(stub.creditMemos().filter((m) => m.body.otherRefNum === order.id)).toHaveLength(1);
    expect((await refundRow(refund)).netsuiteRecordId).toBe(memo.id);
    // Written four times, it still credits $2.50 once: its two lines (NetSuite adds the lines of an update unless they replace the sublist).
    expect(memo.writes).toBeGreaterThanOrEqual(4);
    expect(lines(memo)).toEqual(memoLines(await orderRow(order.id), 250));
  });

  it('two syncs of one order at once (its first sync held in NetSuite while a void is recorded): the second waits for the first, and NetSuite ends with the sales order closed', async () => {
    const order = await paidOrder({ sync: false });
    // Job A: the order's sync, its open sales order held in NetSuite before it is applied.
    const hold = stub.holdNextWrite('salesOrder');
    await recordOutbox(tdb.db, 'order.sync-requested', { orderId: order.id });
    await hold.arrived;
    // Job B: the void's sync, while A has read the order (no void, no sales order) and is still writing.
    const voidId = await givenBack(order, 'void', order.total, 'Customer changed their mind');
    const queue = runtime.queues['erp-sync'];
    const voidJob = await waitFor(
      async () =>
        (await refundRow(voidId)).netsuiteRecordId !== null ||
        (await queue.getDelayed()).some((job) => (job.data as { orderId?: string }).orderId === order.id),
      10_000,
      "the void's job to run, or to wait its turn",
    );
    expect(voidJob).toBe(true);
    // B did not write NetSuite while A held the order.
    expect((await refundRow(voidId)).netsuiteRecordId).toBeNull();
    hold.release();

    const row = await synced(order.id);
    const so = salesOrder(order.id);
    expect(stub.salesOrderCount(netsuiteExternalIds.salesOrder(order.id))).toBe(1);
    expect(so.writes).toBe(2);
    expect(lines(so)).toEqual([
      expect.objectContaining({ item: { externalId: 'NH-FLU-24' }, isClosed: true }),
      expect.objectContaining({ item: { externalId: SALES_TAX_ITEM }, isClosed: true }),
    ]);
    expect(so.body.memo).toContain('closed: payment voided');
    expect((await refundRow(voidId)).netsuiteRecordId).toBe(row.netsuiteOrderId);
    // Waiting its turn is no NetSuite failure: no failed request, no error on the order.
    expect(row.netsuiteSyncError).toBeNull();
    expect((await ledgerOf(order.id)).map((e) => `${e.record} ${e.outcome}`)).toEqual(['customer ok', 'salesOrder ok', 'salesOrder ok']);
  });

  it('a credit memo NetSuite refuses for good: the order fails (the failed list); a staff retry carries it', async () => {
    const order = await paidOrder();
    stub.failValidation('Invalid item reference key.');
    const refund = await givenBack(order, 'refund', 100);
    const failed = await waitFor(
      async () => ((await orderRow(order.id)).netsuiteSyncStatus === 'failed' ? orderRow(order.id) : null),
      20_000,
      'the order to fail',
    );
    stub.failValidation(null);
    expect(failed.netsuiteSyncError).toContain('Invalid item reference key.');
    expect(await q('select order_id from netsuite_failed_syncs where order_id = $1', [order.id])).toHaveLength(1);
    expect((await refundRow(refund)).netsuiteRecordId).toBeNull();

    // What the back office's retry writes: pending again and a sync request, in one transaction.
    await tdb.db.transaction(async (tx) => {
      await tx.update(tables.orders).set({ netsuiteSyncStatus: 'pending' }).where(eq(tables.orders.id, order.id));
      await recordOutbox(tx, 'order.sync-requested', { orderId: order.id });
    });
    await synced(order.id);
    expect(creditMemo(refund)).toBeDefined();
    expect(await q('select order_id from netsuite_failed_syncs where order_id = $1', [order.id])).toHaveLength(0);
  });
});

describe('end to end: the back office refunds, the worker credits NetSuite', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: `syncrfd-api-${randomUUID().slice(0, 8)}` });
  });
  afterAll(() => api?.close());

  async function checkout(): Promise<string> {
    const name = `NetSuite Refund ${randomUUID().slice(0, 8)}`;
    const [product] = await q<{ id: number }>(
      `insert into products (name, slug, price, inventory, status, sku) values ($1, $2, '20.00', 10, 'active', $3) returning id`,
      [name, name.toLowerCase().replace(/\s+/g, '-'), `NR-${name.slice(-8)}`],
    );
    const token = await api.request('/api/payments/sandbox/tokenize', {
      body: {
        authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
        cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345' },
      },
    });
    const { opaqueData } = (await token.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } };
    const strings = toPayloadStrings(priceCart([{ price: 2000, quantity: 1 }]));
    const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' };
    const res = await api.request('/api/payments/checkout-nonce', {
      headers: { 'Idempotency-Key': randomUUID() },
      body: {
        amount: strings.total,
        ...opaqueData,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada.refund@example.com',
        ...address,
        orderData: {
          items: [{ productId: product!.id, quantity: 1, price: '20.00' }],
          ...strings,
          promoCode: null,
          shippingAddress: address,
          billingAddress: address,
        },
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { orderId: string }).orderId;
  }

  it('a void and a partial refund through POST /api/admin/orders/{id}/refunds: the sales order closed, a credit memo made', async () => {
    const manager = await signInAs(api, 'manager');
    const refund = (orderId: string, amount: string) =>
      manager.request(`/api/admin/orders/${orderId}/refunds`, {
        method: 'POST',
        body: { storeCode: 'NH', amount, reason: 'Asked by the customer', restock: false },
        headers: { 'Idempotency-Key': randomUUID() },
      });

    const voided = await checkout();
    await synced(voided);
    const { total } = await orderRow(voided);
    expect((await refund(voided, centsToDecimal(total))).status).toBe(201);
    await synced(voided);
    expect(lines(salesOrder(voided)).every((l) => l.isClosed === true)).toBe(true);

    const refunded = await checkout();
    await synced(refunded);
    const [charge] = await q<{ authnet_transaction_id: string }>(
      `select authnet_transaction_id from payment_transactions where order_id = $1 and kind = 'charge'`,
      [refunded],
    );
    await api.payments.sandbox!.settle(charge!.authnet_transaction_id);
    const res = await refund(refunded, '4.00');
    expect(res.status).toBe(201);
    const { payment } = (await res.json()) as { payment: { id: string } };
    await synced(refunded);
    expect(creditMemo(payment.id)!.body).toMatchObject({ otherRefNum: refunded, item: { items: memoLines(await orderRow(refunded), 400) }, total: 4 });
    expect(lines(salesOrder(refunded)).some((l) => l.isClosed)).toBe(false);
  });
});
