import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { failedSyncListSchema, orderSyncAttemptsSchema, syncSummarySchema } from '@nh/shared/contracts/admin-sync';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

// A store code of its own: other test files write NH orders into the same database.
const STORE = 'TSYNC';
let api: TestApi;
/** A signed-in staff member whose role may use every route of this file. */
let staff: StaffClient;

async function order(status: string, createdAt = new Date()): Promise<string> {
  const [row] = await api.ctx.db
    .insert(tables.orders)
    .values({
      storeCode: STORE,
      customerEmail: 'sync@example.com',
      customerName: 'Sync Tester',
      shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
      items: [{ productId: 1, productName: 'Flush', variantSku: null, sku: 'NH-FLU-24', itemNumber: 'NH1001', quantity: 1, price: '12.99' }],
      subtotal: 1299,
      shipping: 999,
      tax: 104,
      total: 2402,
      netsuiteSyncStatus: status,
      createdAt,
    })
    .returning({ id: tables.orders.id });
  return row!.id;
}

const post = (path: string, body: Record<string, unknown> = {}) => staff.request(path, { method: 'POST', body: { storeCode: STORE, ...body } });
const outboxFor = (orderId: string) =>
  api.ctx.db.select().from(tables.outbox).where(and(eq(tables.outbox.topic, 'order.sync-requested'), sql`${tables.outbox.payload}->>'orderId' = ${orderId}`));

let failedId: string;
let oldestPending: Date;

beforeAll(async () => {
  api = await startTestApi();
  staff = await signInAs(api, 'manager');
  oldestPending = new Date('2026-01-02T03:04:05.000Z');
  await order('pending', oldestPending);
  await order('pending');
  await order('synced');
  await order('not_configured');
  failedId = await order('failed');
  await api.ctx.db.insert(tables.failedSyncOrders).values({ orderId: failedId, payload: { data: { orderId: failedId } }, errorMessage: 'NetSuite 400 USER_ERROR: Invalid item reference key.', attempts: 3, lastAttemptAt: new Date() });
  // Its ledger: a timeout, a 503, then the sales order refused (the customer went through).
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
  await api.ctx.db.insert(tables.netsuiteSyncAttempts).values([
    { orderId: failedId, at: at(30), record: 'customer', outcome: 'failed', httpStatus: null, errorCode: null, errorDetail: 'timed out after 15000 ms', durationMs: 15_002 },
    { orderId: failedId, at: at(20), record: 'customer', outcome: 'failed', httpStatus: 503, errorCode: 'UNEXPECTED_ERROR', errorDetail: 'An unexpected error occurred.', durationMs: 41 },
    { orderId: failedId, at: at(10), record: 'customer', outcome: 'ok', httpStatus: 204, durationMs: 35 },
    { orderId: failedId, at: at(9), record: 'salesOrder', outcome: 'failed', httpStatus: 400, errorCode: 'USER_ERROR', errorDetail: 'Invalid item reference key.', durationMs: 52 },
  ]);
});
afterAll(() => api.close());

