/**
 * A damage claim's $0 replacement through the normal pipeline (issue 23; docs/decisions/claims.md),
 * against the NetSuite REST stub and the test SMTP server: the replacement is written as the API's claim
 * writes it (@nh/server insertReplacementOrder, the stock taken, its `order.placed` outbox row, one
 * transaction); the relay makes it the confirmation email and one NetSuite sync whose sales order names
 * the original (custom field `custbody_nh_replacement_of` = the original's sales-order external id, and
 * the memo). Once: a later sync request sends nothing more. Shipping it sends the shipping notice.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { insertReplacementOrder } from '@nh/server/queries/claims';
import { recordOutbox } from '@nh/server/queries/outbox';
import { takeStock } from '@nh/server/queries/stock';
import { netsuiteExternalIds } from '../src/erp-sync/netsuite/client';
import type { WorkerRuntime } from '../src/runtime';
import { startNetSuiteStub, type NetSuiteStub } from './support/netsuite-stub';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, placeOrder, sampleLine, sleep, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let stub: NetSuiteStub;
let smtp: TestSmtpServer;
let runtime: WorkerRuntime;

const orderRow = async (id: string) => (await tdb.db.select().from(tables.orders).where(eq(tables.orders.id, id)))[0]!;
const synced = (id: string) => waitFor(async () => ((await orderRow(id)).netsuiteSyncStatus === 'synced' ? orderRow(id) : null), 20_000, `order ${id} synced`);
const salesOrderWrites = (orderId: string) => stub.requests.filter((r) => r.method !== 'GET' && r.path.includes('/salesOrder/') && r.path.includes(encodeURIComponent(netsuiteExternalIds.salesOrder(orderId))));

beforeAll(async () => {
  tdb = await createTestDatabase('claimrepl');
  stub = await startNetSuiteStub();
  smtp = await new TestSmtpServer().start();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'claimrepl', { ...stub.env(), SMTP_URL: smtp.url, WORKER_QUEUES: 'erp-sync,emails', EMAIL_BACKOFF_MS: '50' }));
});
afterAll(async () => {
  await runtime?.close(2000);
  await stub?.close();
  await smtp?.close();
  await tdb?.drop();
});

describe('a claim’s replacement order', () => {
  it('syncs to NetSuite once as a $0 sales order naming the original, and the customer gets the confirmation and the shipping notice', async () => {
    const name = `Refill ${randomUUID().slice(0, 8)}`;
    const [product] = await tdb.db
      .insert(tables.products)
      .values({ name, slug: name.toLowerCase().replace(/\s+/g, '-'), price: 1299, inventory: 10, status: 'active', sku: 'NH-REF-1' })
      .returning({ id: tables.products.id });
    const email = `leak-${randomUUID().slice(0, 8)}@example.com`;
    const originalId = await placeOrder(tdb.db, { customerEmail: email, items: [sampleLine({ productId: product!.id, productName: name, quantity: 2 })] });
    await synced(originalId);
    await waitFor(() => smtp.to(email).length === 1, 10_000, 'the original’s confirmation');

    // As the API's claim writes a replacement (api/src/modules/admin/claims/service.ts replaceInTx).
    const original = await orderRow(originalId);
    const replacementId = await tdb.db.transaction(async (tx) => {
      expect(await takeStock(tx, [{ productId: product!.id, quantity: 1 }])).toEqual([]);
      const id = await insertReplacementOrder(tx, original, [{ ...original.items[0]!, quantity: 1, price: '0.00' }]);
      await recordOutbox(tx, 'order.placed', { orderId: id });
      return id;
    });

    const row = await synced(replacementId);
    expect(row.netsuiteOrderId).toBeTruthy();
    const so = stub.find('salesOrder', netsuiteExternalIds.salesOrder(replacementId))!;
    expect(so.body.custbody_nh_replacement_of).toBe(netsuiteExternalIds.salesOrder(originalId));
    expect(so.body.memo).toContain(`replacement (no charge) for web order ${originalId}, sales order ${netsuiteExternalIds.salesOrder(originalId)}`);
    expect(so.body.item).toMatchObject({ items: [expect.objectContaining({ quantity: 1, rate: 0 })] });
    expect(so.body.shippingCost).toBe(0);
    // The original's sales order does not name a replacement.
    expect(stub.find('salesOrder', netsuiteExternalIds.salesOrder(originalId))!.body.custbody_nh_replacement_of).toBeUndefined();

    const [confirmation] = await waitFor(() => (smtp.to(email).length === 2 ? smtp.to(email).slice(1) : null), 10_000, 'the replacement’s confirmation');
    expect(confirmation!.decoded).toContain(`order confirmation #${replacementId.slice(0, 8)}`);
    expect(confirmation!.decoded).toContain('your free replacement');
    expect(confirmation!.decoded).toContain(`This is a free replacement for your order #${originalId.slice(0, 8)}, sent at no charge.`);
    // The original's confirmation says nothing of a replacement.
    expect(smtp.to(email)[0]!.decoded).not.toContain('free replacement');

    // Asked again (staff's retry, the reconcile): already synced, nothing sent.
    await recordOutbox(tdb.db, 'order.sync-requested', { orderId: replacementId });
    await sleep(1500);
    expect(salesOrderWrites(replacementId)).toHaveLength(1);
    expect(stub.salesOrderCount(netsuiteExternalIds.salesOrder(replacementId))).toBe(1);

    // Staff mark it shipped (as PATCH /api/admin/orders/{id} does): the shipping notice.
    await tdb.db.transaction(async (tx) => {
      await tx.update(tables.orders).set({ status: 'shipped', carrier: 'UPS', trackingNumber: '1Z999' }).where(eq(tables.orders.id, replacementId));
      await recordOutbox(tx, 'order.shipped', { orderId: replacementId });
    });
    const [shipped] = await waitFor(() => (smtp.to(email).length === 3 ? smtp.to(email).slice(2) : null), 10_000, 'the shipping notice');
    expect(shipped!.decoded).toContain(`order #${replacementId.slice(0, 8)} has shipped`);
  });
});
