import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { tables } from '@nh/server';
import { exportStartedSchema, exportStatusSchema } from '@nh/shared/contracts/exports';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const STORE = 'TEXPORT';
let api: TestApi;
/** A signed-in staff member whose role may use every route of this file. */
let staff: StaffClient;

const post = (p: string, body: Record<string, unknown> = {}) => staff.request(p, { method: 'POST', body: { storeCode: STORE, ...body } });

beforeAll(async () => {
  api = await startTestApi();
  staff = await signInAs(api, 'manager');
});
afterAll(() => api.close());

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
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-export-api-'));
    const file = path.join(dir, `${exportId}.csv`);
    fs.writeFileSync(file, 'Order ID,Email\r\nabc,a@example.com\r\n');
    await api.ctx.db.update(tables.exports).set({ status: 'completed', filePath: file, fileName: 'nh-orders-2026-11-21.csv', rowsDone: 1, rowsTotal: 1, finishedAt: new Date() }).where(eq(tables.exports.id, exportId));
    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="nh-orders-2026-11-21.csv"');
    expect(await res.text()).toBe('Order ID,Email\r\nabc,a@example.com\r\n');
    fs.rmSync(dir, { recursive: true });
    expect((await post(`/api/admin/orders/export/${exportId}/download`)).status).toBe(410);
  });

  it('reports a failed export with its error and serves no file', async () => {
    const { exportId } = exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json());
    await api.ctx.db.update(tables.exports).set({ status: 'failed', error: 'disk full' }).where(eq(tables.exports.id, exportId));
    expect(await (await post(`/api/admin/orders/export/${exportId}/status`)).json()).toMatchObject({ status: 'failed', error: 'disk full' });
    const res = await post(`/api/admin/orders/export/${exportId}/download`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'Export failed', code: 'EXPORT_FAILED', status: 'failed', error: 'disk full' });
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
