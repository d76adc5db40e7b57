/**
 * Every admin route against every role: the table below names the permission each route needs, a
 * route missing from it fails the test (so a new admin route must say who may use it), and each role is
 * answered 403 exactly where the permission table (shared/src/contracts/staff.ts) leaves it out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, STAFF_ROLES, type Permission, type StaffRole } from '@nh/shared/contracts/staff';
import { startTestApi, type TestApi } from './support/harness';
import { fillPath, listRoutes } from './support/routes';
import { signInAs, type StaffClient } from './support/staff';

/** Each guarded admin route and the permission it needs. */
const ROUTE_PERMISSIONS: Record<string, Permission> = {
  'GET /api/admin/staff': 'staff.manage',
  'POST /api/admin/staff/invitations': 'staff.manage',
  'DELETE /api/admin/staff/invitations/:id': 'staff.manage',
  'PATCH /api/admin/staff/:id': 'staff.manage',
  'GET /api/admin/audit': 'audit.view',
  'GET /api/admin/audit.csv': 'audit.view',
  'GET /api/admin/dashboard': 'dashboard.view',
  'GET /api/admin/reviews': 'reviews.moderate',
  'POST /api/admin/reviews/:id/hide': 'reviews.moderate',
  'POST /api/admin/reviews/:id/show': 'reviews.moderate',
  'DELETE /api/admin/reviews/:id': 'reviews.moderate',
  'POST /api/promo-codes/list': 'promos.manage',
  'POST /api/promo-codes': 'promos.manage',
  'PATCH /api/promo-codes/:id/toggle': 'promos.manage',
  'POST /api/admin/products': 'catalog.manage',
  'POST /api/admin/products/images': 'catalog.manage',
  'GET /api/admin/products/:id/inventory': 'catalog.manage',
  'POST /api/admin/products/:id/inventory': 'catalog.manage',
  'POST /api/products': 'catalog.manage',
  'PUT /api/products/:id': 'catalog.manage',
  'DELETE /api/products/:id': 'catalog.manage',
  'POST /api/admin/orders': 'orders.view',
  'POST /api/admin/orders/:id': 'orders.view',
  'PATCH /api/admin/orders/:id': 'orders.fulfil',
  'POST /api/admin/orders/:id/timeline': 'orders.view',
  'POST /api/admin/orders/:id/emails': 'orders.resendEmail',
  'POST /api/admin/orders/:id/refunds': 'orders.refund',
  'POST /api/admin/orders/:id/settlement': 'orders.refund',
  'PUT /api/admin/orders/:id/address': 'orders.editAddress',
  'GET /api/admin/customers/:id/credit': 'credit.grant',
  'POST /api/admin/customers/:id/credit': 'credit.grant',
  'POST /api/admin/orders/:id/claims': 'claims.resolve',
  'POST /api/admin/orders/:id/claims/photos': 'claims.resolve',
  'GET /api/admin/claims/:id/photo': 'claims.resolve',
  'GET /api/admin/claims': 'claims.resolve',
  'GET /api/admin/claims/settings': 'claims.resolve',
  'PUT /api/admin/claims/settings': 'claims.settings',
  'GET /api/admin/claims/:id': 'claims.resolve',
  'POST /api/admin/claims/:id/approve': 'claims.resolve',
  'POST /api/admin/claims/:id/decline': 'claims.resolve',
  'GET /api/admin/reports/claims': 'reports.view',
  'POST /api/admin/orders/export': 'exports.run',
  'POST /api/admin/orders/export/:id/status': 'exports.run',
  'POST /api/admin/orders/export/:id/download': 'exports.run',
  'GET /api/admin/orders/export/:id/download': 'exports.run',
  'POST /api/admin/orders/export/history': 'exports.run',
  'GET /api/admin/subscriptions': 'subscriptions.view',
  'GET /api/admin/subscriptions/at-risk': 'subscriptions.view',
  'GET /api/admin/subscriptions/:id': 'subscriptions.view',
  'POST /api/admin/subscriptions/:id/pause': 'subscriptions.act',
  'POST /api/admin/subscriptions/:id/resume': 'subscriptions.act',
  'POST /api/admin/subscriptions/:id/skip': 'subscriptions.act',
  'POST /api/admin/subscriptions/:id/reschedule': 'subscriptions.act',
  'POST /api/admin/subscriptions/:id/frequency': 'subscriptions.act',
  'PUT /api/admin/subscriptions/:id/items': 'subscriptions.act',
  'PUT /api/admin/subscriptions/:id/address': 'subscriptions.act',
  'POST /api/admin/subscriptions/:id/card-link': 'subscriptions.act',
  'POST /api/admin/subscriptions/:id/ship-now': 'subscriptions.act',
  'POST /api/admin/subscriptions/:id/one-time-items': 'subscriptions.act',
  'DELETE /api/admin/subscriptions/:id/one-time-items/:lineId': 'subscriptions.act',
  'POST /api/admin/subscriptions/:id/cancel': 'subscriptions.act',
  'POST /api/admin/subscriptions/bulk-swap': 'subscriptions.bulkSwap',
  'GET /api/admin/subscriptions/bulk-swap/runs': 'subscriptions.bulkSwap',
  'GET /api/admin/reports/cancellations': 'reports.view',
  'GET /api/admin/reports/sales': 'reports.view',
  'GET /api/admin/reports/top-products': 'reports.view',
  'GET /api/admin/reports/customers': 'reports.view',
  'GET /api/admin/reports/revenue-mix': 'reports.view',
  'GET /api/admin/reports/subscriptions': 'reports.view',
  'GET /api/admin/reports/stock-cover': 'reports.view',
  'GET /api/admin/subscriptions/bulk-swap/runs/:id': 'subscriptions.bulkSwap',
  'POST /api/admin/subscriptions/export': 'exports.run',
  'POST /api/admin/subscriptions/export/history': 'exports.run',
  'POST /api/admin/subscriptions/export/:id/status': 'exports.run',
  'POST /api/admin/subscriptions/export/:id/download': 'exports.run',
  'GET /api/admin/subscriptions/export/:id/download': 'exports.run',
  'POST /api/admin/sync/summary': 'sync.manage',
  'POST /api/admin/sync/failed': 'sync.manage',
  'POST /api/admin/sync/orders/:id/retry': 'sync.manage',
  'POST /api/admin/sync/orders/:id/attempts': 'orders.view',
  'POST /api/admin/sync/retry-failed': 'sync.manage',
  'POST /api/admin/sync/store-credit/failed': 'sync.manage',
  'POST /api/admin/sync/store-credit/:entryId/retry': 'sync.manage',
  'GET /api/admin/customers': 'customers.view',
  'GET /api/admin/customers/:id': 'customers.view',
  'POST /api/admin/customers/:id/notes': 'customers.edit',
  'PUT /api/admin/customers/:id/tags': 'customers.edit',
  'GET /api/admin/customers/:id/export': 'customers.privacy',
  'POST /api/admin/customers/:id/sign-in-code': 'customers.edit',
  'POST /api/admin/customers/:id/merge-guest-orders': 'customers.edit',
  'POST /api/admin/customers/:id/email-change': 'customers.edit',
  'POST /api/admin/customers/:id/anonymise': 'customers.privacy',
  'GET /api/admin/orders/:id/notes': 'orders.view',
  'POST /api/admin/orders/:id/notes': 'customers.edit',
};

