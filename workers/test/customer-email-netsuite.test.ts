/**
 * A customer's confirmed new email reaches NetSuite (issue 23): the `customer.email-changed` outbox row
 * (written with the change) makes the sync patch the customer record found under the old address's
 * external id with the new address and the new address's external id, so the next order under the new
 * address lands on the same NetSuite customer. A customer NetSuite never had is left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { applyEmailChange, insertEmailChange } from '@nh/server/queries/email-change';
import { recordOutbox } from '@nh/server/queries/outbox';
import { netsuiteExternalIds } from '../src/erp-sync/netsuite/client';
import type { WorkerRuntime } from '../src/runtime';
import { startNetSuiteStub, type NetSuiteStub } from './support/netsuite-stub';
import { createTestDatabase, placeOrder, sampleLine, sleep, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let stub: NetSuiteStub;
let runtime: WorkerRuntime;

beforeAll(async () => {
  tdb = await createTestDatabase('custemail');
  stub = await startNetSuiteStub();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'custemail', { ...stub.env(), ERP_SYNC_ATTEMPTS: '4', WORKER_QUEUES: 'erp-sync' }));
});
afterAll(async () => {
  await runtime?.close(2000);
  await stub?.close();
  await tdb?.drop();
});

const synced = (id: string) =>
  waitFor(async () => ((await tdb.db.select().from(tables.orders).where(eq(tables.orders.id, id)))[0]!.netsuiteSyncStatus === 'synced' ? true : null), 20_000, `order ${id} synced`);

/** The customer confirms the change, as the confirmation does: the account's email, the link spent with the old address, the outbox row. */
async function confirmChange(oldEmail: string, newEmail: string): Promise<void> {
  const [user] = await tdb.db.insert(tables.users).values({ email: oldEmail, firstName: 'Robin' }).returning({ id: tables.users.id });
  await tdb.db.transaction(async (tx) => {
    const link = await insertEmailChange(tx, { userId: user!.id, email: newEmail, expiresAt: new Date(Date.now() + 60_000) });
    await applyEmailChange(tx, link.id, user!.id, newEmail, oldEmail);
    await recordOutbox(tx, 'customer.email-changed', { tokenId: link.id });
  });
}

describe('a confirmed email change in NetSuite', () => {
  it('the customer record gets the new address and its external id; the next order lands on the same customer', async () => {
    const oldEmail = `before-${Date.now()}@example.com`;
    const newEmail = `after-${Date.now()}@example.com`;
    const first = await placeOrder(tdb.db, { items: [sampleLine()], customerEmail: oldEmail });
    await synced(first);
    const customer = stub.find('customer', netsuiteExternalIds.customer(oldEmail))!;
    expect(customer.body.email).toBe(oldEmail);

    await confirmChange(oldEmail, newEmail);
    const moved = await waitFor(() => stub.find('customer', netsuiteExternalIds.customer(newEmail)) ?? null, 20_000, 'customer re-keyed');
    expect(moved.id).toBe(customer.id);
    expect(moved.body.email).toBe(newEmail);
    expect(stub.find('customer', netsuiteExternalIds.customer(oldEmail))).toBeUndefined();

    const next = await placeOrder(tdb.db, { items: [sampleLine()], customerEmail: newEmail });
    await synced(next);
    expect(stub.find('salesOrder', netsuiteExternalIds.salesOrder(next))!.body.entity).toEqual({ id: customer.id });
    expect([...stub.records.values()].filter((r) => r.type === 'customer' && [oldEmail, newEmail].includes(r.body.email as string))).toHaveLength(1);
  });

  it('a customer NetSuite never had: nothing is made', async () => {
    const oldEmail = `never-${Date.now()}@example.com`;
    const newEmail = `never-new-${Date.now()}@example.com`;
    const customersBefore = [...stub.records.values()].filter((r) => r.type === 'customer').length;
    await confirmChange(oldEmail, newEmail);
    await waitFor(() => stub.requests.some((r) => r.method === 'PATCH' && r.path.includes(netsuiteExternalIds.customer(oldEmail))) || null, 20_000, 'the patch tried');
    await sleep(500);
    expect([...stub.records.values()].filter((r) => r.type === 'customer')).toHaveLength(customersBefore);
  });
});
