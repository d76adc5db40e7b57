/** The product list's search and paging, and inventory adjustments with a reason (logged, audited, never below 0). */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryLogSchema } from '@nh/shared/contracts/admin-products';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const MARK = `inv${randomUUID().slice(0, 6)}`;
let api: TestApi;
let manager: StaffClient;
const ids: number[] = [];

beforeAll(async () => {
  api = await startTestApi();
  manager = await signInAs(api, 'manager');
  for (const [n, status] of [
    [1, 'active'],
    [2, 'inactive'],
    [3, 'active'],
  ] as const) {
    const { rows } = await api.ctx.db.$client.query<{ id: number }>(
      `insert into products (name, slug, price, inventory, status, sku, category_id) select $1, $2, '5.00', 10, $3, $4, min(id) from categories returning id`,
      [`${MARK} Product ${n}`, `${MARK}-${n}`, status, `SKU-${MARK}-${n}`],
    );
    ids.push(rows[0]!.id);
  }
});
afterAll(() => api.close());

const list = async (body: Record<string, unknown>) => {
  const res = await manager.request('/api/admin/products', { method: 'POST', body });
  expect(res.status).toBe(200);
  return { names: ((await res.json()) as Array<{ name: string }>).map((p) => p.name), total: Number(res.headers.get('x-total-count')) };
};

describe('the product list', () => {
  it('searches name, slug or SKU in any case, filters by status, and pages', async () => {
    expect(await list({ search: MARK.toUpperCase() })).toEqual({ names: [1, 2, 3].map((n) => `${MARK} Product ${n}`), total: 3 });
    expect((await list({ search: `sku-${MARK}-2` })).names).toEqual([`${MARK} Product 2`]);
    expect((await list({ search: MARK, status: 'active' })).names).toEqual([`${MARK} Product 1`, `${MARK} Product 3`]);
    expect(await list({ search: MARK, limit: 1, offset: 1 })).toEqual({ names: [`${MARK} Product 2`], total: 3 });
    // Without filters: every product, as the spec's list.
    expect((await list({})).names.length).toBeGreaterThanOrEqual(3);
  });
});

describe('inventory adjustments', () => {
  it('adds and takes stock with a reason, logged newest first and audited', async () => {
    const id = ids[0]!;
    const added = await manager.request(`/api/admin/products/${id}/inventory`, { method: 'POST', body: { delta: 5, reason: 'Delivery from the supplier' } });
    expect(added.status).toBe(200);
    expect(inventoryLogSchema.parse(await added.json())).toMatchObject({ inventory: 15, adjustments: [{ delta: 5, inventoryAfter: 15, reason: 'Delivery from the supplier', staffEmail: manager.email }] });
    const taken = inventoryLogSchema.parse(await (await manager.request(`/api/admin/products/${id}/inventory`, { method: 'POST', body: { delta: -3, reason: 'Damaged in transit' } })).json());
    expect(taken.inventory).toBe(12);
    expect(taken.adjustments.map((a) => a.delta)).toEqual([-3, 5]);

    const owner = await signInAs(api, 'owner');
    const audit = (await (await owner.request(`/api/admin/audit?entityType=product&entityId=${id}&action=product.inventory_adjusted`)).json()) as { entries: Array<{ before: unknown; after: unknown }> };
    expect(audit.entries[0]).toMatchObject({ before: { inventory: 15 }, after: { inventory: 12, reason: 'Damaged in transit' } });
  });

  it('logs a stock change made in the product form', async () => {
    const id = ids[2]!;
    expect((await manager.request(`/api/products/${id}`, { method: 'PUT', body: { inventory: 4 } })).status).toBe(200);
    const log = inventoryLogSchema.parse(await (await manager.request(`/api/admin/products/${id}/inventory`)).json());
    expect(log.adjustments[0]).toMatchObject({ delta: -6, inventoryAfter: 4, reason: 'Set in the product form' });
  });

  it('refuses going below 0, a change of 0, a missing reason, and support', async () => {
    const id = ids[1]!;
    for (const [body, message] of [
      [{ delta: -11, reason: 'Count' }, 'Stock cannot go below 0 (there are 10).'],
      [{ delta: 0, reason: 'Count' }, 'Change must be a whole number other than 0 (negative takes stock away)'],
      [{ delta: 1, reason: '  ' }, 'Please say why the stock changes (e.g. "Counted in the warehouse", "Damaged in transit")'],
    ] as const) {
      const res = await manager.request(`/api/admin/products/${id}/inventory`, { method: 'POST', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ message });
    }
    expect((await manager.request('/api/admin/products/2147483647/inventory', { method: 'POST', body: { delta: 1, reason: 'x' } })).status).toBe(404);
    const support = await signInAs(api, 'support');
    expect((await support.request(`/api/admin/products/${id}/inventory`, { method: 'POST', body: { delta: 1, reason: 'x' } })).status).toBe(403);
  });
});
