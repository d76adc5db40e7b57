/**
 * The back office's order table: filters (status, NetSuite status, date range, promo, search), sorting,
 * paging with a capped total, and the bulk retry of a selection of failed syncs (audited per order).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderSummarySchema } from '@nh/shared/contracts/admin';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const STORE = `O${randomUUID().slice(0, 6).toUpperCase()}`;
let api: TestApi;
let staff: StaffClient;
const ids: Record<string, string> = {};

async function insert(key: string, f: { total: string; createdAt: string; status?: string; netsuite?: string; promo?: string | null; name?: string }) {
  const { rows } = await api.ctx.db.$client.query<{ id: string }>(
    `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, promo_code, status, netsuite_sync_status, created_at)
     values ($1, $2, $3, '{"address":"1 Main St","city":"Portland","state":"OR","zip":"97201"}', '[]', $4, '0', '0', $4, $5, $6, $7, $8) returning id`,
    [STORE, `${key}@example.com`, f.name ?? `Customer ${key}`, f.total, f.promo ?? null, f.status ?? 'processing', f.netsuite ?? 'synced', f.createdAt],
  );
  ids[key] = rows[0]!.id;
}

beforeAll(async () => {
  api = await startTestApi();
  staff = await signInAs(api, 'manager');
  await insert('a', { total: '10.00', createdAt: '2026-03-01T10:00:00Z', promo: 'SPRING', netsuite: 'failed' });
  await insert('b', { total: '55.00', createdAt: '2026-03-02T10:00:00Z', status: 'shipped' });
  await insert('c', { total: '30.00', createdAt: '2026-03-03T23:59:00Z', promo: 'SPRING', netsuite: 'failed', name: 'Zed Quartz' });
  await insert('d', { total: '20.00', createdAt: '2026-03-04T00:00:00Z', netsuite: 'pending' });
  await insert('e', { total: '40.00', createdAt: '2026-03-05T10:00:00Z', netsuite: 'failed' });
});
afterAll(() => api.close());

async function list(filters: Record<string, unknown>) {
  const res = await staff.request('/api/admin/orders', { method: 'POST', body: { storeCode: STORE, ...filters } });
  expect(res.status).toBe(200);
  const orders = adminOrderSummarySchema.array().parse(await res.json());
  return { keys: orders.map((o) => Object.entries(ids).find(([, id]) => id === o.id)?.[0]), total: Number(res.headers.get('x-total-count')), capped: res.headers.get('x-total-capped'), orders };
}

describe('the order table', () => {
  it('filters by status, NetSuite status, promo code (any case) and search', async () => {
    expect((await list({ status: 'shipped' })).keys).toEqual(['b']);
    expect((await list({ netsuiteStatus: 'failed' })).keys).toEqual(['e', 'c', 'a']);
    expect((await list({ promo: 'spring' })).keys).toEqual(['c', 'a']);
    expect((await list({ search: 'quartz' })).keys).toEqual(['c']);
    expect((await list({ search: 'ZED Q' })).keys).toEqual(['c']);
    expect((await list({ search: 'e@example' })).keys).toEqual(['e']);
    expect((await list({ search: ids.d!.slice(0, 8) })).keys).toEqual(['d']);
    expect((await list({ search: ids.d!.slice(0, 13).toUpperCase() })).keys).toEqual(['d']);
    expect((await list({ netsuiteStatus: 'failed', promo: 'SPRING', status: 'all' })).keys).toEqual(['c', 'a']);
    const { orders } = await list({ promo: 'SPRING' });
    expect(orders[0]).toMatchObject({ promoCode: 'SPRING', netsuiteSyncStatus: 'failed' });
  });

  it('filters by UTC days, both ends included', async () => {
    expect((await list({ from: '2026-03-02', to: '2026-03-03' })).keys).toEqual(['c', 'b']);
    expect((await list({ from: '2026-03-04' })).keys).toEqual(['e', 'd']);
    expect((await list({ to: '2026-03-01' })).keys).toEqual(['a']);
  });

  it('sorts by date or total either way, and pages with the total in a header', async () => {
    expect((await list({ sort: 'total', direction: 'desc' })).keys).toEqual(['b', 'e', 'c', 'd', 'a']);
    expect((await list({ sort: 'total', direction: 'asc' })).keys).toEqual(['a', 'd', 'c', 'e', 'b']);
    expect((await list({ sort: 'createdAt', direction: 'asc' })).keys).toEqual(['a', 'b', 'c', 'd', 'e']);
    const page = await list({ limit: 2, offset: 2 });
    expect(page.keys).toEqual(['c', 'b']);
    expect(page.total).toBe(5);
    expect(page.capped).toBe('false');
  });

  it('answers 400 with a message for a bad filter', async () => {
    for (const [body, message] of [
      [{ from: '2026-13-45' }, 'Dates must be written as yyyy-mm-dd.'],
      [{ from: '2026-03-05', to: '2026-03-01' }, 'The "from" date must be on or before the "to" date.'],
      [{ netsuiteStatus: 'lost' }, 'NetSuite status must be pending, synced, failed or not configured'],
      [{ sort: 'customerEmail' }, 'Sort by createdAt or total'],
    ] as const) {
      const res = await staff.request('/api/admin/orders', { method: 'POST', body: { storeCode: STORE, ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ message });
    }
  });

  it('retries a selection of failed syncs only, each order audited', async () => {
    const res = await staff.request('/api/admin/sync/retry-failed', { method: 'POST', body: { storeCode: STORE, orderIds: [ids.a, ids.b, ids.e] } });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ retried: 2 });
    expect((await list({ netsuiteStatus: 'failed' })).keys).toEqual(['c']);
    const owner = await signInAs(api, 'owner');
    const audit = (await (await owner.request(`/api/admin/audit?entityType=order&entityId=${ids.e}`)).json()) as { entries: Array<{ action: string; actorEmail: string }> };
    expect(audit.entries[0]).toMatchObject({ action: 'sync.replayed_failed', actorEmail: staff.email });
    const none = await staff.request('/api/admin/sync/retry-failed', { method: 'POST', body: { storeCode: STORE, orderIds: [] } });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ message: 'Select at least one order' });
  });
});
