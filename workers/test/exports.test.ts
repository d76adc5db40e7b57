import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { tables } from '@nh/server';
import { exportStartedSchema, exportStatusSchema } from '@nh/shared/contracts/exports';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs, type StaffClient } from '../../api/test/support/staff';
import { exportFailureMessage, writeOrdersCsv } from '../src/exports/processor';
import { neutraliseCell } from '../src/exports/columns';
import { parseCsv } from './support/csv';
import { createTestDatabase, placeOrder, sampleLine, startTestWorkers, tempDir, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerRuntime } from '../src/runtime';
import type { WorkerConfig } from '../src/config';

let tdb: TestDatabase;
let api: TestApi;
let config: WorkerConfig;
let runtime: WorkerRuntime;
let staff: StaffClient;

const post = (p: string, body: Record<string, unknown> = {}) => staff.request(p, { method: 'POST', body: { storeCode: 'NH', ...body } });
const status = async (exportId: string) => exportStatusSchema.parse(await (await post(`/api/admin/orders/export/${exportId}/status`)).json());

let formulaOrder: string;

beforeAll(async () => {
  tdb = await createTestDatabase('export');
  config = testWorkerConfig(tdb.url, 'export', { WORKER_QUEUES: 'exports', EXPORT_PROGRESS_EVERY: '2' });
  runtime = await startTestWorkers(config);
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX });
  staff = await signInAs(api, 'manager');
  await placeOrder(tdb.db, { customerName: 'Alice Plain', customerEmail: 'alice@example.com', items: [sampleLine({ quantity: 2, productName: 'Flush' }), sampleLine({ quantity: 1, productName: 'Dish Pods, Lemon' })] });
  formulaOrder = await placeOrder(tdb.db, {
    customerName: '=HYPERLINK("http://evil.example","click")',
    customerEmail: '@evil@example.com',
    customerPhone: '+1 555 0100',
    promoCode: '-PROMO',
    carrier: 'UPS',
    trackingNumber: '\t1Z999',
  });
  await placeOrder(tdb.db, { customerName: 'Carol "Quotes" Smith', customerPhone: null });
  await placeOrder(tdb.db, { customerName: 'Dan', storeCode: 'OTHER' });
  await tdb.db.update(tables.orders).set({ status: 'shipped', netsuiteSyncStatus: 'synced' }).where(eq(tables.orders.id, formulaOrder));
});
afterAll(async () => {
  await api?.close();
  await runtime?.close(1000);
  await tdb?.drop();
});

describe('CSV export of orders', () => {
  it('exports every order of the store through the worker, and the API serves the file', async () => {
    const started = await post('/api/admin/orders/export');
    expect(started.status).toBe(202);
    const { exportId } = exportStartedSchema.parse(await started.json());
    const done = await waitFor(async () => {
      const s = await status(exportId);
      return s.status === 'completed' || s.status === 'failed' ? s : null;
    }, 15_000, 'export');
    expect(done).toMatchObject({ status: 'completed', rowsDone: 3, rowsTotal: 3, error: null });
    const today = new Date().toISOString().slice(0, 10);
    expect(done.fileName).toBe(`nh-orders-${today}.csv`);

    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="nh-orders-${today}.csv"`);
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual([
      'Order ID', 'Date (UTC)', 'Customer Name', 'Email', 'Phone', 'Status', 'Items', 'Subtotal', 'Discount', 'Shipping', 'Tax', 'Total',
      'Promo Code', 'Carrier', 'Tracking Number', 'NetSuite Sync Status',
    ]);
    expect(rows).toHaveLength(4);
    const alice = rows.find((r) => r[2] === 'Alice Plain')!;
    expect(alice[6]).toBe('2 x Flush; 1 x Dish Pods, Lemon');
    expect(alice.slice(7, 12)).toEqual(['38.97', '0.00', '9.99', '3.12', '52.08']);
    expect(alice[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(alice[15]).toBe('pending');
    const evil = rows.find((r) => r[0] === formulaOrder)!;
    expect(evil[2]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(evil[3]).toBe(`'@evil@example.com`);
    expect(evil[4]).toBe(`'+1 555 0100`);
    expect(evil[5]).toBe('shipped');
    expect(evil[12]).toBe(`'-PROMO`);
    expect(evil[13]).toBe('UPS');
    expect(evil[14]).toBe(`'\t1Z999`);
    expect(evil[15]).toBe('synced');
    expect(rows.find((r) => r[2] === 'Carol "Quotes" Smith')![4]).toBe('');
    expect(rows.some((r) => r[2] === 'Dan')).toBe(false);
    // Finished files only: no temporary file is left next to it.
    expect(fs.readdirSync(config.EXPORTS_DIR)).toEqual([`${exportId}.csv`]);
  });

  it('writes progress every N rows while streaming', async () => {
    const file = path.join(tempDir('export-progress'), 'out.csv');
    const seen: number[] = [];
    const rows = await writeOrdersCsv(tdb.db, 'NH', fs.createWriteStream(file), 1, (n) => seen.push(n));
    expect(rows).toBe(3);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('neutralises every formula-leading character', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(neutraliseCell(`${lead}x`)).toBe(`'${lead}x`);
    expect(neutraliseCell('12.99')).toBe('12.99');
    expect(neutraliseCell(null)).toBe('');
  });

  it('tells staff what failed in words and a code, never a database error\'s own message (it carries the query and its values)', async () => {
    const dbError = await tdb.db.$client.query(`select $1::int as n`, ['secret-value@example.com']).then(
      () => null,
      (error: unknown) => error,
    );
    const message = exportFailureMessage(dbError);
    expect(message).toBe('The orders could not be read from the database (error 22P02). Please try again; if it fails again, an operator can find the details in the worker log.');
    expect(message).not.toContain('secret-value');
    expect(exportFailureMessage(new Error('boom'))).toBe('The export failed. Please try again; if it fails again, an operator can find the details in the worker log.');
  });

  it('a failed export reports its error and serves no file', async () => {
    await runtime.close(1000);
    const blocker = path.join(tempDir('export-fail'), 'not-a-dir');
    fs.writeFileSync(blocker, 'x');
    runtime = await startTestWorkers({ ...config, EXPORTS_DIR: path.join(blocker, 'exports') });
    const { exportId } = exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json());
    const failed = await waitFor(async () => {
      const s = await status(exportId);
      return s.status === 'failed' ? s : null;
    }, 15_000, 'failed export');
    expect(failed.error).toMatch(/^The export file could not be written \((ENOTDIR|EEXIST)\)\. Please try again/);
    expect(failed.fileName).toBeNull();
    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: 'Export failed', error: failed.error });
  });
});
