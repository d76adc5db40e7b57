import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { Job } from 'bullmq';
import * as tables from '@nh/server/db/schema';
import { createLogger } from '@nh/server/observability/logger';
import { localFileStorage } from '@nh/server/storage';
import { exportHistorySchema, exportStartedSchema, exportStatusSchema } from '@nh/shared/contracts/exports';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs, type StaffClient } from '../../api/test/support/staff';
import { exportFailureMessage, writeOrdersCsv } from '../src/exports/processor';
import { exportFiltersOf } from '../src/exports/filters';
import { createHousekeepingProcessor } from '../src/maintenance/housekeeping';
import { parseCsv } from '@nh/server/testing/csv';
import {
  createTestDatabase,
  placeOrder,
  sampleLine,
  startTestWorkers,
  tempDir,
  testWorkerConfig,
  waitFor,
  type TestDatabase,
} from './support/setup';
import type { WorkerRuntime } from '../src/runtime';
import type { WorkerConfig } from '../src/lib/config';

let tdb: TestDatabase;
let api: TestApi;
let config: WorkerConfig;
let runtime: WorkerRuntime;
let staff: StaffClient;

const post = (p: string, body: Record<string, unknown> = {}) => staff.request(p, { method: 'POST', body: { storeCode: 'NH', ...body } });
const status = async (exportId: string, storeCode = 'NH') =>
  exportStatusSchema.parse(await (await post(`/api/admin/orders/export/${exportId}/status`, { storeCode })).json());
const finished = (exportId: string, storeCode = 'NH') =>
  waitFor(
    async () => {
      const s = await status(exportId, storeCode);
      return s.status === 'completed' || s.status === 'failed' ? s : null;
    },
    15_000,
    `export ${exportId}`,
  );
/** Starts an export through the API and waits for the worker to finish it. */
async function exportOf(body: Record<string, unknown>) {
  const res = await post('/api/admin/orders/export', body);
  expect(res.status).toBe(202);
  const { exportId } = exportStartedSchema.parse(await res.json());
  return finished(exportId, String(body.storeCode ?? 'NH'));
}
const downloadRows = async (exportId: string, storeCode: string) =>
  parseCsv(await (await post(`/api/admin/orders/export/${exportId}/download`, { storeCode })).text());

let formulaOrder: string;

