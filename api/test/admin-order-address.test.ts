/**
 * Issue 23, "Fix an unshipped order": PUT /api/admin/orders/{id}/address changes the shipping address of
 * an order not shipped (checked as checkout checks it), audited with the person and the before and after,
 * with one `order.address-corrected` outbox row (the corrected confirmation and the NetSuite sync) and
 * a synced order pending again; refused (409, nothing written) once shipped, delivered or cancelled.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderSchema } from '@nh/shared/contracts/admin';
import { ORDER_ADDRESS_MESSAGES } from '@nh/shared/contracts/admin-order-address';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const STORE = `A${randomUUID().slice(0, 6).toUpperCase()}`;
const OLD = { address: '1 Main St', city: 'Portland', state: 'OR', zip: '97201' };
const NEW = { address: '22 Elm Ave', city: 'Eugene', state: 'OR', zip: '97401' };

let api: TestApi;
let support: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
  support = await signInAs(api, 'support');
});
afterAll(() => api.close());

async function insertOrder(status: string, syncStatus = 'pending'): Promise<string> {
  const [row] = await q<{ id: string }>(
    `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status, netsuite_sync_status, netsuite_order_id)
     values ($1, 'moved@example.com', 'Maya Moved', $2, $3, '40.00', '9.99', '2.88', '52.87', $4, $5, $6) returning id`,
    [
      STORE,
      JSON.stringify(OLD),
      JSON.stringify([{ productId: 1, productName: 'Refill', variantSku: null, sku: 'R-1', itemNumber: null, quantity: 2, price: '20.00' }]),
      status,
      syncStatus,
      syncStatus === 'synced' ? '9001' : null,
    ],
  );
  return row!.id;
}

const put = (id: string, body: Record<string, unknown>, who: StaffClient = support) => who.request(`/api/admin/orders/${id}/address`, { method: 'PUT', body: { storeCode: STORE, ...body } });
const orderRow = (id: string) =>
  q<{ shipping_address: unknown; address_revision: number; netsuite_sync_status: string }>(`select shipping_address, address_revision, netsuite_sync_status from orders where id = $1`, [id]).then((r) => r[0]!);
const audits = (id: string) =>
  q<{ action: string; actor_email: string; actor_role: string; before: unknown; after: unknown }>(`select action, actor_email, actor_role, before, after from audit_events where entity_id = $1 order by id`, [id]);
const outboxOf = (id: string) => q<{ topic: string; payload: Record<string, unknown> }>(`select topic, payload from outbox where payload->>'orderId' = $1 order by id`, [id]);

describe('PUT /api/admin/orders/{id}/address', () => {
  it('changes the address of an unshipped order: audited with the person and the before and after, one outbox row, NetSuite pending again', async () => {
    const id = await insertOrder('processing', 'synced');
    const res = await put(id, { ...NEW, reason: '  Customer moved  ' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.changed).toBe(true);
    expect(adminOrderSchema.parse(body).shippingAddress).toEqual(NEW);

    expect(await orderRow(id)).toEqual({ shipping_address: NEW, address_revision: 1, netsuite_sync_status: 'pending' });
    const [audit, ...more] = await audits(id);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({
      action: 'order.address_changed',
      actor_role: 'support',
      before: { shippingAddress: OLD },
      after: { shippingAddress: NEW, reason: 'Customer moved' },
    });
    expect(audit!.actor_email).toMatch(/@/);
    const rows = await outboxOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.topic).toBe('order.address-corrected');
    expect(rows[0]!.payload).toEqual({ orderId: id, correctionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('the same address again changes nothing: no audit row, no email, no sync', async () => {
    const id = await insertOrder('pending');
    const res = await put(id, OLD);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { changed: boolean }).changed).toBe(false);
    expect((await orderRow(id)).address_revision).toBe(0);
    expect(await audits(id)).toEqual([]);
    expect(await outboxOf(id)).toEqual([]);
  });

  it('is refused with 409 and a clear message once the order has shipped, was delivered or is cancelled; nothing written', async () => {
    for (const [status, message] of [
      ['shipped', ORDER_ADDRESS_MESSAGES.shipped],
      ['delivered', ORDER_ADDRESS_MESSAGES.shipped],
      ['cancelled', ORDER_ADDRESS_MESSAGES.cancelled],
    ] as const) {
      const id = await insertOrder(status);
      const res = await put(id, NEW);
      expect(res.status, status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'ORDER_ADDRESS_LOCKED', message });
      expect((await orderRow(id)).shipping_address).toEqual(OLD);
      expect(await audits(id)).toEqual([]);
      expect(await outboxOf(id)).toEqual([]);
    }
  });

  it("refuses what checkout refuses with 400 and the field's message; an unknown order or another store's is 404", async () => {
    const id = await insertOrder('processing');
    const missing = await put(id, { ...NEW, city: '' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toBe('City is required');
    expect((await put(id, { ...NEW, zip: '974' })).status).toBe(400);
    expect((await put(id, { ...NEW, state: 'Oregon' })).status).toBe(400);
    expect((await put(id, { ...NEW, reason: 'x'.repeat(501) })).status).toBe(400);
    expect((await orderRow(id)).shipping_address).toEqual(OLD);
    expect((await put(randomUUID(), NEW)).status).toBe(404);
    expect((await put('not-an-id', NEW)).status).toBe(404);
    expect((await support.request(`/api/admin/orders/${id}/address`, { method: 'PUT', body: { storeCode: 'ELSEWHERE', ...NEW } })).status).toBe(404);
  });

  it('shows on the order timeline as the staff change, in words', async () => {
    const id = await insertOrder('processing');
    expect((await put(id, NEW)).status).toBe(200);
    const timeline = await support.request(`/api/admin/orders/${id}/timeline`, { method: 'POST', body: { storeCode: STORE } });
    expect(timeline.status).toBe(200);
    expect(JSON.stringify(await timeline.json())).toContain('Changed order shipping address');
  });
});
