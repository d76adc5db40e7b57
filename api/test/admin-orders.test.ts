import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderSchema, adminOrderSummarySchema } from '@nh/shared/contracts/admin';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const STORE = `T${randomUUID().slice(0, 6).toUpperCase()}`;
let api: TestApi;
/** A signed-in staff member whose role may use every route of this file. */
let staff: StaffClient;

const call = (method: string, path: string, body: Record<string, unknown> = {}) =>
  staff.request(path, { method, body: { storeCode: STORE, ...body } });

interface Seeded {
  id: string;
  name: string;
  email: string;
}

async function insertOrder(fields: { name: string; email: string; status?: string; createdAt?: string; storeCode?: string; extra?: boolean; items?: unknown[] }): Promise<Seeded> {
  const { rows } = await api.ctx.db.$client.query<{ id: string }>(
    `insert into orders (store_code, customer_email, customer_name, customer_phone, shipping_address, billing_address, items,
                         subtotal, discount, promo_discount, shipping, tax, total, promo_code, status, customer_notes, payment_transaction_id, created_at)
     values ($1, $2, $3, $4, '{"address":"1 Main St","city":"Portland","state":"OR","zip":"97201"}', $5, $6,
             '40.00', '4.00', '4.00', '9.99', '2.88', '48.87', $7, $8, $9, $10, $11) returning id`,
    [
      fields.storeCode ?? STORE,
      fields.email,
      fields.name,
      fields.extra ? '555-0100' : null,
      fields.extra ? JSON.stringify({ address: '9 Bill Rd', city: 'Salem', state: 'OR', zip: '97301' }) : null,
      JSON.stringify(fields.items ?? [{ productId: 1, productName: 'Surfy', variantSku: null, sku: 'S-1', itemNumber: null, quantity: 2, price: '20.00' }]),
      fields.extra ? 'WELCOME10' : null,
      fields.status ?? 'pending',
      fields.extra ? 'Leave at the door' : null,
      fields.extra ? 'txn-123' : null,
      fields.createdAt ?? new Date().toISOString(),
    ],
  );
  return { id: rows[0]!.id, name: fields.name, email: fields.email };
}

let ada: Seeded, bob: Seeded, cy: Seeded, other: Seeded;
beforeAll(async () => {
  api = await startTestApi();
  staff = await signInAs(api, 'manager');
  ada = await insertOrder({ name: 'Ada Lovelace', email: 'ada@example.com', createdAt: '2026-01-01T10:00:00Z', extra: true });
  bob = await insertOrder({ name: 'Bob Stone', email: 'bob@shop.test', status: 'shipped', createdAt: '2026-01-02T10:00:00Z' });
  cy = await insertOrder({ name: 'Cy Young', email: 'cy_100%@example.com', status: 'shipped', createdAt: '2026-01-03T10:00:00Z' });
  other = await insertOrder({ name: 'Ada Elsewhere', email: 'ada@other.test', storeCode: 'OTHER' });
});
afterAll(() => api.close());

const ids = async (res: Response) => adminOrderSummarySchema.array().parse(await res.json()).map((o) => o.id);

