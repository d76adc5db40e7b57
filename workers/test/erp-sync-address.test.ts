/**
 * Issue 23, "Fix an unshipped order", in NetSuite (against the NetSuite REST stub): staff's address
 * correction is written as the API writes it (@nh/server writeOrderAddress and requestAddressSync, and the
 * `order.address-corrected` outbox row, in one transaction); the relay makes it the order's sync job, which
 * sends the sales order again (same external id: NetSuite updates the one record) with the new shipping
 * address, once; a later sync of the order sends nothing more. The corrected confirmation email says so.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import * as tables from '@nh/server/db/schema';
import { writeOrderAddress } from '@nh/server/queries/order-address';
import { recordOutbox } from '@nh/server/queries/outbox';
import { requestAddressSync } from '@nh/server/queries/sync';
import { orderConfirmationEmail } from '../src/emails/order-confirmation';
import { netsuiteExternalIds } from '../src/erp-sync/netsuite/client';
import type { WorkerRuntime } from '../src/runtime';
import { startNetSuiteStub, type NetSuiteStub } from './support/netsuite-stub';
import { createTestDatabase, placeOrder, sleep, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let stub: NetSuiteStub;
let runtime: WorkerRuntime;

const NEW = { address: '22 Elm Ave', city: 'Eugene', state: 'OR', zip: '97401' };

const orderRow = async (id: string) => (await tdb.db.select().from(tables.orders).where(eq(tables.orders.id, id)))[0]!;
const salesOrder = (orderId: string) => stub.find('salesOrder', netsuiteExternalIds.salesOrder(orderId))!;
const salesOrderWrites = (orderId: string) => stub.requests.filter((r) => r.method !== 'GET' && r.path.includes('/salesOrder/') && r.path.includes(encodeURIComponent(netsuiteExternalIds.salesOrder(orderId))));

/** Synced with the order's latest address in NetSuite. */
const synced = (orderId: string) =>
  waitFor(
    async () => {
      const row = await orderRow(orderId);
      return row.netsuiteSyncStatus === 'synced' && row.netsuiteAddressRevision === row.addressRevision ? row : null;
    },
    20_000,
    `order ${orderId} synced with its address`,
  );

/** As PUT /api/admin/orders/{id}/address writes a correction (api/src/modules/admin/orders/address.ts). */
async function correctAddress(orderId: string, address: tables.Address): Promise<void> {
  await tdb.db.transaction(async (tx) => {
    await writeOrderAddress(tx, orderId, address);
    await requestAddressSync(tx, orderId);
    await recordOutbox(tx, OUTBOX_TOPICS.orderAddressCorrected, { orderId, correctionId: randomUUID() });
  });
}

beforeAll(async () => {
  tdb = await createTestDatabase('syncaddr');
  stub = await startNetSuiteStub();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'syncaddr', { ...stub.env(), WORKER_QUEUES: 'erp-sync' }));
});
afterAll(async () => {
  await runtime?.close(2000);
  await stub?.close();
  await tdb?.drop();
});

describe('a corrected shipping address reaches NetSuite', () => {
  it('sends the synced sales order again with the new address, once; a later sync sends nothing', async () => {
    const id = await placeOrder(tdb.db, { customerEmail: `moved-${randomUUID().slice(0, 8)}@example.com` });
    const first = await synced(id);
    expect(salesOrder(id).writes).toBe(1);
    expect(salesOrder(id).body.shippingAddress).toMatchObject({ addr1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });

    await correctAddress(id, NEW);
    expect((await orderRow(id)).netsuiteSyncStatus).toBe('pending');
    const row = await synced(id);
    expect(row.netsuiteAddressRevision).toBe(1);
    expect(row.netsuiteOrderId).toBe(first.netsuiteOrderId);
    const so = salesOrder(id);
    expect(so.writes).toBe(2);
    expect(so.body.shippingAddress).toMatchObject({ addressee: 'Dana Shopper', addr1: NEW.address, city: NEW.city, state: NEW.state, zip: NEW.zip });
    expect(stub.salesOrderCount(netsuiteExternalIds.salesOrder(id))).toBe(1);
    expect(salesOrderWrites(id)).toHaveLength(2);

    // Asked again (staff's retry, the reconcile): nothing outstanding, nothing sent.
    await recordOutbox(tdb.db, OUTBOX_TOPICS.orderSyncRequested, { orderId: id });
    await sleep(1500);
    expect(salesOrder(id).writes).toBe(2);
    expect(salesOrderWrites(id)).toHaveLength(2);
  });

  it('an address corrected before the first sync: the one sales order carries it', async () => {
    const id = await placeOrder(tdb.db, { outbox: false });
    await correctAddress(id, NEW);
    const row = await synced(id);
    expect(row.netsuiteAddressRevision).toBe(1);
    expect(salesOrder(id).writes).toBe(1);
    expect(salesOrder(id).body.shippingAddress).toMatchObject({ addr1: NEW.address, zip: NEW.zip });
  });
});

describe('the corrected confirmation email', () => {
  it('says the address was corrected and names the new one, in text and HTML; the usual confirmation does not', () => {
    const order = { id: randomUUID(), customerName: 'Maya Moved', items: [], subtotal: 4000, discount: 0, subscribeDiscount: 0, promoDiscount: 0, shipping: 999, tax: 320, total: 5319, promoCode: null };
    const corrected = orderConfirmationEmail(order, { correctedAddress: NEW });
    expect(corrected.subject).toMatch(/corrected shipping address/);
    expect(corrected.text).toContain('We corrected the shipping address of your order');
    expect(corrected.text).toContain('22 Elm Ave, Eugene, OR 97401');
    expect(corrected.html).toContain('Corrected address.');
    const usual = orderConfirmationEmail(order);
    expect(usual.text).not.toContain('corrected');
  });
});
