import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { startTestS3, type TestS3 } from '@nh/server/testing/s3-server';
import { exportHistorySchema, exportStartedSchema, exportStatusSchema } from '@nh/shared/contracts/exports';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const STORE = 'TEXPORT';
let api: TestApi;
/** A signed-in staff member whose role may use every route of this file. */
let staff: StaffClient;
let exportsDir: string;

const post = (p: string, body: Record<string, unknown> = {}) => staff.request(p, { method: 'POST', body: { storeCode: STORE, ...body } });
/** Plays the exports worker: the file stored under its key, the row completed with it. */
const completeWith = async (exportId: string, csv: string, fileName: string, extra: Partial<typeof tables.exports.$inferInsert> = {}) => {
  await api.services.files.exports.put(`${exportId}.csv`, Buffer.from(csv), { contentType: 'text/csv; charset=utf-8' });
  await api.ctx.db
    .update(tables.exports)
    .set({ status: 'completed', filePath: `${exportId}.csv`, fileName, rowsDone: 1, rowsTotal: 1, finishedAt: new Date(), ...extra })
    .where(eq(tables.exports.id, exportId));
};

beforeAll(async () => {
  exportsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-export-api-'));
  api = await startTestApi({ EXPORTS_DIR: exportsDir });
  staff = await signInAs(api, 'manager');
});
afterAll(async () => {
  await api.close();
  fs.rmSync(exportsDir, { recursive: true, force: true });
});