describe('admin orders API', () => {
  it("lists the store's orders newest first, with totals as 2-decimal strings", async () => {
    const res = await call('POST', '/api/admin/orders');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    const list = adminOrderSummarySchema.array().parse(await res.json());
    expect(list.map((o) => o.id)).toEqual([cy.id, bob.id, ada.id]);
    expect(list[2]).toEqual({
      id: ada.id,
      customerName: 'Ada Lovelace',
      customerEmail: 'ada@example.com',
      total: '48.87',
      status: 'pending',
      createdAt: '2026-01-01T10:00:00.000Z',
      trackingNumber: null,
      carrier: null,
      netsuiteSyncStatus: 'pending',
      promoCode: 'WELCOME10',
      paymentState: 'unpaid',
      refunded: '0.00',
    });
    expect(await ids(await call('POST', '/api/admin/orders', { storeCode: 'OTHER' }))).toEqual([other.id]);
  });

  it('filters by status and searches id prefix, name and e-mail (wildcards are literal)', async () => {
    expect(await ids(await call('POST', '/api/admin/orders', { status: 'shipped' }))).toEqual([cy.id, bob.id]);
    expect(await ids(await call('POST', '/api/admin/orders', { status: 'all' }))).toHaveLength(3);
    expect(await ids(await call('POST', '/api/admin/orders', { search: 'ada' }))).toEqual([ada.id]);
    expect(await ids(await call('POST', '/api/admin/orders', { search: 'SHOP.TEST' }))).toEqual([bob.id]);
    expect(await ids(await call('POST', '/api/admin/orders', { search: bob.id.slice(0, 8).toUpperCase() }))).toEqual([bob.id]);
    expect(await ids(await call('POST', '/api/admin/orders', { search: '100%' }))).toEqual([cy.id]);
    expect(await ids(await call('POST', '/api/admin/orders', { search: '%' }))).toEqual([cy.id]);
    expect(await ids(await call('POST', '/api/admin/orders', { search: 'stone', status: 'pending' }))).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    const res = await call('POST', '/api/admin/orders', { limit: 2, offset: 1 });
    expect(await ids(res)).toEqual([bob.id, ada.id]);
    expect(res.headers.get('x-total-count')).toBe('3');
  });

  it.each([
    [{ storeCode: '' }, 'Please enter a valid store code.'],
    [{ storeCode: 'X'.repeat(11) }, 'Please enter a valid store code.'],
    [{ status: 'lost' }, 'Status must be pending, processing, shipped, delivered or cancelled'],
    [{ search: 'x'.repeat(201) }, 'Search must be at most 200 characters'],
    [{ limit: 101 }, 'Limit must be a whole number from 1 to 100'],
    [{ offset: -1 }, 'Offset must be a whole number of at least 0'],
  ])('answers 400 for a list with %j', async (body, message) => {
    const res = await call('POST', '/api/admin/orders', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message });
  });

  it('refuses the list without a staff session', async () => {
    const res = await api.request('/api/admin/orders', { method: 'POST', body: { storeCode: STORE } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Please sign in to the back office.', code: 'STAFF_SIGN_IN_REQUIRED' });
  });

  it('answers the detail of an order of the store', async () => {
    const res = await call('POST', `/api/admin/orders/${ada.id}`);
    expect(res.status).toBe(200);
    expect(adminOrderSchema.parse(await res.json())).toMatchObject({
      id: ada.id,
      customerPhone: '555-0100',
      shippingAddress: { address: '1 Main St', city: 'Portland', state: 'OR', zip: '97201' },
      billingAddress: { address: '9 Bill Rd', city: 'Salem', state: 'OR', zip: '97301' },
      items: [{ productName: 'Surfy', quantity: 2, price: '20.00' }],
      subtotal: '40.00',
      discount: '4.00',
      subscribeDiscount: '0.00',
      promoDiscount: '4.00',
      shipping: '9.99',
      tax: '2.88',
      total: '48.87',
      promoCode: 'WELCOME10',
      customerNotes: 'Leave at the door',
      paymentTransactionId: 'txn-123',
      deliveredDate: null,
    });
    const plain = adminOrderSchema.parse(await (await call('POST', `/api/admin/orders/${bob.id}`)).json());
    expect(plain).toMatchObject({ customerPhone: null, billingAddress: null, promoCode: null, customerNotes: null, paymentTransactionId: null, subscriptionId: null, subscriptionSkippedPeriods: [] });
  });

  it('names the Subscribe & Save plan an order delivers, with its skipped periods', async () => {
    const { rows } = await api.ctx.db.$client.query<{ id: string }>(
      `insert into subscriptions (customer_email, customer_name, items, amount, next_billing_date) values ('plan@example.com', 'Plan Holder', '[]', '22.95', now()) returning id`,
    );
    const planId = rows[0]!.id;
    const delivery = await insertOrder({ name: 'Plan Holder', email: 'plan@example.com' });
    await api.ctx.db.$client.query('update orders set subscription_id = $1 where id = $2', [planId, delivery.id]);
    await api.ctx.db.$client.query(`insert into subscription_skipped_periods (subscription_id, billing_period, reason) values ($1, '2026-10-01', 'renewals-late')`, [planId]);
    // Its first delivery, with a promo code too: $40.00 less Subscribe & Save $6.00 and WELCOME10 $3.40 (issue 19).
    await api.ctx.db.$client.query(`update orders set discount = '9.40', subscribe_discount = '6.00', promo_discount = '3.40', promo_code = 'WELCOME10' where id = $1`, [delivery.id]);
    const order = adminOrderSchema.parse(await (await call('POST', `/api/admin/orders/${delivery.id}`)).json());
    expect(order.subscriptionId).toBe(planId);
    expect(order).toMatchObject({ discount: '9.40', subscribeDiscount: '6.00', promoDiscount: '3.40', promoCode: 'WELCOME10' });
    // …and the periods of that plan a late renewal skipped (also in the answer to a fulfilment update).
    expect(order.subscriptionSkippedPeriods).toEqual([{ period: '2026-10-01', reason: 'renewals-late' }]);
    const updated = adminOrderSchema.parse(await (await call('PATCH', `/api/admin/orders/${delivery.id}`, { carrier: 'UPS' })).json());
    expect(updated.subscriptionSkippedPeriods).toEqual(order.subscriptionSkippedPeriods);
  });

  it("answers 404 'Order not found' for unknown, malformed and other stores' ids", async () => {
    for (const id of [randomUUID(), 'not-a-uuid', other.id]) {
      const res = await call('POST', `/api/admin/orders/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Order not found', code: 'NOT_FOUND' });
      expect((await call('PATCH', `/api/admin/orders/${id}`, { status: 'shipped' })).status).toBe(404);
    }
  });

  it('updates status, carrier and tracking; delivered stamps deliveredDate, leaving delivered clears it', async () => {
    const before = adminOrderSchema.parse(await (await call('POST', `/api/admin/orders/${bob.id}`)).json());
    const shipped = await call('PATCH', `/api/admin/orders/${bob.id}`, { status: 'shipped', carrier: 'UPS', trackingNumber: ' 1Z999 ' });
    expect(shipped.status).toBe(200);
    const afterShip = adminOrderSchema.parse(await shipped.json());
    expect(afterShip).toMatchObject({ status: 'shipped', carrier: 'UPS', trackingNumber: '1Z999', deliveredDate: null });
    expect(new Date(afterShip.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());

    const delivered = adminOrderSchema.parse(await (await call('PATCH', `/api/admin/orders/${bob.id}`, { status: 'delivered', carrier: 'UPS', trackingNumber: '1Z999' })).json());
    expect(delivered.status).toBe('delivered');
    expect(Date.now() - new Date(delivered.deliveredDate!).getTime()).toBeLessThan(60_000);
    const again = adminOrderSchema.parse(await (await call('PATCH', `/api/admin/orders/${bob.id}`, { status: 'delivered', trackingNumber: '' })).json());
    expect(again).toMatchObject({ deliveredDate: delivered.deliveredDate, trackingNumber: null, carrier: 'UPS' });

    const cleared = adminOrderSchema.parse(await (await call('PATCH', `/api/admin/orders/${bob.id}`, { status: 'processing', carrier: '' })).json());
    expect(cleared).toMatchObject({ status: 'processing', carrier: null, deliveredDate: null });
    expect(await ids(await call('POST', '/api/admin/orders', { status: 'processing' }))).toEqual([bob.id]);
  });

  it('records one order.shipped outbox row on the change into shipped, none when a shipped order is saved again', async () => {
    const storeCode = `S${randomUUID().slice(0, 6).toUpperCase()}`;
    const order = await insertOrder({ name: 'Sid Shipped', email: 'sid@example.com', status: 'processing', storeCode });
    const shippedRows = async () =>
      (await api.ctx.db.$client.query<{ id: number }>(`select id from outbox where topic = 'order.shipped' and payload = $1::jsonb`, [JSON.stringify({ orderId: order.id })])).rows;

    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'processing', carrier: 'UPS', storeCode })).status).toBe(200);
    expect(await shippedRows()).toHaveLength(0);
    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'shipped', carrier: 'UPS', trackingNumber: '1Z999', storeCode })).status).toBe(200);
    expect(await shippedRows()).toHaveLength(1);
    // Saved again while shipped (tracking changed, or nothing at all): no second row.
    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'shipped', carrier: 'FedEx', trackingNumber: '7777', storeCode })).status).toBe(200);
    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { trackingNumber: '8888', storeCode })).status).toBe(200);
    expect(await shippedRows()).toHaveLength(1);

    // A refused update (unknown order of another store) writes nothing either.
    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'shipped', storeCode: STORE })).status).toBe(404);
    expect(await shippedRows()).toHaveLength(1);
  });

  it('cancels without restocking when staff say the goods are lost (restock: false), audited; reopening takes stock as usual', async () => {
    const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);
    const name = `Lost ${randomUUID().slice(0, 8)}`;
    const [product] = await q<{ id: number }>(`insert into products (name, slug, price, inventory) values ($1, $2, '20.00', 5) returning id`, [name, name.toLowerCase().replace(/\s+/g, '-')]);
    const stock = async () => (await q<{ inventory: number }>('select inventory from products where id = $1', [product!.id]))[0]!.inventory;
    const storeCode = `L${randomUUID().slice(0, 6).toUpperCase()}`;
    const order = await insertOrder({
      name: 'Lou Lost',
      email: 'lou@example.com',
      status: 'processing',
      items: [{ productId: product!.id, productName: name, variantSku: null, sku: null, itemNumber: null, quantity: 2, price: '20.00' }],
      storeCode,
    });
    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'cancelled', restock: false, storeCode })).status).toBe(200);
    expect(await stock()).toBe(5);
    const owner = await signInAs(api, 'owner');
    const audit = (await (await owner.request(`/api/admin/audit?entityType=order&entityId=${order.id}`)).json()) as { entries: Array<{ after: unknown }> };
    expect(audit.entries[0]!.after).toMatchObject({ status: 'cancelled', restocked: false });
    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'processing', storeCode })).status).toBe(200);
    expect(await stock()).toBe(3);
    const bad = await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'cancelled', restock: 'no', storeCode });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: 'Restock must be true or false' });
  });

  it('puts the stock back when an order is cancelled, and takes it again when it is reopened', async () => {
    const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);
    const name = `Restock ${randomUUID().slice(0, 8)}`;
    const [product] = await q<{ id: number }>(`insert into products (name, slug, price, inventory) values ($1, $2, '20.00', 5) returning id`, [name, name.toLowerCase().replace(/\s+/g, '-')]);
    const stock = async () => (await q<{ inventory: number }>('select inventory from products where id = $1', [product!.id]))[0]!.inventory;
    const line = (quantity: number) => ({ productId: product!.id, productName: name, variantSku: null, sku: null, itemNumber: null, quantity, price: '20.00' });
    // A store of its own, so the list tests above never see this order.
    const storeCode = `R${randomUUID().slice(0, 6).toUpperCase()}`;
    const order = await insertOrder({ name: 'Dee Cancel', email: 'dee@example.com', status: 'processing', items: [line(1), line(1)], storeCode });

    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'cancelled', storeCode })).status).toBe(200);
    expect(await stock()).toBe(7);
    // Cancelled again (another field changes): no second restock.
    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'cancelled', carrier: 'UPS', storeCode })).status).toBe(200);
    expect(await stock()).toBe(7);

    await q('update products set inventory = 1 where id = $1', [product!.id]);
    const refused = await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'processing', storeCode });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: `Not enough stock of "${name}" to reopen this order (1 left, 2 needed).` });
    expect(await stock()).toBe(1);
    expect(adminOrderSchema.parse(await (await call('POST', `/api/admin/orders/${order.id}`, { storeCode })).json()).status).toBe('cancelled');

    await q('update products set inventory = 5 where id = $1', [product!.id]);
    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'processing', storeCode })).status).toBe(200);
    expect(await stock()).toBe(3);
  });

  it('skips products deleted since the order when moving its stock, and refuses to reopen an order for a product not on sale', async () => {
    const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);
    const name = `Restock ${randomUUID().slice(0, 8)}`;
    const [product] = await q<{ id: number }>(`insert into products (name, slug, price, inventory) values ($1, $2, '20.00', 5) returning id`, [name, name.toLowerCase().replace(/\s+/g, '-')]);
    const stock = async () => (await q<{ inventory: number }>('select inventory from products where id = $1', [product!.id]))[0]!.inventory;
    const line = (productId: number) => ({ productId, productName: name, variantSku: null, sku: null, itemNumber: null, quantity: 1, price: '20.00' });
    const storeCode = `D${randomUUID().slice(0, 6).toUpperCase()}`;
    const order = await insertOrder({ name: 'Del Gone', email: 'del@example.com', status: 'processing', items: [line(product!.id), line(2_000_000_000)], storeCode });

    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'cancelled', storeCode })).status).toBe(200);
    expect(await stock()).toBe(6);
    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'processing', storeCode })).status).toBe(200);
    expect(await stock()).toBe(5);

    expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'cancelled', storeCode })).status).toBe(200);
    await q(`update products set status = 'inactive' where id = $1`, [product!.id]);
    const refused = await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'processing', storeCode });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'NOT_ENOUGH_STOCK', message: `"${name}" is not on sale, so this order cannot be reopened.`, productId: product!.id });
    expect(await stock()).toBe(6);
  });

  it.each([
    [{ status: 'lost' }, 'Status must be pending, processing, shipped, delivered or cancelled'],
    [{ carrier: 'Pigeon' }, 'Carrier must be empty or one of USPS, UPS, FedEx, DHL'],
    [{ trackingNumber: 'x'.repeat(101) }, 'Tracking number must be at most 100 characters'],
    [{ storeCode: 'TOO-LONG-CODE' }, 'Please enter a valid store code.'],
  ])('answers 400 for an update with %j', async (body, message) => {
    const res = await call('PATCH', `/api/admin/orders/${cy.id}`, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message });
  });

  it('lets fulfilment staff update an order and records who did it, with before and after', async () => {
    const fulfilment = await signInAs(api, 'fulfilment');
    const res = await fulfilment.request(`/api/admin/orders/${cy.id}`, { method: 'PATCH', body: { storeCode: STORE, carrier: 'UPS', trackingNumber: '1Z999' } });
    expect(res.status).toBe(200);
    const audit = await signInAs(api, 'owner');
    const page = (await (await audit.request(`/api/admin/audit?entityType=order&entityId=${cy.id}`)).json()) as { entries: Array<Record<string, unknown>> };
    expect(page.entries[0]).toMatchObject({
      action: 'order.updated',
      actorEmail: fulfilment.email,
      actorRole: 'fulfilment',
      after: { carrier: 'UPS', trackingNumber: '1Z999' },
      requestId: res.headers.get('x-request-id'),
    });
    expect(Object.keys(page.entries[0]!.before as object).sort()).toEqual(['carrier', 'trackingNumber']);
  });
});
