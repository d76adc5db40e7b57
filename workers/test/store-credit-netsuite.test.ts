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
import { netsuiteExternalIds, STORE_CREDIT_PAYMENT_METHOD } from '../src/erp-sync/netsuite/client';
import type { WorkerRuntime } from '../src/runtime';
import { startNetSuiteStub, type NetSuiteStub } from './support/netsuite-stub';
import { createTestDatabase, placeOrder, sampleLine, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let stub: NetSuiteStub;
let runtime: WorkerRuntime;

const orderRow = async (id: string) => (await tdb.db.select().from(tables.orders).where(eq(tables.orders.id, id)))[0]!;
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