beforeAll(async () => {
  tdb = await createTestDatabase('export');
  config = testWorkerConfig(tdb.url, 'export', { WORKER_QUEUES: 'exports', EXPORT_PROGRESS_EVERY: '2' });
  runtime = await startTestWorkers(config);
  // The API reads the files the worker writes: the same EXPORTS_DIR.
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX, EXPORTS_DIR: config.EXPORTS_DIR });
  staff = await signInAs(api, 'manager');
  await placeOrder(tdb.db, {
    customerName: 'Alice Plain',
    customerEmail: 'alice@example.com',
    items: [sampleLine({ quantity: 2, productName: 'Flush' }), sampleLine({ quantity: 1, productName: 'Dish Pods, Lemon' })],
  });
  formulaOrder = await placeOrder(tdb.db, {
    customerName: '=HYPERLINK("http://evil.example","click")',
    customerEmail: '@evil@example.com',
    customerPhone: '+1 555 0100',
    promoCode: '-PROMO',
    // A full-width plus: Apple Numbers runs it as a formula too.
    carrier: '\uFF0BUPS',
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
    const done = await waitFor(
      async () => {
        const s = await status(exportId);
        return s.status === 'completed' || s.status === 'failed' ? s : null;
      },
      15_000,
      'export',
    );
    expect(done).toMatchObject({ status: 'completed', rowsDone: 3, rowsTotal: 3, error: null });
    const today = new Date().toISOString().slice(0, 10);
    expect(done.fileName).toBe(`nh-orders-${today}.csv`);

    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="nh-orders-${today}.csv"`);
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual([
      'Order ID',
      'Date (UTC)',
      'Customer Name',
      'Email',
      'Phone',
      'Status',
      'Items',
      'Subtotal',
      'Discount',
      'Shipping',
      'Tax',
      'Total',
      'Promo Code',
      'Carrier',
      'Tracking Number',
      'NetSuite Sync Status',
      'Payment',
      'Refunded',
    ]);
    expect(rows).toHaveLength(4);
    const alice = rows.find((r) => r[2] === 'Alice Plain')!;
    expect(alice[6]).toBe('2 x Flush; 1 x Dish Pods, Lemon');
    expect(alice.slice(7, 12)).toEqual(['38.97', '0.00', '9.99', '3.12', '52.08']);
    expect(alice[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(alice[15]).toBe('pending');
    expect(alice.slice(16)).toEqual(['Not paid', '0.00']);
    const evil = rows.find((r) => r[0] === formulaOrder)!;
    expect(evil[2]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(evil[3]).toBe(`'@evil@example.com`);
    expect(evil[4]).toBe(`'+1 555 0100`);
    expect(evil[5]).toBe('shipped');
    expect(evil[12]).toBe(`'-PROMO`);
    expect(evil[13]).toBe(`'\uFF0BUPS`);
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

  it("tells staff what failed in words and a code, never a database error's own message (it carries the query and its values)", async () => {
    const dbError = await tdb.db.$client.query(`select $1::int as n`, ['secret-value@example.com']).then(
      () => null,
      (error: unknown) => error,
    );
    const message = exportFailureMessage(dbError);
    expect(message).toBe(
      'The orders could not be read from the database (error 22P02). Please try again; if it fails again, an operator can find the details in the worker log.',
    );
    expect(message).not.toContain('secret-value');
    expect(exportFailureMessage(new Error('boom'))).toBe(
      'The export failed. Please try again; if it fails again, an operator can find the details in the worker log.',
    );
  });

  it('applies the filters: UTC days from/to (both included) and a status', async () => {
    const STORE = 'FILTER';
    const at = async (iso: string, orderStatus: 'processing' | 'shipped' | 'cancelled', name: string) => {
      const id = await placeOrder(tdb.db, { storeCode: STORE, customerName: name, outbox: false });
      await tdb.db
        .update(tables.orders)
        .set({ createdAt: new Date(iso), status: orderStatus })
        .where(eq(tables.orders.id, id));
    };
    await at('2026-03-31T23:59:59.999Z', 'shipped', 'before range');
    await at('2026-04-01T00:00:00.000Z', 'shipped', 'first moment');
    await at('2026-04-10T12:00:00.000Z', 'processing', 'middle processing');
    await at('2026-04-10T13:00:00.000Z', 'cancelled', 'middle cancelled');
    await at('2026-04-30T23:59:59.999Z', 'shipped', 'last moment');
    await at('2026-05-01T00:00:00.000Z', 'shipped', 'after range');

    const names = async (body: Record<string, unknown>) => {
      const done = await exportOf({ storeCode: STORE, ...body });
      expect(done.status).toBe('completed');
      const rows = await downloadRows(done.exportId, STORE);
      // The total counted first matches what was written.
      expect(done).toMatchObject({ rowsDone: rows.length - 1, rowsTotal: rows.length - 1 });
      return rows.slice(1).map((r) => r[2]);
    };
    expect(await names({ from: '2026-04-01', to: '2026-04-30' })).toEqual([
      'first moment',
      'middle processing',
      'middle cancelled',
      'last moment',
    ]);
    expect(await names({ from: '2026-04-01', to: '2026-04-30', status: 'shipped' })).toEqual(['first moment', 'last moment']);
    expect(await names({ to: '2026-04-01' })).toEqual(['before range', 'first moment']);
    expect(await names({ from: '2026-04-30', status: 'all' })).toEqual(['last moment', 'after range']);
    expect(await names({ status: 'cancelled' })).toEqual(['middle cancelled']);
    expect(await names({ from: '2027-01-01' })).toEqual([]);
    expect(await names({})).toHaveLength(6);
  });

  it("follows the orders table's search and payment state (issue 23), and writes what was refunded in staff's words", async () => {
    const STORE = 'PSTATE';
    const placed = async (name: string) => placeOrder(tdb.db, { storeCode: STORE, customerName: name, outbox: false });
    const paid = await placed('Paula Paid');
    const partly = await placed('Pat Partly');
    const other = await placed('Otto Other');
    const charge = async (orderId: string) => {
      const [order] = await tdb.db.select({ total: tables.orders.total }).from(tables.orders).where(eq(tables.orders.id, orderId));
      const [row] = await tdb.db.insert(tables.paymentTransactions).values({ orderId, amount: order!.total, status: 'approved', kind: 'charge' }).returning({ id: tables.paymentTransactions.id });
      return row!.id;
    };
    await charge(paid);
    await charge(other);
    const parentId = await charge(partly);
    await tdb.db.insert(tables.paymentTransactions).values({ orderId: partly, parentId, amount: 1250, status: 'approved', kind: 'refund', idempotencyKey: 'export-test-1' });
    const rowsOf = async (body: Record<string, unknown>) => {
      const done = await exportOf({ storeCode: STORE, ...body });
      expect(done.status).toBe('completed');
      return (await downloadRows(done.exportId, STORE)).slice(1);
    };
    expect((await rowsOf({ paymentState: 'partially_refunded' })).map((r) => [r[2], r[16], r[17]])).toEqual([['Pat Partly', 'Partially refunded', '12.50']]);
    expect((await rowsOf({ paymentState: 'paid' })).map((r) => r[2]).sort()).toEqual(['Otto Other', 'Paula Paid']);
    expect((await rowsOf({ search: 'paula' })).map((r) => [r[2], r[16], r[17]])).toEqual([['Paula Paid', 'Paid', '0.00']]);
    expect((await rowsOf({ search: partly.slice(0, 8) })).map((r) => r[2])).toEqual(['Pat Partly']);
    expect(() => exportFiltersOf({ paymentState: 'bogus' }, tables.orderStatus.enumValues)).toThrow('unknown payment state');
  });

  it('checks the filters stored on the row again: a malformed one fails the export instead of exporting other orders', () => {
    const statuses = tables.orderStatus.enumValues;
    expect(exportFiltersOf(null, statuses)).toEqual({});
    expect(exportFiltersOf({ from: '2026-04-01', to: '2026-04-30', status: 'shipped' }, statuses)).toEqual({
      from: '2026-04-01',
      to: '2026-04-30',
      status: 'shipped',
    });
    expect(() => exportFiltersOf({ status: 'lost' }, statuses)).toThrow(/unknown status/);
    expect(() => exportFiltersOf({ from: '1 April' }, statuses)).toThrow(/from is not a day/);
    expect(() => exportFiltersOf('all', statuses)).toThrow(/not an object/);
  });

  it('moves the progress as it goes (rows done of the total, every EXPORT_PROGRESS_EVERY rows), and records size and expiry', async () => {
    const STORE = 'PROGRESS';
    for (let i = 0; i < 9; i++) await placeOrder(tdb.db, { storeCode: STORE, outbox: false });
    // Every write of an export row's progress, as the status call would have read it at that moment.
    await tdb.db.$client.query(`
      create table if not exists export_progress_log (export_id uuid, status text, rows_done int, rows_total int, seq bigserial);
      create or replace function log_export_progress() returns trigger language plpgsql as $$
        begin insert into export_progress_log (export_id, status, rows_done, rows_total) values (new.id, new.status, new.rows_done, new.rows_total); return new; end $$;
      drop trigger if exists export_progress_log on exports;
      create trigger export_progress_log after update on exports for each row execute function log_export_progress();`);
    try {
      const done = await exportOf({ storeCode: STORE });
      const { rows: log } = await tdb.db.$client.query<{ status: string; rows_done: number; rows_total: number }>(
        `select status, rows_done, rows_total from export_progress_log where export_id = $1 order by seq`,
        [done.exportId],
      );
      // EXPORT_PROGRESS_EVERY = 2 in this file: 0 (started), 2, 4, 6, 8 while running, then 9 completed.
      expect(log.map((r) => [r.status, r.rows_done, r.rows_total])).toEqual([
        ['running', 0, 9],
        ['running', 2, 9],
        ['running', 4, 9],
        ['running', 6, 9],
        ['running', 8, 9],
        ['completed', 9, 9],
      ]);
      const res = await post(`/api/admin/orders/export/${done.exportId}/download`, { storeCode: STORE });
      const body = await res.text();
      expect(done.sizeBytes).toBe(Buffer.byteLength(body));
      // Kept EXPORT_RETENTION_HOURS (24 by default) after it finished.
      expect(Date.parse(done.expiresAt!) - Date.parse(done.finishedAt!)).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
      expect(Date.parse(done.expiresAt!) - Date.parse(done.finishedAt!)).toBeLessThanOrEqual(24 * 3600_000 + 1000);
      expect(done).toMatchObject({
        downloadable: true,
        fileDeletedAt: null,
        staffEmail: staff.email,
        filters: { from: null, to: null, status: null },
      });
    } finally {
      await tdb.db.$client.query(`drop trigger if exists export_progress_log on exports`);
    }
  });

  it('the history lists who exported what: filters, rows, size, status and download until, newest first', async () => {
    const STORE = 'HISTORY';
    await placeOrder(tdb.db, { storeCode: STORE, outbox: false });
    const other = await signInAs(api, 'owner');
    const first = await exportOf({ storeCode: STORE, status: 'processing' });
    const second = exportStartedSchema.parse(
      await (
        await other.request('/api/admin/orders/export', {
          method: 'POST',
          body: { storeCode: STORE, from: '2026-01-01', to: '2026-12-31' },
        })
      ).json(),
    );
    await finished(second.exportId, STORE);
    const res = await post('/api/admin/orders/export/history', { storeCode: STORE });
    expect(res.status).toBe(200);
    const { exports } = exportHistorySchema.parse(await res.json());
    expect(exports.map((e) => e.exportId)).toEqual([second.exportId, first.exportId]);
    expect(exports[0]).toMatchObject({
      staffEmail: other.email,
      status: 'completed',
      filters: { from: '2026-01-01', to: '2026-12-31', status: null },
      downloadable: true,
    });
    expect(exports[1]).toMatchObject({
      staffEmail: staff.email,
      status: 'completed',
      filters: { from: null, to: null, status: 'processing' },
      rowsDone: 1,
      rowsTotal: 1,
      downloadable: true,
    });
    expect(exports[1]!.sizeBytes).toBeGreaterThan(100);
    expect(exports[1]!.expiresAt).not.toBeNull();
    // The rows also name the staff account, not only the email.
    const rows = await tdb.db
      .select()
      .from(tables.exports)
      .where(inArray(tables.exports.id, [first.exportId, second.exportId]));
    expect(rows.find((r) => r.id === second.exportId)!.staffId).toBe(other.id);
    expect(rows.find((r) => r.id === first.exportId)!.staffId).toBe(staff.id);
  });

  it('housekeeping deletes files past their expiry (the row stays, marked); their download answers 410', async () => {
    const STORE = 'RETAIN';
    await placeOrder(tdb.db, { storeCode: STORE, outbox: false });
    const expired = await exportOf({ storeCode: STORE });
    const kept = await exportOf({ storeCode: STORE });
    // file_path holds the storage key, a name in EXPORTS_DIR.
    const fileOf = async (id: string) =>
      path.join(config.EXPORTS_DIR, (await tdb.db.select().from(tables.exports).where(eq(tables.exports.id, id)))[0]!.filePath!);
    expect(fs.existsSync(await fileOf(expired.exportId))).toBe(true);
    await tdb.db
      .update(tables.exports)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(tables.exports.id, expired.exportId));
    // Past its expiry, the download is refused at once, before housekeeping has run.
    expect((await post(`/api/admin/orders/export/${expired.exportId}/download`, { storeCode: STORE })).status).toBe(410);

    const housekeeping = createHousekeepingProcessor({
      db: tdb.db,
      log: createLogger('hk-test', 'silent'),
      retentionDays: 7,
      ledgerRetentionDays: 90,
      exportFiles: localFileStorage(config.EXPORTS_DIR),
    });
    const result = await housekeeping({ id: 'hk-exports' } as Job);
    expect(result.exportFilesDeleted).toBe(1);
    expect(fs.existsSync(await fileOf(expired.exportId))).toBe(false);
    expect(fs.existsSync(await fileOf(kept.exportId))).toBe(true);
    const gone = await status(expired.exportId, STORE);
    expect(gone).toMatchObject({ status: 'completed', downloadable: false });
    expect(gone.fileDeletedAt).not.toBeNull();
    const res = await post(`/api/admin/orders/export/${expired.exportId}/download`, { storeCode: STORE });
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({ message: 'The export file is no longer available. Please export again.', code: 'EXPORT_FILE_GONE' });
    expect((await post(`/api/admin/orders/export/${kept.exportId}/download`, { storeCode: STORE })).status).toBe(200);
    // Run again: nothing more to delete.
    expect((await housekeeping({ id: 'hk-exports-2' } as Job)).exportFilesDeleted).toBe(0);
  });

  it('a failed export reports its error and serves no file', async () => {
    await runtime.close(1000);
    const blocker = path.join(tempDir('export-fail'), 'not-a-dir');
    fs.writeFileSync(blocker, 'x');
    runtime = await startTestWorkers({ ...config, EXPORTS_DIR: path.join(blocker, 'exports') });
    const { exportId } = exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json());
    const failed = await waitFor(
      async () => {
        const s = await status(exportId);
        return s.status === 'failed' ? s : null;
      },
      15_000,
      'failed export',
    );
    expect(failed.error).toMatch(/^The export file could not be written \((ENOTDIR|EEXIST)\)\. Please try again/);
    expect(failed.fileName).toBeNull();
    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: 'Export failed', error: failed.error });
  });
});
