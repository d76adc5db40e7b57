/** An order's timeline (placed, paid, emails, NetSuite requests, staff actions, in order and in words) and resending its emails. */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderTimelineSchema, RESEND_MESSAGES } from '@nh/shared/contracts/order-timeline';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const STORE = `L${randomUUID().slice(0, 6).toUpperCase()}`;
let api: TestApi;
let fulfilment: StaffClient;
let orderId: string;

beforeAll(async () => {
  api = await startTestApi();
  fulfilment = await signInAs(api, 'fulfilment');
  const q = (text: string, values: unknown[]) => api.ctx.db.$client.query(text, values);
  const { rows } = await api.ctx.db.$client.query<{ id: string }>(
    `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status, created_at)
     values ($1, 'tl@example.com', 'Tim Line', '{"address":"1 Main St","city":"Portland","state":"OR","zip":"97201"}', '[]', '40.00', '0', '0', '40.00', 'processing', now() - interval '1 hour') returning id`,
    [STORE],
  );
  orderId = rows[0]!.id;
  await q(
    `insert into payment_transactions (order_id, amount, status, kind, card_type, card_last_four, created_at) values ($1, '40.00', 'approved', 'charge', 'Visa', '1111', now() - interval '59 minutes')`,
    [orderId],
  );
  await q(`insert into email_log (kind, subject_id, to_address, status, created_at, sent_at) values ('order-confirmation', $1, 'tl@example.com', 'sent', now() - interval '58 minutes', now() - interval '58 minutes')`, [orderId]);
  await q(
    `insert into netsuite_sync_attempts (order_id, at, record, outcome, http_status, error_code, error_detail, duration_ms) values
       ($1, now() - interval '57 minutes', 'salesOrder', 'failed', 429, 'CONCURRENCY_LIMIT_EXCEEDED', 'Too many requests', 210),
       ($1, now() - interval '56 minutes', 'salesOrder', 'ok', 204, null, null, 180)`,
    [orderId],
  );
});
afterAll(() => api.close());

const timeline = async (client: StaffClient) => orderTimelineSchema.parse(await (await client.request(`/api/admin/orders/${orderId}/timeline`, { method: 'POST', body: { storeCode: STORE } })).json());

describe('the order timeline', () => {
  it('lists placed, paid, emails, NetSuite requests and staff changes, oldest first, in words', async () => {
    expect((await fulfilment.request(`/api/admin/orders/${orderId}`, { method: 'PATCH', body: { storeCode: STORE, status: 'shipped', carrier: 'UPS', trackingNumber: '1Z1' } })).status).toBe(200);
    const { events } = await timeline(fulfilment);
    expect(events.map((e) => [e.kind, e.title])).toEqual([
      ['placed', 'Order placed'],
      ['payment', 'Paid $40.00'],
      ['email', 'Confirmation email sent'],
      ['sync', 'NetSuite sales order: failed (429)'],
      ['sync', 'NetSuite sales order: saved (204)'],
      ['staff', 'Updated order'],
    ]);
    expect(events[1]).toMatchObject({ detail: 'Visa ending 1111', problem: false });
    expect(events[3]).toMatchObject({ detail: 'CONCURRENCY_LIMIT_EXCEEDED · Too many requests · 210 ms', problem: true });
    expect(events[5]).toMatchObject({ actor: fulfilment.email, detail: expect.stringContaining('status: processing → shipped') });
  });

  it('sends an email again: a new outbox row, audited, shown on the timeline', async () => {
    const res = await fulfilment.request(`/api/admin/orders/${orderId}/emails`, { method: 'POST', body: { storeCode: STORE, email: 'shipping' } });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ queued: true, message: RESEND_MESSAGES.queued });
    const outbox = await api.ctx.db.execute<{ payload: { orderId: string; resendId: string } }>(sql`select payload from outbox where topic = 'order.shipped-resend-requested' and payload->>'orderId' = ${orderId}`);
    expect(outbox.rows).toHaveLength(1);
    expect(outbox.rows[0]!.payload.resendId).toMatch(/^[0-9a-f-]{36}$/);
    const { events } = await timeline(fulfilment);
    expect(events.at(-1)).toMatchObject({ kind: 'staff', title: 'Sent an email again', actor: fulfilment.email });
  });

  it('refuses a shipping notice for an order not shipped, an unknown email and an unknown order', async () => {
    const { rows } = await api.ctx.db.$client.query<{ id: string }>(
      `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status)
       values ($1, 'n@example.com', 'N', '{"address":"1 Main St","city":"Portland","state":"OR","zip":"97201"}', '[]', '1.00', '0', '0', '1.00', 'processing') returning id`,
      [STORE],
    );
    const notShipped = await fulfilment.request(`/api/admin/orders/${rows[0]!.id}/emails`, { method: 'POST', body: { storeCode: STORE, email: 'shipping' } });
    expect(notShipped.status).toBe(409);
    expect(await notShipped.json()).toMatchObject({ code: 'ORDER_NOT_SHIPPED', message: RESEND_MESSAGES.notShipped });
    const bad = await fulfilment.request(`/api/admin/orders/${orderId}/emails`, { method: 'POST', body: { storeCode: STORE, email: 'invoice' } });
    expect(bad.status).toBe(400);
    expect((await fulfilment.request(`/api/admin/orders/${randomUUID()}/timeline`, { method: 'POST', body: { storeCode: STORE } })).status).toBe(404);
  });
});