describe('admin exports API', () => {
  it('starts an export at once: an exports row and an export.requested outbox row', async () => {
    const res = await post('/api/admin/orders/export');
    expect(res.status).toBe(202);
    const { exportId, status } = exportStartedSchema.parse(await res.json());
    expect(status).toBe('queued');
    const [row] = await api.ctx.db.select().from(tables.exports).where(eq(tables.exports.id, exportId));
    expect(row).toMatchObject({ storeCode: STORE, status: 'queued' });
    const outbox = await api.ctx.db.select().from(tables.outbox).where(sql`${tables.outbox.payload}->>'exportId' = ${exportId}`);
    expect(outbox).toEqual([expect.objectContaining({ topic: 'export.requested', publishedAt: null })]);
  });

  it('reports status and refuses to download an unfinished export (409)', async () => {
    const { exportId } = exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json());
    const status = exportStatusSchema.parse(await (await post(`/api/admin/orders/export/${exportId}/status`)).json());
    expect(status).toMatchObject({ exportId, status: 'queued', rowsDone: 0, rowsTotal: null, error: null, fileName: null });
    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'The export is not finished yet.', code: 'EXPORT_NOT_READY', status: 'queued' });
  });

  it('streams a completed export as an attachment named nh-orders-{yyyy-MM-dd}.csv', async () => {
    const { exportId } = exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json());
    await completeWith(exportId, 'Order ID,Email\r\nabc,a@example.com\r\n', 'nh-orders-2026-11-21.csv');
    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="nh-orders-2026-11-21.csv"');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength('Order ID,Email\r\nabc,a@example.com\r\n')));
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('Order ID,Email\r\nabc,a@example.com\r\n');
    // The file is in EXPORTS_DIR under its key; once it is gone, the download is 410.
    expect(fs.readdirSync(exportsDir)).toContain(`${exportId}.csv`);
    await api.services.files.exports.delete(`${exportId}.csv`);
    expect((await post(`/api/admin/orders/export/${exportId}/download`)).status).toBe(410);
  });

  it('still serves a file recorded before the storage interface (file_path an absolute path in EXPORTS_DIR)', async () => {
    const { exportId } = exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json());
    await completeWith(exportId, 'Order ID\r\nold\r\n', 'nh-orders-2026-11-20.csv', { filePath: path.join('/app/.local/exports', `${exportId}.csv`) });
    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Order ID\r\nold\r\n');
  });

  it('reports a failed export with its error and serves no file', async () => {
    const { exportId } = exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json());
    await api.ctx.db.update(tables.exports).set({ status: 'failed', error: 'disk full' }).where(eq(tables.exports.id, exportId));
    expect(await (await post(`/api/admin/orders/export/${exportId}/status`)).json()).toMatchObject({ status: 'failed', error: 'disk full' });
    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'Export failed', code: 'EXPORT_FAILED', status: 'failed', error: 'disk full' });
  });

  it('starts an export with filters, recording who asked (from the staff session) and what, in the row and the audit trail', async () => {
    const res = await post('/api/admin/orders/export', { from: '2026-04-01', to: '2026-04-30', status: 'shipped' });
    expect(res.status).toBe(202);
    const { exportId } = exportStartedSchema.parse(await res.json());
    const [row] = await api.ctx.db.select().from(tables.exports).where(eq(tables.exports.id, exportId));
    expect(row).toMatchObject({ staffId: staff.id, staffEmail: staff.email, filters: { from: '2026-04-01', to: '2026-04-30', status: 'shipped' } });
    const [audit] = await api.ctx.db.select().from(tables.auditEvents).where(and(eq(tables.auditEvents.entityId, exportId), eq(tables.auditEvents.action, 'export.started')));
    expect(audit).toMatchObject({ actorEmail: staff.email, after: { storeCode: STORE, filters: { from: '2026-04-01', to: '2026-04-30', status: 'shipped' } } });
    // Empty and 'all' mean no filter: nothing stored for them.
    const all = exportStartedSchema.parse(await (await post('/api/admin/orders/export', { from: '', status: 'all' })).json());
    const [plain] = await api.ctx.db.select().from(tables.exports).where(eq(tables.exports.id, all.exportId));
    expect(plain!.filters).toEqual({});
    expect(exportStatusSchema.parse(await (await post(`/api/admin/orders/export/${exportId}/status`)).json())).toMatchObject({
      staffEmail: staff.email,
      filters: { from: '2026-04-01', to: '2026-04-30', status: 'shipped' },
      sizeBytes: null,
      expiresAt: null,
      downloadable: false,
    });
  });

  it('refuses filters that are not dates, a range that runs backwards, or an unknown status, with a clear 400', async () => {
    const refused = async (body: Record<string, unknown>, message: string) => {
      const res = await post('/api/admin/orders/export', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ message });
    };
    await refused({ from: '2026-02-30' }, 'Dates must be written as yyyy-mm-dd.');
    await refused({ to: '04/01/2026' }, 'Dates must be written as yyyy-mm-dd.');
    await refused({ from: 20260401 }, 'Dates must be written as yyyy-mm-dd.');
    await refused({ from: '2026-05-01', to: '2026-04-01' }, 'The "from" date must be on or before the "to" date.');
    await refused({ status: 'lost' }, 'Status must be pending, processing, shipped, delivered or cancelled');
  });

  it('lists the export history newest first: who, when, filters, rows, size, status, download until', async () => {
    const store = 'THIST';
    const other = await signInAs(api, 'owner');
    const first = exportStartedSchema.parse(await (await post('/api/admin/orders/export', { storeCode: store, status: 'pending' })).json());
    const second = exportStartedSchema.parse(await (await other.request('/api/admin/orders/export', { method: 'POST', body: { storeCode: store, from: '2026-01-01' } })).json());
    const finishedAt = new Date();
    const expiresAt = new Date(finishedAt.getTime() + 24 * 3600_000);
    await api.ctx.db
      .update(tables.exports)
      .set({ status: 'completed', rowsDone: 12, rowsTotal: 12, sizeBytes: 3456, fileName: 'nh-orders-2026-11-21.csv', filePath: '/nonexistent/x.csv', finishedAt, expiresAt })
      .where(eq(tables.exports.id, first.exportId));
    const res = await post('/api/admin/orders/export/history', { storeCode: store });
    expect(res.status).toBe(200);
    const { exports } = exportHistorySchema.parse(await res.json());
    expect(exports).toEqual([
      expect.objectContaining({ exportId: second.exportId, staffEmail: other.email, status: 'queued', filters: { from: '2026-01-01', to: null, status: null, search: null, netsuiteStatus: null, promo: null, paymentState: null }, rowsDone: 0, rowsTotal: null, sizeBytes: null, expiresAt: null, downloadable: false }),
      expect.objectContaining({
        exportId: first.exportId,
        staffEmail: staff.email,
        status: 'completed',
        filters: { from: null, to: null, status: 'pending', search: null, netsuiteStatus: null, promo: null, paymentState: null },
        rowsDone: 12,
        rowsTotal: 12,
        sizeBytes: 3456,
        fileName: 'nh-orders-2026-11-21.csv',
        finishedAt: finishedAt.toISOString(),
        expiresAt: expiresAt.toISOString(),
        fileDeletedAt: null,
        downloadable: true,
      }),
    ]);
    expect((await post('/api/admin/orders/export/history', { storeCode: store, limit: 1 })).status).toBe(200);
    expect(exportHistorySchema.parse(await (await post('/api/admin/orders/export/history', { storeCode: store, limit: 1 })).json()).exports).toHaveLength(1);
    expect((await post('/api/admin/orders/export/history', { storeCode: store, limit: 1000 })).status).toBe(400);
    expect(exportHistorySchema.parse(await (await post('/api/admin/orders/export/history', { storeCode: 'NOEXPORTS' })).json())).toEqual({ exports: [] });
  });

  it('downloads by a plain GET link too (the browser saves the stream); past its expiry or deleted, 410', async () => {
    const { exportId } = exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json());
    await completeWith(exportId, 'Order ID\r\nabc\r\n', 'nh-orders-2026-11-22.csv', { expiresAt: new Date(Date.now() + 3600_000) });
    const link = `/api/admin/orders/export/${exportId}/download?storeCode=${STORE}`;
    const res = await staff.request(link);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="nh-orders-2026-11-22.csv"');
    expect(await res.text()).toBe('Order ID\r\nabc\r\n');
    expect((await staff.request(`/api/admin/orders/export/${exportId}/download`)).status).toBe(404); // default store NH: not this one
    expect((await api.request(link)).status).toBe(401);

    await api.ctx.db.update(tables.exports).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(tables.exports.id, exportId));
    const expired = await staff.request(link);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toEqual({ message: 'The export file is no longer available. Please export again.', code: 'EXPORT_FILE_GONE' });
    await api.ctx.db.update(tables.exports).set({ expiresAt: new Date(Date.now() + 3600_000), fileDeletedAt: new Date() }).where(eq(tables.exports.id, exportId));
    expect((await post(`/api/admin/orders/export/${exportId}/download`)).status).toBe(410);
    expect(exportStatusSchema.parse(await (await post(`/api/admin/orders/export/${exportId}/status`)).json())).toMatchObject({ downloadable: false });
  });

  it('answers 404 for an unknown export, another store, or a malformed id; 401 without a staff session', async () => {
    const { exportId } = exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json());
    expect((await post(`/api/admin/orders/export/${exportId}/status`, { storeCode: 'OTHER' })).status).toBe(404);
    expect((await post('/api/admin/orders/export/00000000-0000-4000-8000-000000000000/status')).status).toBe(404);
    const bad = await post('/api/admin/orders/export/xyz/download');
    expect(bad.status).toBe(404);
    expect(await bad.json()).toEqual({ message: 'Export not found', code: 'NOT_FOUND' });
    expect((await api.request('/api/admin/orders/export', { method: 'POST', body: { storeCode: STORE } })).status).toBe(401);
  });
});

