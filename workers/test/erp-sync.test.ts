// netsuite-rest ships no types; ours are beside the client.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../src/erp-sync/netsuite/netsuite-rest.d.ts" />
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import NetsuiteRest from 'netsuite-rest';
import { desc, eq, inArray } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import type { SyncAttemptEntry } from '@nh/server/queries/sync';
import { NetSuiteClient, NetSuiteError, netsuiteExternalIds} from '../src/erp-sync/netsuite/client';
import { SALES_TAX_ITEM } from '../src/erp-sync/order-mapping';
import { recordOutbox } from '@nh/server/queries/outbox';
import { OAuthSigner } from '../src/erp-sync/netsuite/oauth';
import { jitteredDelay } from '../src/erp-sync/backoff';
import { netsuiteConcurrencyInUse, netsuiteRequests } from '@nh/server/observability/metrics';
import { createHousekeepingProcessor } from '../src/maintenance/housekeeping';
import { startNetSuiteStub, type NetSuiteStub } from './support/netsuite-stub';
import { createTestDatabase, placeOrder, sampleLine, startTestWorkers, tempDir, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import { localFileStorage } from '@nh/server/storage';
import type { WorkerRuntime } from '../src/runtime';
import type { Job } from 'bullmq';

let tdb: TestDatabase;
let stub: NetSuiteStub;
let runtime: WorkerRuntime;

const orderRow = async (id: string) => (await tdb.db.select().from(tables.orders).where(eq(tables.orders.id, id)))[0]!;
const failedRow = async (id: string) => (await tdb.db.select().from(tables.failedSyncOrders).where(eq(tables.failedSyncOrders.orderId, id)))[0];
/** The order's NetSuite ledger, newest first. */
const ledgerOf = (id: string) =>
  tdb.db.select().from(tables.netsuiteSyncAttempts).where(eq(tables.netsuiteSyncAttempts.orderId, id)).orderBy(desc(tables.netsuiteSyncAttempts.at), desc(tables.netsuiteSyncAttempts.id));
const settled = (id: string) => waitFor(async () => {
  const row = await orderRow(id);
  return row.netsuiteSyncStatus !== 'pending' ? row : null;
}, 20_000, `order ${id} to leave pending`);

beforeAll(async () => {
  tdb = await createTestDatabase('sync');
  stub = await startNetSuiteStub();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'sync', { ...stub.env(), ERP_SYNC_ATTEMPTS: '4', WORKER_QUEUES: 'erp-sync' }));
});
afterAll(async () => {
  await runtime?.close(2000);
  await stub?.close();
  await tdb?.drop();
});

