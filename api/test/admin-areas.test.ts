import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportStartedSchema, exportStatusSchema } from '@nh/shared/contracts/exports';
import { createStaffGuard } from '../src/lib/staff-auth';
import { errorHandler } from '../src/lib/errors';
import { adminAreas } from '../src/modules/admin';
import { mountAreas, type AdminArea } from '../src/modules/admin/shared/area';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const STORE = 'TAREAS';
let api: TestApi;
let staff: StaffClient;

beforeAll(async () => {
  api = await startTestApi();
  staff = await signInAs(api, 'manager');
});
afterAll(() => api.close());

/** The admin sub-areas alone, mounted in the given order, as the app mounts them (under /api, JSON bodies). */
async function withAreas<T>(order: (areas: AdminArea[]) => AdminArea[], run: (url: string) => Promise<T>): Promise<T> {
  const areas = adminAreas(api.ctx, { guard: createStaffGuard(api.ctx), invalidateCatalog: () => {}, gateway: null, exportFiles: api.services.files.exports, claimPhotos: api.services.files.claims, afterAnswer: api.services.afterAnswer, reads: api.services.reads });
  const app = express();
  app.use(express.json());
  app.use('/api', mountAreas(order(areas)));
  app.use(errorHandler);
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const post = (url: string, body: Record<string, unknown> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', cookie: staff.cookie }, body: JSON.stringify({ storeCode: STORE, ...body }) });

describe('the admin area routes the same whatever order its sub-areas are listed in', () => {
  const orders: Array<[string, (areas: AdminArea[]) => AdminArea[]]> = [
    ['as listed', (areas) => areas],
    ['reversed', (areas) => [...areas].reverse()],
    // The order the export routes once depended on: /admin/orders (and its /:id) ahead of /admin/orders/export.
    ['orders first', (areas) => [...areas].sort((a, b) => Number(b.path === '/admin/orders') - Number(a.path === '/admin/orders'))],
  ];

  for (const [name, order] of orders) {
    it(`${name}: /api/admin/orders/export starts an export, /api/admin/orders/{id} reads an order`, async () => {
      await withAreas(order, async (url) => {
        const started = await post(`${url}/api/admin/orders/export`);
        expect(started.status).toBe(202);
        const { exportId } = exportStartedSchema.parse(await started.json());
        const status = await post(`${url}/api/admin/orders/export/${exportId}/status`);
        expect(exportStatusSchema.parse(await status.json())).toMatchObject({ exportId, status: 'queued' });

        const order = await post(`${url}/api/admin/orders/${randomUUID()}`);
        expect(order.status).toBe(404);
        expect(await order.json()).toEqual({ message: 'Order not found', code: 'NOT_FOUND' });
        const list = await post(`${url}/api/admin/orders`, { limit: 1, offset: 0 });
        expect(list.status).toBe(200);
      });
    });
  }

  it('the app mounts exactly these sub-area paths', () => {
    const paths = adminAreas(api.ctx, { guard: createStaffGuard(api.ctx), invalidateCatalog: () => {}, gateway: null, exportFiles: api.services.files.exports, claimPhotos: api.services.files.claims, afterAnswer: api.services.afterAnswer, reads: api.services.reads }).map((a) => a.path);
    expect(paths.sort()).toEqual([
      '/admin/audit',
      '/admin/audit.csv',
      // Damage claims (issue 23): the queue and the owner's rule.
      '/admin/claims',
      '/admin/customers',
      // The store-credit area's grants (/admin/customers/{id}/credit).
      '/admin/customers',
      '/admin/dashboard',
      '/admin/invitations',
      '/admin/me',
      '/admin/orders',
      // The customers area's notes on orders (/admin/orders/{id}/notes).
      '/admin/orders',
      // The claims area's claim on an order (/admin/orders/{id}/claims).
      '/admin/orders',
      '/admin/orders/export',
      '/admin/password-reset',
      '/admin/products',
      '/admin/reports',
      // The claim figures (GET /admin/reports/claims).
      '/admin/reports/claims',
      '/admin/reviews',
      '/admin/session',
      '/admin/staff',
      '/admin/subscriptions',
      '/admin/subscriptions/bulk-swap',
      '/admin/subscriptions/export',
      '/admin/sync',
      '/admin/verify-password',
      '/products',
      '/promo-codes',
    ]);
  });
});