describe('admin exports API with the files in an S3 bucket (STORAGE_URL)', () => {
  let s3: TestS3;
  let s3Api: TestApi;
  let s3Staff: StaffClient;
  beforeAll(async () => {
    s3 = await startTestS3();
    s3Api = await startTestApi({ ...s3.env('admin-exports'), S3_PRESIGN_SECONDS: '120' });
    s3Staff = await signInAs(s3Api, 'manager');
  });
  afterAll(async () => {
    await s3Api?.close();
    await s3?.close();
  });

  it('answers the download with a redirect to a short-lived signed URL of the object (audited), and 410 once the object is gone', async () => {
    const { exportId } = exportStartedSchema.parse(await (await s3Staff.request('/api/admin/orders/export', { method: 'POST', body: { storeCode: STORE } })).json());
    await s3Api.services.files.exports.put(`${exportId}.csv`, Buffer.from('Order ID\r\ns3\r\n'), { contentType: 'text/csv; charset=utf-8' });
    await s3Api.ctx.db.update(tables.exports).set({ status: 'completed', filePath: `${exportId}.csv`, fileName: 'nh-orders-2026-11-23.csv', rowsDone: 1, rowsTotal: 1, finishedAt: new Date() }).where(eq(tables.exports.id, exportId));

    const link = `${s3Api.url}/api/admin/orders/export/${exportId}/download?storeCode=${STORE}`;
    const res = await fetch(link, { headers: { cookie: s3Staff.cookie }, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const signed = new URL(res.headers.get('location')!);
    expect(signed.origin).toBe(s3.endpoint);
    expect(signed.pathname).toBe(`/${s3.bucket}/admin-exports/exports/${exportId}.csv`);
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('120');
    const file = await fetch(signed);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="nh-orders-2026-11-23.csv"');
    expect(await file.text()).toBe('Order ID\r\ns3\r\n');
    // The POST follows the redirect like a browser would.
    const posted = await s3Staff.request(`/api/admin/orders/export/${exportId}/download`, { method: 'POST', body: { storeCode: STORE } });
    expect([posted.status, await posted.text()]).toEqual([200, 'Order ID\r\ns3\r\n']);
    const audits = await s3Api.ctx.db.select().from(tables.auditEvents).where(and(eq(tables.auditEvents.entityId, exportId), eq(tables.auditEvents.action, 'export.downloaded')));
    expect(audits).toHaveLength(2);

    await s3Api.services.files.exports.delete(`${exportId}.csv`);
    const gone = await fetch(link, { headers: { cookie: s3Staff.cookie }, redirect: 'manual' });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({ message: 'The export file is no longer available. Please export again.', code: 'EXPORT_FILE_GONE' });
  });
});