describe('NetSuite client against the REST stub', () => {
  it('signs exactly as netsuite-rest (oauth-1.0a) does for the same nonce and timestamp', () => {
    const config = { ...stub.config(), accountId: 'TSTDRV_1 SB', consumerKey: 'ck!*()', consumerSecret: 'cs&=+', tokenId: 'tk/é', tokenSecret: "ts'%" };
    const reference = new NetsuiteRest({ consumer_key: config.consumerKey, consumer_secret_key: config.consumerSecret, token: config.tokenId, token_secret: config.tokenSecret, realm: config.accountId });
    vi.useFakeTimers({ now: 1_700_000_000_123, toFake: ['Date'] });
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      const signer = new OAuthSigner(config);
      const nonce = 'F'.repeat(32); // oauth-1.0a's nonce with Math.random() = 0.5
      for (const [method, url] of [['PUT', 'https://x.suitetalk.api.netsuite.com/services/rest/record/v1/customer/eid:NH-CUST-1'], ['get', 'http://127.0.0.1:8080/services/rest/record/v1/salesOrder?q=a b&limit=5&fields=id,tranDate']] as const) {
        expect(signer.authorization(method, url, nonce, 1_700_000_000)).toBe(reference.getAuthorizationHeader({ url, method }).Authorization);
      }
    } finally {
      random.mockRestore();
      vi.useRealTimers();
    }
  });

  it('signs every request afresh (OAuth 1.0a HMAC-SHA256) and upserts by external id', async () => {
    const client = new NetSuiteClient(stub.config());
    const first = await client.upsertCustomer({ email: 'Ann@Example.com', name: 'Ann Lee', phone: '555' });
    const again = await client.upsertCustomer({ email: 'ann@example.com ', name: 'Ann B. Lee' });
    expect(again).toBe(first);
    expect(stub.find('customer', netsuiteExternalIds.customer('ann@example.com'))?.body).toMatchObject({ firstName: 'Ann B.', lastName: 'Lee' });
  });

  it('keeps its connections alive, and sends again (signed afresh) when the server closed a kept-alive one', async () => {
    const client = new NetSuiteClient(stub.config());
    const before = stub.connections;
    for (let i = 0; i < 5; i++) await client.upsertCustomer({ email: `keep${i}@example.com`, name: 'Keep Alive' });
    expect(stub.connections - before).toBe(1);
    client.close();

    // A server that drops every kept-alive connection as the next request arrives on it.
    const seen: string[] = [];
    const server = net.createServer((socket) => {
      let served = false;
      socket.on('data', (data) => {
        seen.push(/oauth_nonce="([^"]+)"/.exec(data.toString())?.[1] ?? '');
        if (served) return void socket.destroy();
        served = true;
        socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\nLocation: http://x/services/rest/record/v1/customer/77\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const flaky = new NetSuiteClient(stub.config({ baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` }));
    try {
      expect(await flaky.upsertCustomer({ email: 'a@example.com', name: 'A' })).toBe('77');
      expect(await flaky.upsertCustomer({ email: 'b@example.com', name: 'B' })).toBe('77');
      expect(seen).toHaveLength(3);
      expect(new Set(seen).size).toBe(3);
    } finally {
      flaky.close();
      server.close();
    }
  });

  it('sends the item lines of sales orders and credit memos whole (?replace=item): an upsert repeated keeps the lines sent, where NetSuite would add copies', async () => {
    const client = new NetSuiteClient(stub.config());
    const before = stub.requests.length;
    const customerInternalId = await client.upsertCustomer({ email: 'lines@example.com', name: 'Line Checker' });
    const orderId = randomUUID();
    const order = {
      orderId,
      customerInternalId,
      email: 'lines@example.com',
      tranDate: '2025-03-04',
      lines: [{ itemRef: 'NH-FLU-24', description: 'Flush', quantity: 2, rate: '12.99' }],
      shippingCost: '9.99',
      discount: '0.00',
      tax: '2.08',
      total: '38.05',
    };
    const itemLines = (type: string, externalId: string) => (stub.find(type, externalId)!.body.item as { items: Array<Record<string, unknown>> }).items;

    // The first upsert creates the sales order with its lines; sent again to close it, it has only the closed lines.
    const soId = await client.upsertSalesOrder(order);
    expect(itemLines('salesOrder', netsuiteExternalIds.salesOrder(orderId))).toEqual([{ item: { externalId: 'NH-FLU-24' }, description: 'Flush', quantity: 2, rate: 12.99, isTaxable: false }]);
    expect(await client.upsertSalesOrder({ ...order, closed: 'voided' })).toBe(soId);
    expect(itemLines('salesOrder', netsuiteExternalIds.salesOrder(orderId))).toEqual([expect.objectContaining({ quantity: 2, isClosed: true })]);

    // A credit memo written twice (an answer lost, the sync run again) credits its amount once.
    const refundId = randomUUID();
    const memo = { refundId, orderId, customerInternalId, email: 'lines@example.com', tranDate: '2025-03-05', amount: '20.00', itemRef: 'NH-REFUND', reason: null };
    const memoId = await client.upsertCreditMemo(memo);
    expect(await client.upsertCreditMemo(memo)).toBe(memoId);
    expect(itemLines('creditMemo', netsuiteExternalIds.creditMemo(refundId))).toEqual([expect.objectContaining({ quantity: 1, rate: 20, amount: 20 })]);

    // Every transaction's upsert named its item sublist; the customer's (no lines) names none.
    const puts = stub.requests.slice(before).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => `${r.path.split('/')[5]?.split('?')[0]} ${r.path.split('?')[1] ?? '(whole record)'}`)).toEqual([
      'customer (whole record)',
      'salesOrder replace=item',
      'salesOrder replace=item',
      'creditMemo replace=item',
      'creditMemo replace=item',
    ]);

    // The stub as NetSuite: an update that does not name the sublist adds its lines to the ones there.
    const eid = netsuiteExternalIds.creditMemo(refundId);
    const { body } = stub.find('creditMemo', eid)!;
    await client.upsert('creditMemo', eid, { entity: body.entity, item: { items: [{ item: { externalId: 'NH-REFUND' }, quantity: 1, rate: 20, amount: 20 }] } });
    expect(itemLines('creditMemo', eid)).toHaveLength(2);
  });

  it('reads the internal id back with GET eid:… when the upsert answers without Location', async () => {
    stub.locationOnUpsert = false;
    try {
      const client = new NetSuiteClient(stub.config());
      const ledger: SyncAttemptEntry[] = [];
      const id = await client.upsertCustomer({ email: 'noloc@example.com', name: 'No Location' }, ledger);
      expect(id).toBe(stub.find('customer', netsuiteExternalIds.customer('noloc@example.com'))!.id);
      expect(stub.requests.some((r) => r.method === 'GET' && r.path.includes('eid:'))).toBe(true);
      // Both requests are in the ledger: the upsert (204) and the read of the internal id (200).
      expect(ledger.map((e) => [e.record, e.outcome, e.httpStatus])).toEqual([['customer', 'ok', 204], ['customer', 'ok', 200]]);
    } finally {
      stub.locationOnUpsert = true;
    }
  });

  it('is refused with 401 INVALID_LOGIN for a wrong secret, and a replayed nonce is refused', async () => {
    const wrong = new NetSuiteClient(stub.config({ tokenSecret: 'not-the-secret' }));
    const error = await wrong.upsertCustomer({ email: 'x@example.com', name: 'X' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetSuiteError);
    expect(error).toMatchObject({ status: 401, code: 'INVALID_LOGIN', kind: 'retryable' });

    const client = new NetSuiteClient(stub.config());
    const url = `${stub.url}/services/rest/record/v1/customer/eid:replay-1`;
    const headers = { authorization: client.signer.authorization('GET', url) };
    expect((await fetch(url, { headers })).status).toBe(404); // signature accepted; no such record
    const replay = await fetch(url, { headers });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ 'o:errorDetails': [{ 'o:errorCode': 'INVALID_LOGIN' }] });
  });

  it('parses the o:errorDetails shape and classifies validation errors as permanent', async () => {
    stub.failValidation('Invalid value for the field subsidiary.');
    try {
      const error = await new NetSuiteClient(stub.config()).upsertCustomer({ email: 'v@example.com', name: 'V' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'permanent', status: 400, code: 'USER_ERROR', message: 'NetSuite 400 USER_ERROR: Invalid value for the field subsidiary.' });
    } finally {
      stub.failValidation(null);
    }
  });

  it('times out a request that takes too long, as a retryable error (the ledger entry: no status, the reason as detail)', async () => {
    stub.delayMs = 500;
    try {
      const ledger: SyncAttemptEntry[] = [];
      const error = await new NetSuiteClient(stub.config({ timeoutMs: 100 })).upsertCustomer({ email: 't@example.com', name: 'T' }, ledger).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'retryable' });
      expect((error as Error).message).toContain('timed out after 100 ms');
      expect(ledger).toEqual([{ at: expect.any(Number), record: 'customer', outcome: 'failed', httpStatus: null, errorCode: null, errorDetail: 'timed out after 100 ms', durationMs: expect.any(Number) }]);
      expect(ledger[0]!.durationMs).toBeGreaterThanOrEqual(90);
    } finally {
      stub.delayMs = 0;
      await new Promise((r) => setTimeout(r, 500));
    }
  });
});