/** Admin routes open without a role check: sign-in and what a signed-out person needs. */
const OPEN_ROUTES = new Set([
  'POST /api/admin/session',
  'DELETE /api/admin/session',
  'POST /api/admin/invitations/check',
  'POST /api/admin/invitations/accept',
  'POST /api/admin/password-reset',
  'POST /api/admin/password-reset/confirm',
]);
/** Routes any signed-in staff member may use. */
const SIGNED_IN_ROUTES = new Set(['GET /api/admin/me', 'POST /api/admin/verify-password']);

const NOBODY = '00000000-0000-4000-8000-000000000000';

let api: TestApi;
const clients = {} as Record<StaffRole, StaffClient>;

beforeAll(async () => {
  api = await startTestApi();
  for (const role of STAFF_ROLES) clients[role] = await signInAs(api, role);
});
afterAll(() => api.close());

const isAdminRoute = (path: string) => path.startsWith('/api/admin') || path.startsWith('/api/promo-codes') || path.startsWith('/api/products');
const adminRoutes = () =>
  listRoutes(api.app)
    .filter((r) => isAdminRoute(r.path))
    // The catalogue's public reads of /api/products are not admin routes; neither are the public promo
    // check and a shopper's review.
    .filter((r) => !(r.method === 'GET' && (r.path.startsWith('/api/products') || r.path.startsWith('/api/promo-codes'))))
    .filter((r) => r.path !== '/api/products/:id/reviews')
    .map((r) => ({ ...r, key: `${r.method} ${r.path}` }));

