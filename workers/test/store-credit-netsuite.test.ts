/**
 * Store credit reaches NetSuite (issue 23) as the accountant expects: the sales order at its full total
 * (store credit named in its memo), and the credit's part of the payment as a customer deposit on that
 * sales order (external id NH-SCD-<order id>, payment method NH-STORE-CREDIT), which NetSuite's deposit
 * application applies to the invoice. Sent once, also when the sync runs again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { recordOutbox } from '@nh/server/queries/outbox';
import { moveCredit } from '@nh/server/queries/store-credit';
import { REFUND_ITEM, SALES_TAX_ITEM } from '../src/erp-sync/order-mapping';
import { STORE_CREDIT_GOODWILL_ITEM } from '../src/erp-sync/store-credit-sync';
import { netsuiteExternalIds, STORE_CREDIT_ACCOUNTS, STORE_CREDIT_PAYMENT_METHOD } from '../src/erp-sync/netsuite/client';
import type { WorkerRuntime } from '../src/runtime';
import { startNetSuiteStub, type NetSuiteStub } from './support/netsuite-stub';
import { createTestDatabase, placeOrder, sampleLine, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let stub: NetSuiteStub;
let runtime: WorkerRuntime;

const orderRow = async (id: string) => (await tdb.db.select().from(tables.orders).where(eq(tables.orders.id, id)))[0]!;
const creditSync = (entryId: number) =>
  waitFor(async () => (await tdb.db.select().from(tables.storeCreditNetsuiteSyncs).where(eq(tables.storeCreditNetsuiteSyncs.entryId, entryId)))[0] ?? null, 20_000, `credit entry ${entryId} synced`);
let accounts = 0;
const account = async () => {
  accounts++;
  const email = `credit${accounts}-${Date.now()}@example.com`;
  const [user] = await tdb.db.insert(tables.users).values({ email, firstName: 'Robin', lastName: 'Credit' }).returning({ id: tables.users.id });
  return { id: user!.id, email };
};
const recordsOf = (type: string, externalId: string) => [...stub.records.values()].filter((r) => r.type === type && r.externalId === externalId);
const synced = (id: string) => waitFor(async () => ((await orderRow(id)).netsuiteSyncStatus === 'synced' ? true : null), 20_000, `order ${id} synced`);

beforeAll(async () => {
  tdb = await createTestDatabase('synccredit');
  stub = await startNetSuiteStub();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'synccredit', { ...stub.env(), ERP_SYNC_ATTEMPTS: '4', WORKER_QUEUES: 'erp-sync' }));
});
afterAll(async () => {
  await runtime?.close(2000);
  await stub?.close();
  await tdb?.drop();
});

describe('store credit in NetSuite', () => {
  it('an order paid partly with credit: the sales order at its total, the credit as a customer deposit on it, once', async () => {
    const id = await placeOrder(tdb.db, { items: [sampleLine()], outbox: false });
    await tdb.db.transaction(async (tx) => {
      await tx.update(tables.orders).set({ creditApplied: 1000 }).where(eq(tables.orders.id, id));
      await recordOutbox(tx, 'order.placed', { orderId: id });
    });
    await synced(id);
    const salesOrder = stub.find('salesOrder', netsuiteExternalIds.salesOrder(id))!;
    expect(salesOrder.body.memo).toContain('; store credit 10.00');
    const deposit = stub.find('customerDeposit', netsuiteExternalIds.storeCreditDeposit(id))!;
    expect(deposit.body).toMatchObject({ salesOrder: { id: salesOrder.id }, payment: 10, paymentMethod: { externalId: STORE_CREDIT_PAYMENT_METHOD } });

    // The sync again (a staff retry, a repeated job): the same deposit, never a second.
    await tdb.db.transaction(async (tx) => {
      await tx.update(tables.orders).set({ netsuiteSyncStatus: 'pending', netsuiteOrderId: null }).where(eq(tables.orders.id, id));
      await recordOutbox(tx, 'order.placed', { orderId: id });
    });
    await synced(id);
    expect([...stub.records.values()].filter((r) => r.type === 'customerDeposit' && r.externalId === netsuiteExternalIds.storeCreditDeposit(id))).toHaveLength(1);
  });

  it('an order without credit sends no deposit', async () => {
    const id = await placeOrder(tdb.db, { items: [sampleLine()] });
    await synced(id);
    expect(stub.find('customerDeposit', netsuiteExternalIds.storeCreditDeposit(id))).toBeUndefined();
    expect(stub.find('salesOrder', netsuiteExternalIds.salesOrder(id))!.body.memo).not.toContain('store credit');
  });
});

describe('store credit given and refunded to credit, in NetSuite', () => {
  it('a goodwill grant: a credit memo on the goodwill item, paid into the store-credit liability by a customer refund, once', async () => {
    const { id: userId, email } = await account();
    const moved = await moveCredit(tdb.db.$client, { userId, kind: 'grant', amount: 1250, reason: 'Leaking refill, sorry', staffId: null, orderId: null, subscriptionId: null, reference: null });
    const row = await creditSync(moved.entryId);
    expect(row).toMatchObject({ status: 'synced' });

    const memo = stub.find('creditMemo', netsuiteExternalIds.storeCreditMemo(String(moved.entryId)))!;
    expect(memo.body).toMatchObject({ email, item: { items: [{ item: { externalId: STORE_CREDIT_GOODWILL_ITEM }, quantity: 1, rate: 12.5 }] } });
    expect(memo.body.memo).toBe('Store credit given (goodwill): Leaking refill, sorry');
    const customer = stub.find('customer', netsuiteExternalIds.customer(email))!;
    expect(memo.body.entity).toEqual({ id: customer.id });
    const refund = stub.find('customerRefund', netsuiteExternalIds.storeCreditRefund(String(moved.entryId)))!;
    expect(refund.body).toMatchObject({
      customer: { id: customer.id },
      paymentMethod: { externalId: STORE_CREDIT_PAYMENT_METHOD },
      apply: { items: [{ doc: { id: memo.id }, apply: true, amount: 12.5 }] },
    });
    expect(row.netsuiteRecords).toEqual({ creditMemo: memo.id, customerRefund: refund.id });
  });

  it('a refund to credit: the credit memo of the order on the refund item, into the liability instead of the card; a lost answer and a rerun make nothing twice', async () => {
    const { id: userId } = await account();
    const orderId = await placeOrder(tdb.db, { items: [sampleLine()], customerEmail: 'buyer-credit@example.com', outbox: false });
    await tdb.db.update(tables.orders).set({ userId }).where(eq(tables.orders.id, orderId));
    // NetSuite makes the customer refund and the answer is lost: the retry upserts the same records.
    stub.loseAnswersAfterWrite('customerRefund', 1);
    const moved = await moveCredit(tdb.db.$client, { userId, kind: 'refund', amount: 800, reason: 'Damaged', staffId: null, orderId, subscriptionId: null, reference: `refund:${orderId}:k1` });
    expect(await creditSync(moved.entryId)).toMatchObject({ status: 'synced' });
    const entry = String(moved.entryId);
    const memo = stub.find('creditMemo', netsuiteExternalIds.storeCreditMemo(entry))!;
    // The order's customer (its email), as the order's sales order and a card refund's credit memo.
    // $8.00 of a $38.05 order with $2.08 tax (issue 25): $7.56 on the refund item, its $0.44 of tax on the sales tax item.
    expect(memo.body).toMatchObject({
      otherRefNum: orderId,
      email: 'buyer-credit@example.com',
      item: { items: [{ item: { externalId: REFUND_ITEM }, rate: 7.56, isTaxable: false }, { item: { externalId: SALES_TAX_ITEM }, rate: 0.44, description: 'Sales tax refunded IL 62701', isTaxable: false }] },
      total: 8,
    });
    expect(memo.body.memo).toContain(`Refund to store credit of web order ${orderId} (sales order ${netsuiteExternalIds.salesOrder(orderId)})`);
    expect(memo.body.entity).toEqual({ id: stub.find('customer', netsuiteExternalIds.customer('buyer-credit@example.com'))!.id });
    expect(recordsOf('customerRefund', netsuiteExternalIds.storeCreditRefund(entry))).toHaveLength(1);
    expect(recordsOf('creditMemo', netsuiteExternalIds.storeCreditMemo(entry))).toHaveLength(1);

    // The same outbox row again (a relay replay, staff asking again): skipped, nothing written.
    const writes = stub.requests.filter((r) => r.method === 'PUT').length;
    await tdb.db.transaction((tx) => recordOutbox(tx, 'store-credit.recorded', { entryId: entry }));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(stub.requests.filter((r) => r.method === 'PUT').length).toBe(writes);
  });

  it('spends and reverses are not sent on their own (a spend travels with its order as a deposit)', async () => {
    const { id: userId } = await account();
    await moveCredit(tdb.db.$client, { userId, kind: 'grant', amount: 500, reason: 'r', staffId: null, orderId: null, subscriptionId: null, reference: null });
    const spend = await moveCredit(tdb.db.$client, { userId, kind: 'spend', amount: 200, reason: null, staffId: null, orderId: null, subscriptionId: null, reference: null });
    const topics = await tdb.db.select().from(tables.outbox).where(eq(tables.outbox.topic, 'store-credit.recorded'));
    expect(topics.some((r) => (r.payload as { entryId: string }).entryId === String(spend.entryId))).toBe(false);
  });
});

describe('expired store credit, in NetSuite', () => {
  it('an expiry: a journal entry releasing the liability against the goodwill expense, once', async () => {
    const { id: userId, email } = await account();
    await moveCredit(tdb.db.$client, { userId, kind: 'grant', amount: 600, reason: 'Goodwill', staffId: null, orderId: null, subscriptionId: null, reference: null, expiresAt: new Date(Date.now() - 1000) });
    const expired = await moveCredit(tdb.db.$client, { userId, kind: 'expire', amount: 600, reason: 'Expired', staffId: null, orderId: null, subscriptionId: null, reference: `expire-test:${userId}` });
    expect(await creditSync(expired.entryId)).toMatchObject({ status: 'synced' });
    const journal = stub.find('journalEntry', netsuiteExternalIds.storeCreditExpiry(String(expired.entryId)))!;
    const customer = stub.find('customer', netsuiteExternalIds.customer(email))!;
    expect(journal.body.line).toEqual({
      items: [
        expect.objectContaining({ account: { externalId: STORE_CREDIT_ACCOUNTS.liability }, debit: 6, entity: { id: customer.id } }),
        expect.objectContaining({ account: { externalId: STORE_CREDIT_ACCOUNTS.goodwillExpense }, credit: 6, entity: { id: customer.id } }),
      ],
    });
    expect(recordsOf('journalEntry', netsuiteExternalIds.storeCreditExpiry(String(expired.entryId)))).toHaveLength(1);
  });
});