describe('erp-sync', () => {
  it('syncs a placed order: customer and sales order upserted, ids and status on the order', async () => {
    const orderId = await placeOrder(tdb.db, { customerEmail: 'happy@example.com', items: [sampleLine(), sampleLine({ productName: 'Dish Pods', variantSku: null, itemNumber: 'NH1002', sku: 'NH-DSH-30', quantity: 1, price: '14.99' })] });
    const row = await settled(orderId);
    expect(row).toMatchObject({ netsuiteSyncStatus: 'synced', netsuiteSyncError: null });
    expect(row.netsuiteSyncedAt).toBeInstanceOf(Date);
    const so = stub.find('salesOrder', netsuiteExternalIds.salesOrder(orderId))!;
    expect(row.netsuiteOrderId).toBe(so.id);
    expect(row.netsuiteCustomerId).toBe(stub.find('customer', netsuiteExternalIds.customer('happy@example.com'))!.id);
    expect(so.body).toMatchObject({
      entity: { id: row.netsuiteCustomerId },
      otherRefNum: orderId,
      shippingCost: 9.99,
      // Issue 25: no line taxable, the order's tax (8 % of 40.97) on the sales tax item, for the ship-to state and ZIP.
      item: {
        items: [
          { item: { externalId: 'NH-FLU-24' }, quantity: 2, rate: 12.99, isTaxable: false },
          { item: { externalId: 'NH1002' }, quantity: 1, rate: 14.99, isTaxable: false },
          { item: { externalId: SALES_TAX_ITEM }, description: 'Sales tax IL 62701', quantity: 1, rate: 3.28, amount: 3.28, isTaxable: false },
        ],
      },
      taxTotal: 0,
      total: 54.24,
    });
    // The first upsert too names the item sublist (NetSuite creates the record with the lines sent).
    expect(stub.requests.filter((r) => r.method === 'PUT' && r.path.includes(`/salesOrder/eid:${netsuiteExternalIds.salesOrder(orderId)}`)).map((r) => r.path.split('?')[1])).toEqual(['replace=item']);
  });

  it("a multi-line order taxed by destination (issue 25): lines not taxable, the order's tax on one sales tax line for its state and ZIP, NetSuite's total ours", async () => {
    // A starter kit taxed 9.5 % and an exempt refill, shipping to Chicago: the table's tax, stored per line.
    const items = [
      sampleLine({ variantSku: 'NH-KIT-1', quantity: 1, price: '30.00', tax: '2.85' }),
      sampleLine({ productName: 'Refill', variantSku: 'NH-REF-2', quantity: 2, price: '7.50', tax: '0.00' }),
    ];
    const orderId = await placeOrder(tdb.db, { customerEmail: 'taxed@example.com', items, outbox: false });
    await tdb.db
      .update(tables.orders)
      .set({ shippingAddress: { address: '2 State St', city: 'Chicago', state: 'IL', zip: '60601' }, tax: 285, total: 4500 + 999 + 285, taxSource: 'table' })
      .where(eq(tables.orders.id, orderId));
    await recordOutbox(tdb.db, 'order.placed', { orderId });
    await settled(orderId);
    const so = stub.find('salesOrder', netsuiteExternalIds.salesOrder(orderId))!;
    expect(so.body).toMatchObject({
      item: {
        items: [
          { item: { externalId: 'NH-KIT-1' }, quantity: 1, rate: 30, isTaxable: false },
          { item: { externalId: 'NH-REF-2' }, quantity: 2, rate: 7.5, isTaxable: false },
          { item: { externalId: SALES_TAX_ITEM }, description: 'Sales tax IL 60601 (table)', quantity: 1, rate: 2.85, amount: 2.85, isTaxable: false },
        ],
      },
      shippingAddress: { state: 'IL', zip: '60601' },
      taxTotal: 0,
      total: 57.84,
    });
    expect(so.body.memo).toContain('tax 2.85; total 57.84');
  });

  it('retries through NetSuite failures and ends synced with exactly one sales order', async () => {
    stub.failNext(3, 503);
    const orderId = await placeOrder(tdb.db);
    const row = await settled(orderId);
    expect(row.netsuiteSyncStatus).toBe('synced');
    expect(stub.salesOrderCount(netsuiteExternalIds.salesOrder(orderId))).toBe(1);
    expect(await failedRow(orderId)).toBeUndefined();
  });

  it("a returning customer's order costs one request: the customer's NetSuite id is remembered", async () => {
    const email = `returning-${Date.now()}@example.com`;
    const first = await placeOrder(tdb.db, { customerEmail: email });
    await settled(first);
    const before = stub.requests.length;
    const second = await placeOrder(tdb.db, { customerEmail: email });
    const row = await settled(second);
    expect(row.netsuiteSyncStatus).toBe('synced');
    const made = stub.requests.slice(before);
    expect(made.map((r) => `${r.method} ${r.path.split('/')[5]}`)).toEqual(['PUT salesOrder']);
    expect(row.netsuiteCustomerId).toBe((await orderRow(first)).netsuiteCustomerId);
  });

  it('a stale remembered customer id is forgotten and the customer upserted again, in the same attempt', async () => {
    const email = `stale-${Date.now()}@example.com`;
    const key = `${runtime.config.QUEUE_PREFIX}:netsuite:customer:${netsuiteExternalIds.customer(email)}`;
    const redis = createRedis(runtime.config.REDIS_URL);
    await redis.set(key, '999999');
    const orderId = await placeOrder(tdb.db, { customerEmail: email });
    const row = await settled(orderId);
    expect(row.netsuiteSyncStatus).toBe('synced');
    const customer = stub.find('customer', netsuiteExternalIds.customer(email))!;
    expect(row.netsuiteCustomerId).toBe(customer.id);
    expect((await ledgerOf(orderId)).map((e) => [e.record, e.outcome]).reverse()).toEqual([
      ['salesOrder', 'failed'],
      ['customer', 'ok'],
      ['salesOrder', 'ok'],
    ]);
    expect(await redis.get(key)).toBe(customer.id);
    await redis.quit();
  });

  it('counts NetSuite requests by record and outcome in the worker metrics, none left in flight', async () => {
    const count = async (labels: Record<string, string>) =>
      (await netsuiteRequests.get()).values.find((v) => Object.entries(labels).every(([k, want]) => (v.labels as Record<string, string | number>)[k] === want))?.value ?? 0;
    const okBefore = await count({ record: 'salesOrder', outcome: 'ok' });
    const errorsBefore = await count({ record: 'customer', outcome: 'server-error' });
    stub.failNext(1, 503);
    const orderId = await placeOrder(tdb.db, { customerEmail: `metrics-${Date.now()}@example.com` });
    expect((await settled(orderId)).netsuiteSyncStatus).toBe('synced');
    expect(await count({ record: 'salesOrder', outcome: 'ok' })).toBe(okBefore + 1);
    expect(await count({ record: 'customer', outcome: 'server-error' })).toBe(errorsBefore + 1);
    expect((await netsuiteConcurrencyInUse.get()).values[0]?.value ?? 0).toBe(0);
  });

  it('a sync job run twice changes nothing the second time', async () => {
    const orderId = await placeOrder(tdb.db);
    await settled(orderId);
    const before = stub.requests.length;
    await runtime.queues['erp-sync'].add('sync-order', { orderId }, { jobId: `manual-${orderId}` });
    await waitFor(async () => (await runtime.queues['erp-sync'].getJobState(`manual-${orderId}`)) === 'completed', 10_000, 'manual job');
    expect(stub.requests.length).toBe(before);
    expect(stub.salesOrderCount(netsuiteExternalIds.salesOrder(orderId))).toBe(1);
  });

  it('after the last attempt: status failed and a failed-sync row with error and attempts', async () => {
    stub.failNext(100, 502);
    try {
      const orderId = await placeOrder(tdb.db);
      const row = await settled(orderId);
      expect(row.netsuiteSyncStatus).toBe('failed');
      expect(row.netsuiteSyncError).toContain('NetSuite 502 UNEXPECTED_ERROR');
      const failed = await failedRow(orderId);
      expect(failed).toMatchObject({ attempts: 4, errorMessage: row.netsuiteSyncError });
      expect(failed!.lastAttemptAt).toBeInstanceOf(Date);
      expect(failed!.payload).toMatchObject({ data: { orderId } });
    } finally {
      stub.failNext(0);
    }
  });

  it('fails a validation error at once (no retries)', async () => {
    stub.failValidation('Invalid item reference key.');
    try {
      const orderId = await placeOrder(tdb.db);
      const row = await settled(orderId);
      expect(row.netsuiteSyncStatus).toBe('failed');
      expect(row.netsuiteSyncError).toBe('NetSuite 400 USER_ERROR: Invalid item reference key.');
      expect(await failedRow(orderId)).toMatchObject({ attempts: 1 });
    } finally {
      stub.failValidation(null);
    }
  });

  it('fails at once when a line has no item number or sku', async () => {
    const orderId = await placeOrder(tdb.db, { items: [sampleLine({ variantSku: null, itemNumber: null, sku: null, productName: 'Mystery' })] });
    const row = await settled(orderId);
    expect(row.netsuiteSyncStatus).toBe('failed');
    expect(row.netsuiteSyncError).toContain('"Mystery"');
    expect(await failedRow(orderId)).toMatchObject({ attempts: 1 });
  });

  it('429 slows the queue without burning attempts: a burst above the limit all ends synced', async () => {
    stub.concurrencyLimit = 1;
    stub.retryAfterSeconds = 0.2;
    stub.delayMs = 30;
    const rejectedBefore = stub.rejected429;
    try {
      const ids = await Promise.all(Array.from({ length: 12 }, () => placeOrder(tdb.db)));
      for (const id of ids) expect((await settled(id)).netsuiteSyncStatus).toBe('synced');
      expect(stub.rejected429).toBeGreaterThan(0);
      for (const id of ids) expect(await failedRow(id)).toBeUndefined();
      // Every 429 is in the ledger, with NetSuite's code.
      const limited = (await tdb.db.select().from(tables.netsuiteSyncAttempts).where(inArray(tables.netsuiteSyncAttempts.orderId, ids))).filter((r) => r.httpStatus === 429);
      expect(limited).toHaveLength(stub.rejected429 - rejectedBefore);
      for (const row of limited) expect(row).toMatchObject({ outcome: 'failed', errorCode: 'CONCURRENCY_LIMIT_EXCEEDED' });
    } finally {
      stub.concurrencyLimit = 5;
      stub.retryAfterSeconds = 1;
      stub.delayMs = 0;
    }
  });

  it('never runs more syncs at once than ERP_SYNC_CONCURRENCY', async () => {
    stub.delayMs = 40;
    stub.maxInFlight = 0;
    try {
      const ids = await Promise.all(Array.from({ length: 16 }, () => placeOrder(tdb.db)));
      for (const id of ids) await settled(id);
      expect(stub.maxInFlight).toBeLessThanOrEqual(4);
    } finally {
      stub.delayMs = 0;
    }
  });

  it('the reconcile job requests orders pending too long (a job lost with Redis) and they get synced', async () => {
    const lost = await placeOrder(tdb.db, { outbox: false });
    const fresh = await placeOrder(tdb.db, { outbox: false });
    // A checkout that died between its reservation and recording its charge: never sent to NetSuite.
    const stranded = await placeOrder(tdb.db, { outbox: false });
    await tdb.db.update(tables.orders).set({ status: 'pending', paymentTransactionId: null }).where(eq(tables.orders.id, stranded));
    await tdb.db.update(tables.orders).set({ updatedAt: new Date(Date.now() - 3600_000) }).where(inArray(tables.orders.id, [lost, stranded]));
    const job = await runtime.queues['erp-sync'].add('reconcile-sync', {}, { jobId: 'reconcile-now' });
    await waitFor(async () => (await job.getState()) === 'completed', 10_000, 'reconcile');
    expect((await runtime.queues['erp-sync'].getJob('reconcile-now'))?.returnvalue).toEqual({ outcome: 'reconciled', requested: 1 });
    expect((await settled(lost)).netsuiteSyncStatus).toBe('synced');
    expect((await orderRow(fresh)).netsuiteSyncStatus).toBe('pending');
    expect((await orderRow(stranded)).netsuiteSyncStatus).toBe('pending');
    expect(await runtime.queues['erp-sync'].getJobSchedulers()).toEqual([expect.objectContaining({ key: 'erp-sync-reconcile', pattern: '*/10 * * * *' })]);
  });

  it('keeps every request of every attempt in the ledger: a failed attempt (503, NetSuite\'s code and detail) then the one that synced', async () => {
    stub.failNext(1, 503);
    stub.delayMs = 20;
    try {
      const orderId = await placeOrder(tdb.db);
      expect((await settled(orderId)).netsuiteSyncStatus).toBe('synced');
      const ledger = await ledgerOf(orderId);
      expect(ledger.map((r) => ({ record: r.record, outcome: r.outcome, httpStatus: r.httpStatus, errorCode: r.errorCode, errorDetail: r.errorDetail }))).toEqual([
        { record: 'salesOrder', outcome: 'ok', httpStatus: 204, errorCode: null, errorDetail: null },
        { record: 'customer', outcome: 'ok', httpStatus: 204, errorCode: null, errorDetail: null },
        { record: 'customer', outcome: 'failed', httpStatus: 503, errorCode: 'UNEXPECTED_ERROR', errorDetail: 'An unexpected error occurred.' },
      ]);
      // Durations as measured around each request (the stub waits 20 ms before answering).
      for (const row of ledger) expect(row.durationMs).toBeGreaterThanOrEqual(15);
      for (const row of ledger) expect(row.durationMs).toBeLessThan(5000);
      // Times in order: the failed attempt first, then the retry's customer and sales order.
      const [so, cust, failed] = ledger;
      expect(failed!.at.getTime()).toBeLessThanOrEqual(cust!.at.getTime());
      expect(cust!.at.getTime()).toBeLessThanOrEqual(so!.at.getTime());
    } finally {
      stub.delayMs = 0;
      stub.failNext(0);
    }
  });

  it('the ledger of a failed order: each attempt\'s failed request (validation: 400 USER_ERROR, at once; 502 four times)', async () => {
    stub.failValidation('Invalid item reference key.');
    try {
      const orderId = await placeOrder(tdb.db);
      expect((await settled(orderId)).netsuiteSyncStatus).toBe('failed');
      expect(await ledgerOf(orderId)).toEqual([
        expect.objectContaining({ record: 'customer', outcome: 'failed', httpStatus: 400, errorCode: 'USER_ERROR', errorDetail: 'Invalid item reference key.' }),
      ]);
    } finally {
      stub.failValidation(null);
    }
    stub.failNext(100, 502);
    try {
      const orderId = await placeOrder(tdb.db);
      expect((await settled(orderId)).netsuiteSyncStatus).toBe('failed');
      const ledger = await ledgerOf(orderId);
      // ERP_SYNC_ATTEMPTS = 4: four attempts, each stopped at its customer upsert.
      expect(ledger).toHaveLength(4);
      for (const row of ledger) expect(row).toMatchObject({ record: 'customer', outcome: 'failed', httpStatus: 502, errorCode: 'UNEXPECTED_ERROR' });
    } finally {
      stub.failNext(0);
    }
  });

  it('housekeeping deletes ledger rows older than NETSUITE_LEDGER_RETENTION_DAYS and keeps the rest', async () => {
    const orderId = await placeOrder(tdb.db, { outbox: false });
    const day = 86_400_000;
    const row = (daysAgo: number) => ({ orderId, at: new Date(Date.now() - daysAgo * day), record: 'customer', outcome: 'failed', httpStatus: 503, errorCode: 'UNEXPECTED_ERROR', errorDetail: `${daysAgo} days ago`, durationMs: 5 });
    await tdb.db.insert(tables.netsuiteSyncAttempts).values([row(120), row(91), row(89), row(1)]);
    const housekeeping = createHousekeepingProcessor({ db: tdb.db, log: createLogger('hk-test', 'silent'), retentionDays: 7, ledgerRetentionDays: 90, exportFiles: localFileStorage(tempDir('hk-exports')) });
    const result = await housekeeping({ id: 'hk-ledger' } as Job);
    expect(result.ledgerRowsDeleted).toBeGreaterThanOrEqual(2);
    expect((await ledgerOf(orderId)).map((r) => r.errorDetail)).toEqual(['1 days ago', '89 days ago']);
  });

  it('exponential backoff with jitter stays between half and all of the doubled delay', () => {
    expect(jitteredDelay(1, 1000, 60_000, () => 0)).toBe(500);
    expect(jitteredDelay(3, 1000, 60_000, () => 1)).toBe(4000);
    expect(jitteredDelay(20, 1000, 60_000, () => 1)).toBe(60_000);
  });
});

describe('erp-sync without NetSuite configuration', () => {
  it('marks the order not_configured and completes the job', async () => {
    const other = await createTestDatabase('nscfg');
    const rt = await startTestWorkers(testWorkerConfig(other.url, 'nscfg', { WORKER_QUEUES: 'erp-sync' }));
    try {
      const orderId = await placeOrder(other.db);
      const row = await waitFor(async () => {
        const r = (await other.db.select().from(tables.orders).where(eq(tables.orders.id, orderId)))[0]!;
        return r.netsuiteSyncStatus === 'not_configured' ? r : null;
      });
      expect(row.netsuiteSyncError).toBeNull();
      const jobs = await rt.queues['erp-sync'].getJobs(['completed']);
      expect(jobs.map((j) => j.data.orderId)).toContain(orderId);
      expect(await rt.queues['erp-sync'].getJobCounts('failed')).toEqual({ failed: 0 });
    } finally {
      await rt.close(1000);
      await other.drop();
    }
  });
});
