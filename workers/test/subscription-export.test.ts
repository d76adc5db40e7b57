/**
 * The subscriptions CSV export (issue 21), end to end: started through the admin API, written by the
 * exports worker with its progress, served by the API. Columns in words (status, cadence), every cell
 * neutralised against formulas, the status filter, and a history of its own (not the orders').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import type { LineItem } from '@nh/server/db/schema';
import { parseCsv } from '@nh/server/testing/csv';
import { toCents } from '@nh/shared/money';
import { exportHistorySchema, exportStartedSchema } from '@nh/shared/contracts/exports';
import { SUBSCRIPTION_EXPORT_HEADERS, subscriptionExportHistorySchema, subscriptionExportStatusSchema } from '@nh/shared/contracts/subscription-export';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs, type StaffClient } from '../../api/test/support/staff';
import type { WorkerRuntime } from '../src/runtime';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let api: TestApi;
let runtime: WorkerRuntime;
let staff: StaffClient;

const post = (p: string, body: Record<string, unknown> = {}) => staff.request(p, { method: 'POST', body: { storeCode: 'NH', ...body } });
const line = (productName: string, quantity: number): LineItem => ({ productId: 1, productName, variantSku: null, sku: null, itemNumber: null, quantity, price: '20.00' });

async function exportOf(body: Record<string, unknown> = {}) {
  const res = await post('/api/admin/subscriptions/export', body);
  expect(res.status).toBe(202);
  const { exportId } = exportStartedSchema.parse(await res.json());
  const done = await waitFor(
    async () => {
      const s = subscriptionExportStatusSchema.parse(await (await post(`/api/admin/subscriptions/export/${exportId}/status`)).json());
      return s.status === 'completed' || s.status === 'failed' ? s : null;
    },
    20_000,
    `export ${exportId}`,
  );
  expect(done.status).toBe('completed');
  const download = await post(`/api/admin/subscriptions/export/${exportId}/download`);
  expect(download.status).toBe(200);
  return { done, download, rows: parseCsv(await download.text()) };
}

let hostile: string;
let cancelled: string;
let everyTwo: string;

beforeAll(async () => {
  tdb = await createTestDatabase('subexport');
  const config = testWorkerConfig(tdb.url, 'subexport', { WORKER_QUEUES: 'exports', EXPORT_PROGRESS_EVERY: '1' });
  runtime = await startTestWorkers(config);
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX, EXPORTS_DIR: config.EXPORTS_DIR });
  staff = await signInAs(api, 'manager');
  const plan = async (values: Partial<typeof tables.subscriptions.$inferInsert>) =>
    (
      await tdb.db
        .insert(tables.subscriptions)
        .values({
          customerName: 'Pat Plain',
          customerEmail: 'pat@example.com',
          items: [line('Surface Spray', 2), line('Dish Pods', 1)],
          amount: toCents('36.72'),
          nextBillingDate: new Date('2027-02-03T10:26:00Z'),
          createdAt: new Date('2026-11-01T09:00:00Z'),
          ...values,
        })
        .returning({ id: tables.subscriptions.id })
    )[0]!.id;
  hostile = await plan({ customerName: '=HYPERLINK("http://evil.example","click")', customerEmail: '@evil@example.com', items: [line('+Spray', 1)] });
  cancelled = await plan({ status: 'cancelled', cancelledAt: new Date('2026-12-24T18:30:05Z') });
  everyTwo = await plan({ intervalCount: 2, status: 'paused' });
  // Consent on record (issue 22): its time, terms version and agreed price are columns of the plan's row.
  await tdb.db.insert(tables.subscriptionConsents).values({
    subscriptionId: everyTwo,
    termsVersion: '=sns-terms-test',
    termsText: 'Subscribe & Save 15%',
    amountCents: 3672,
    interval: 'monthly',
    intervalCount: 2,
    agreedAt: new Date('2026-11-01T08:59:58Z'),
    shippingAddress: null,
  });
  await tdb.db.insert(tables.subscriptionSkippedPeriods).values([
    { subscriptionId: everyTwo, billingPeriod: '2027-01-03', reason: 'shopper-skip' },
    { subscriptionId: everyTwo, billingPeriod: '2026-11-03', reason: 'staff-skip' },
  ]);
});
afterAll(async () => {
  await api?.close();
  await runtime?.close(1000);
  await tdb?.drop();
});

describe('CSV export of subscriptions', () => {
  it('writes every plan with its columns in words, every hostile cell neutralised, with progress and the file name', async () => {
    const { done, download, rows } = await exportOf();
    const today = new Date().toISOString().slice(0, 10);
    expect(done).toMatchObject({ rowsDone: 3, rowsTotal: 3, fileName: `nh-subscriptions-${today}.csv`, filters: { status: null } });
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="nh-subscriptions-${today}.csv"`);
    expect(rows[0]).toEqual([...SUBSCRIPTION_EXPORT_HEADERS]);
    expect(rows).toHaveLength(4);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byId.get(cancelled)).toEqual([
      cancelled,
      'Cancelled',
      'Every month',
      '2027-02-03',
      '2 x Surface Spray; 1 x Dish Pods',
      '36.72',
      'Pat Plain',
      'pat@example.com',
      '2026-11-01 09:00:00',
      '2026-12-24 18:30:05',
      '',
      '',
      '',
      '',
    ]);
    const two = byId.get(everyTwo)!;
    expect(two.slice(1, 3)).toEqual(['Paused', 'Every 2 months']);
    expect(two[10]).toBe('2026-11-03; 2027-01-03');
    // The consent's time (UTC), terms version (neutralised like every cell) and agreed price per delivery.
    expect(two.slice(11)).toEqual(['2026-11-01 08:59:58', `'=sns-terms-test`, '36.72']);
    const evil = byId.get(hostile)!;
    expect(evil[1]).toBe('Active');
    expect(evil[4]).toBe(`1 x +Spray`);
    expect(evil[6]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(evil[7]).toBe(`'@evil@example.com`);
  });

  it('narrows to one status, and keeps a history of its own (not the orders\')', async () => {
    const { done, rows } = await exportOf({ status: 'paused' });
    expect(done.filters).toEqual({ status: 'paused' });
    expect(rows.slice(1).map((r) => r[0])).toEqual([everyTwo]);
    const history = subscriptionExportHistorySchema.parse(await (await post('/api/admin/subscriptions/export/history')).json());
    expect(history.exports.map((e) => e.exportId)).toContain(done.exportId);
    const orders = exportHistorySchema.parse(await (await post('/api/admin/orders/export/history')).json());
    expect(orders.exports.map((e) => e.exportId)).not.toContain(done.exportId);
    // Not found as an order export either.
    expect((await post(`/api/admin/orders/export/${done.exportId}/status`)).status).toBe(404);
  });
});