/** A request that passes the guard and then fails harmlessly (unknown ids, empty bodies): never a change. */
function call(client: StaffClient | null, method: string, path: string) {
  const url = fillPath(path, (name) => (name === 'id' && (path.includes('/promo-codes') || path.includes('/products/') || path.includes('/reviews/')) ? '2147483647' : NOBODY));
  const init = { method, body: method === 'GET' ? undefined : { storeCode: 'NOPE' } };
  return client ? client.request(url, init) : api.request(url, init);
}

describe('staff roles on every admin route', () => {
  it('every admin route is in the permission table, or deliberately open', () => {
    const unlisted = adminRoutes().filter((r) => !ROUTE_PERMISSIONS[r.key] && !OPEN_ROUTES.has(r.key) && !SIGNED_IN_ROUTES.has(r.key));
    expect(unlisted.map((r) => r.key)).toEqual([]);
    const listed = new Set(adminRoutes().map((r) => r.key));
    expect(Object.keys(ROUTE_PERMISSIONS).filter((k) => !listed.has(k))).toEqual([]);
  });

  it('without a session every guarded route answers 401 STAFF_SIGN_IN_REQUIRED', async () => {
    for (const key of [...Object.keys(ROUTE_PERMISSIONS), ...SIGNED_IN_ROUTES]) {
      const [method, path] = key.split(' ') as [string, string];
      const res = await call(null, method, path);
      expect(res.status, key).toBe(401);
      expect(await res.json(), key).toMatchObject({ code: 'STAFF_SIGN_IN_REQUIRED', message: 'Please sign in to the back office.' });
    }
  });

  for (const role of STAFF_ROLES) {
    it(`${role}: 403 exactly where the role lacks the permission`, async () => {
      for (const [key, permission] of Object.entries(ROUTE_PERMISSIONS)) {
        const [method, path] = key.split(' ') as [string, string];
        const res = await call(clients[role], method, path);
        if (can(role, permission)) {
          expect([401, 403], `${role} ${key} → ${res.status}`).not.toContain(res.status);
        } else {
          expect(res.status, `${role} ${key}`).toBe(403);
          const body = (await res.json()) as { code: string; message: string };
          expect(body.code).toBe('STAFF_FORBIDDEN');
          expect(body.message).toContain('Your role does not allow this');
        }
      }
    });
  }

  it('the role table matches the issue: support cannot touch promos, prices or refunds; fulfilment updates orders; only owners manage staff', () => {
    expect(can('support', 'promos.manage')).toBe(false);
    expect(can('support', 'catalog.manage')).toBe(false);
    expect(can('support', 'orders.refund')).toBe(false);
    expect(can('support', 'subscriptions.act')).toBe(true);
    expect(can('fulfilment', 'orders.fulfil')).toBe(true);
    // Issue 23: whoever takes the customer's call or catches it at the warehouse fixes an unshipped order's address.
    for (const role of STAFF_ROLES) expect(can(role, 'orders.editAddress'), role).toBe(true);
    expect(can('fulfilment', 'subscriptions.view')).toBe(false);
    expect(can('manager', 'orders.refund')).toBe(true);
    expect(can('manager', 'staff.manage')).toBe(false);
    expect(can('owner', 'staff.manage')).toBe(true);
  });
});