describe('admin sync API', () => {
  it('refuses a call without a staff session', async () => {
    const res = await api.request('/api/admin/sync/summary', { method: 'POST', body: { storeCode: STORE } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Please sign in to the back office.', code: 'STAFF_SIGN_IN_REQUIRED' });
    expect((await api.request('/api/admin/sync/failed', { method: 'POST', body: {} })).status).toBe(401);
  });

  it('summarises sync status by count, with the oldest pending order and the queue', async () => {
    const res = await post('/api/admin/sync/summary');
    expect(res.status).toBe(200);
    const body = syncSummarySchema.parse(await res.json());
    expect(body).toMatchObject({ storeCode: STORE, counts: { pending: 2, synced: 1, failed: 1, not_configured: 1 }, failedSyncRows: 1, oldestPendingAt: oldestPending.toISOString() });
    expect(body.queue).toMatchObject({ waiting: expect.any(Number), failed: expect.any(Number) });
  });

  it('lists failed syncs with their error and attempts, and the ledger\'s last error code and attempt count', async () => {
    const res = await post('/api/admin/sync/failed');
    expect(res.status).toBe(200);
    const { failed } = failedSyncListSchema.parse(await res.json());
    expect(failed).toEqual([
      expect.objectContaining({
        orderId: failedId,
        total: '24.02',
        attempts: 3,
        errorMessage: 'NetSuite 400 USER_ERROR: Invalid item reference key.',
        netsuiteSyncStatus: 'failed',
        lastErrorCode: 'USER_ERROR',
        lastHttpStatus: 400,
        ledgerAttempts: 3,
      }),
    ]);
  });

  it('shows an order\'s NetSuite ledger, newest first, to every role that may view orders', async () => {
    for (const role of ['support', 'fulfilment', 'manager'] as const) {
      const client = role === 'manager' ? staff : await signInAs(api, role);
      const res = await client.request(`/api/admin/sync/orders/${failedId}/attempts`, { method: 'POST', body: { storeCode: STORE } });
      expect(res.status, role).toBe(200);
      const body = orderSyncAttemptsSchema.parse(await res.json());
      expect(body).toMatchObject({ orderId: failedId, netsuiteSyncStatus: 'failed', netsuiteOrderId: null, netsuiteSyncedAt: null });
      expect(body.attempts.map(({ record, outcome, httpStatus, errorCode, errorDetail, durationMs }) => ({ record, outcome, httpStatus, errorCode, errorDetail, durationMs }))).toEqual([
        { record: 'salesOrder', outcome: 'failed', httpStatus: 400, errorCode: 'USER_ERROR', errorDetail: 'Invalid item reference key.', durationMs: 52 },
        { record: 'customer', outcome: 'ok', httpStatus: 204, errorCode: null, errorDetail: null, durationMs: 35 },
        { record: 'customer', outcome: 'failed', httpStatus: 503, errorCode: 'UNEXPECTED_ERROR', errorDetail: 'An unexpected error occurred.', durationMs: 41 },
        { record: 'customer', outcome: 'failed', httpStatus: null, errorCode: null, errorDetail: 'timed out after 15000 ms', durationMs: 15_002 },
      ]);
      expect(Date.parse(body.attempts[0]!.at)).toBeGreaterThan(Date.parse(body.attempts[1]!.at));
    }
    // An order without attempts: an empty ledger. Another store's order, an unknown or malformed id: 404.
    const quiet = await order('pending');
    expect(orderSyncAttemptsSchema.parse(await (await post(`/api/admin/sync/orders/${quiet}/attempts`)).json()).attempts).toEqual([]);
    expect((await post(`/api/admin/sync/orders/${failedId}/attempts`, { storeCode: 'OTHER' })).status).toBe(404);
    expect((await post('/api/admin/sync/orders/00000000-0000-4000-8000-000000000000/attempts')).status).toBe(404);
    expect(await (await post('/api/admin/sync/orders/nope/attempts')).json()).toEqual({ message: 'Order not found', code: 'NOT_FOUND' });
    expect((await api.request(`/api/admin/sync/orders/${failedId}/attempts`, { method: 'POST', body: { storeCode: STORE } })).status).toBe(401);
  });

  it('retries one order: back to pending with a sync request in the outbox', async () => {
    const res = await post(`/api/admin/sync/orders/${failedId}/retry`);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ orderId: failedId, netsuiteSyncStatus: 'pending' });
    const [row] = await api.ctx.db.select().from(tables.orders).where(eq(tables.orders.id, failedId));
    expect(row).toMatchObject({ netsuiteSyncStatus: 'pending', netsuiteSyncError: null });
    expect(await outboxFor(failedId)).toHaveLength(1);
  });

  it('answers 404 for an unknown or malformed order id and 409 for a synced order', async () => {
    expect((await post('/api/admin/sync/orders/00000000-0000-4000-8000-000000000000/retry')).status).toBe(404);
    const bad = await post('/api/admin/sync/orders/not-a-uuid/retry');
    expect(bad.status).toBe(404);
    expect(await bad.json()).toEqual({ message: 'Order not found', code: 'NOT_FOUND' });
    const synced = await order('synced');
    const res = await post(`/api/admin/sync/orders/${synced}/retry`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'This order is already synced to NetSuite.', code: 'ALREADY_SYNCED' });
  });

  it('retries every failed order of the store', async () => {
    const a = await order('failed');
    const b = await order('failed');
    const res = await post('/api/admin/sync/retry-failed');
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ retried: 2 });
    for (const id of [a, b]) expect(await outboxFor(id)).toHaveLength(1);
    expect(await (await post('/api/admin/sync/retry-failed')).json()).toEqual({ retried: 0 });
  });

  it('rejects a store code that is too long with a clear 400', async () => {
    const res = await post('/api/admin/sync/summary', { storeCode: 'WAY-TOO-LONG-CODE' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'Please enter a valid store code.' });
  });
});
