/**
 * Customers (issue 23): guests and accounts joined by email, the figures kept by the database as orders
 * are paid and refunded, the list (search by name, email, order id; sort; tag filter), a customer's page
 * as one timeline, notes on customers and orders, tags; roles and bad input.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerDetailSchema, customerListSchema, customerNoteSchema, orderNotesSchema } from '@nh/shared/contracts/admin-customers';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';
import { signUpShopper } from './support/shopper';
import { insertPlan } from './support/plans';

let api: TestApi;
let manager: StaffClient;
let support: StaffClient;
let fulfilment: StaffClient;
const tag = randomBytes(3).toString('hex');

beforeAll(async () => {
  api = await startTestApi();
  [manager, support, fulfilment] = await Promise.all([signInAs(api, 'manager'), signInAs(api, 'support'), signInAs(api, 'fulfilment')]);
});
afterAll(() => api.close());

type Queryable = { query: TestApi['ctx']['db']['$client']['query'] };

async function insertOrder(o: { email: string; name: string; total: string; status?: string; userId?: string | null; daysAgo?: number }, client: Queryable = api.ctx.db.$client): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `insert into orders (store_code, user_id, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status, created_at)
     values ('NH', $1, $2, $3, '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}', '[{"productId":1,"productName":"Flush","variantSku":null,"sku":null,"itemNumber":null,"quantity":2,"price":"5.00"}]',
       $4, 0, 0, $4, $5, now() - make_interval(days => $6)) returning id`,
    [o.userId ?? null, o.email, o.name, o.total, o.status ?? 'pending', o.daysAgo ?? 0],
  );
  return rows[0]!.id;
}

const list = async (client: StaffClient, query: string) => customerListSchema.parse(await (await client.request(`/api/admin/customers?${query}`)).json());
const detail = async (id: string) => {
  const res = await support.request(`/api/admin/customers/${id}`);
  expect(res.status).toBe(200);
  return customerDetailSchema.parse(await res.json());
};

describe('customers', () => {
  let guestEmail: string;
  let guestId: string;
  let firstOrder: string;
  let secondOrder: string;

  it('joins a guest’s orders by normalised email and keeps the figures as orders are paid and refunded', async () => {
    guestEmail = `guest.${tag}@example.com`;
    firstOrder = await insertOrder({ email: ` Guest.${tag}@Example.com `, name: `Gwen ${tag}`, total: '20.00', daysAgo: 3 });
    secondOrder = await insertOrder({ email: guestEmail, name: `Gwen Guest ${tag}`, total: '30.00', daysAgo: 1 });
    await insertOrder({ email: guestEmail, name: `Gwen Guest ${tag}`, total: '99.00', status: 'cancelled' });
    const [row] = (await list(support, `q=${encodeURIComponent(guestEmail)}`)).customers;
    expect(row).toMatchObject({ email: guestEmail, hasAccount: false, orderCount: 0, lifetimeSpend: 0 });
    guestId = row!.id;

    // Paid: the checkout's outcome moves pending orders to processing.
    await api.ctx.db.$client.query(`update orders set status = 'processing' where id = any($1::uuid[])`, [[firstOrder, secondOrder]]);
    await api.ctx.db.$client.query(`insert into payment_transactions (order_id, amount, status, kind, reason) values ($1, 5, 'approved', 'refund', 'Leaking refill')`, [firstOrder]);
    const c = await detail(guestId);
    expect(c).toMatchObject({ orderCount: 2, lifetimeSpend: 4500, refunded: 500, averageOrder: 2250, name: `Gwen Guest ${tag}` });
    expect(c.orders.map((o) => [o.id, o.statusLabel])).toEqual([
      [expect.any(String), 'Cancelled'],
      [secondOrder, 'Paid, being prepared'],
      [firstOrder, 'Paid, being prepared'],
    ]);
    expect(c.firstOrderAt! < c.lastOrderAt!).toBe(true);
    expect(c.timeline.find((e) => e.kind === 'refund')).toMatchObject({ title: `Refunded $5.00 of order ${firstOrder.slice(0, 8)}`, detail: 'Leaking refill' });
  });

  it('keeps the figures exact when orders of one customer are paid and refunded at once (10 connections)', async () => {
    const email = `busy.${tag}@example.com`;
    const ids = await Promise.all(Array.from({ length: 10 }, () => insertOrder({ email, name: 'Busy Bee', total: '10.00' })));
    // Each paid in its own transaction on its own connection, all at once, and a refund beside each.
    await Promise.all(
      ids.map(async (id) => {
        const client = await api.ctx.db.$client.connect();
        try {
          await client.query('begin');
          await client.query(`update orders set status = 'processing' where id = $1`, [id]);
          await client.query(`insert into payment_transactions (order_id, amount, status, kind) values ($1, 1, 'approved', 'refund')`, [id]);
          await client.query('commit');
        } finally {
          client.release();
        }
      }),
    );
    const [c] = (await list(support, `q=${email}`)).customers;
    expect(c).toMatchObject({ orderCount: 10, lifetimeSpend: 9000 });
  });

  it('two checkouts of one customer at once, each reserving then paying in its own transaction, do not deadlock', async () => {
    const email = `twotabs.${tag}@example.com`;
    await insertOrder({ email, name: 'Two Tabs', total: '1.00', status: 'delivered' }); // the customer row exists
    const [a, b] = [await api.ctx.db.$client.connect(), await api.ctx.db.$client.connect()];
    try {
      await a.query('begin');
      await b.query('begin');
      // Both reserve (the order's foreign key holds a KEY SHARE lock on the customer row until commit)…
      const ids = [await insertOrder({ email, name: 'Two Tabs', total: '10.00' }, a), await insertOrder({ email, name: 'Two Tabs', total: '20.00' }, b)];
      // …then both are paid: each refresh of the customer's figures locks its row. A's lock must not wait
      // for B's KEY SHARE (with FOR UPDATE it did: then B's refresh waited for A, a deadlock); the timeout
      // makes such a wait fail here instead of hanging.
      await a.query(`set local lock_timeout = '5s'`);
      await a.query(`update orders set status = 'processing' where id = $1`, [ids[0]]);
      const paidB = b.query(`update orders set status = 'processing' where id = $1`, [ids[1]]); // waits for A's commit
      await a.query('commit');
      await paidB;
      await b.query('commit');
    } finally {
      a.release();
      b.release();
    }
    const [c] = (await list(support, `q=${email}`)).customers;
    expect(c).toMatchObject({ orderCount: 3, lifetimeSpend: 3100 });
  });

  it('finds customers by name, email and order id; sorts by lifetime spend; refuses bad input with words', async () => {
    expect((await list(support, `q=${encodeURIComponent(`gwen guest ${tag}`)}`)).customers.map((c) => c.id)).toEqual([guestId]);
    expect((await list(support, `q=${secondOrder.slice(0, 13)}`)).customers.map((c) => c.id)).toContain(guestId);
    const big = await insertOrder({ email: `big.${tag}@example.com`, name: `Big ${tag}`, total: '9000.00', status: 'delivered' });
    const bySpend = await list(support, 'sort=spend');
    expect(bySpend.customers[0]).toMatchObject({ email: `big.${tag}@example.com`, lifetimeSpend: 900_000 });
    expect(bySpend.customers.some((c) => c.id === guestId) || bySpend.hasMore).toBe(true);
    expect((await list(support, `q=${big.slice(0, 8)}`)).customers.map((c) => c.email)).toContain(`big.${tag}@example.com`);

    for (const [query, message] of [
      ['sort=name', 'Sort must be lastOrder or spend'],
      ['page=0', 'Page must be a whole number from 1 to 10000'],
      ['tag=%21%21', 'A tag is 1 to 30 letters, digits, spaces or dashes'],
    ] as const) {
      const res = await support.request(`/api/admin/customers?${query}`);
      expect({ status: res.status, message: ((await res.json()) as { message: string }).message }).toEqual({ status: 400, message });
    }
    expect((await support.request('/api/admin/customers/not-a-uuid')).status).toBe(404);
    expect((await support.request('/api/admin/customers/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('makes the guest the account’s customer when an account takes the email (id = the account’s, the old link still works)', async () => {
    const shopper = await signUpShopper(api, `joined${tag}`);
    await insertOrder({ email: `other.${tag}@example.com`, name: 'Ada Lovelace', total: '12.00', status: 'shipped', userId: shopper.id });
    const plan = await insertPlan(api, shopper.id, { dueInDays: 5 });
    const c = await detail(shopper.id);
    expect(c).toMatchObject({ id: shopper.id, hasAccount: true, orderCount: 1, lifetimeSpend: 1200, email: shopper.email });
    expect(c.plans).toEqual([expect.objectContaining({ id: plan.id, statusLabel: 'Active', nextBillingDate: plan.nextBillingDate.toISOString(), everyMonths: 1 })]);

    // A guest who later signs up: the account takes over the guest's row.
    const email = `later.${tag}@example.com`;
    await insertOrder({ email, name: 'Lee Later', total: '15.00', status: 'delivered' });
    const [guest] = (await list(support, `q=${email}`)).customers;
    const res = await api.request('/api/register', { body: { firstName: 'Lee', lastName: 'Later', email, password: 'correct horse battery' } });
    const { user } = (await res.json()) as { user: { id: string } };
    const joined = await detail(user.id);
    expect(joined).toMatchObject({ id: user.id, hasAccount: true, orderCount: 1, lifetimeSpend: 1500 });
    expect((await detail(guest!.id)).id).toBe(user.id);
  });

  it('notes on a customer and on an order: author and time, on both pages, audited; bad input refused', async () => {
    const note = customerNoteSchema.parse(await (await support.request(`/api/admin/customers/${guestId}/notes`, { method: 'POST', body: { body: 'Called, reship approved' } })).json());
    expect(note).toMatchObject({ body: 'Called, reship approved', orderId: null, author: 'Test support' });
    const onOrder = await support.request(`/api/admin/orders/${firstOrder}/notes`, { method: 'POST', body: { body: '  Refill arrived leaking  ' } });
    expect(onOrder.status).toBe(201);
    expect(await onOrder.json()).toMatchObject({ body: 'Refill arrived leaking', orderId: firstOrder });

    const orderPage = orderNotesSchema.parse(await (await fulfilment.request(`/api/admin/orders/${firstOrder}/notes`)).json());
    expect(orderPage.notes.map((n) => n.body)).toEqual(['Refill arrived leaking']);
    expect(orderPage.customerId).toBe(guestId);
    const c = await detail(guestId);
    expect(c.notes.map((n) => n.body)).toEqual(['Refill arrived leaking', 'Called, reship approved']);
    expect(c.timeline.filter((e) => e.kind === 'note').map((e) => [e.title, e.by])).toEqual([
      [`Note on order ${firstOrder.slice(0, 8)}`, 'Test support'],
      ['Note', 'Test support'],
    ]);

    const { rows } = await api.ctx.db.$client.query<{ action: string; entity_type: string; actor_email: string }>(
      `select action, entity_type, actor_email from audit_events where entity_id = any($1::text[]) and action like '%note_added' order by id`,
      [[guestId, firstOrder]],
    );
    expect(rows).toEqual([
      { action: 'customer.note_added', entity_type: 'customer', actor_email: support.email },
      { action: 'order.note_added', entity_type: 'order', actor_email: support.email },
    ]);

    for (const [path, body, status, message] of [
      [`/api/admin/customers/${guestId}/notes`, { body: '   ' }, 400, 'Please write the note.'],
      [`/api/admin/customers/${guestId}/notes`, { body: 'x'.repeat(2001) }, 400, 'A note is at most 2000 characters'],
      [`/api/admin/customers/${guestId}/notes`, {}, 400, 'Please write the note.'],
      ['/api/admin/orders/00000000-0000-4000-8000-000000000000/notes', { body: 'hi' }, 404, 'Order not found'],
      ['/api/admin/customers/00000000-0000-4000-8000-000000000000/notes', { body: 'hi' }, 404, 'Customer not found'],
    ] as const) {
      const res = await support.request(path, { method: 'POST', body });
      expect({ status: res.status, message: ((await res.json()) as { message: string }).message }).toEqual({ status, message });
    }
  });

  it('tags a customer (audited, filterable); the same set again records nothing', async () => {
    const put = (tags: unknown) => support.request(`/api/admin/customers/${guestId}/tags`, { method: 'PUT', body: { tags } });
    const res = await put([`VIP ${tag}`, 'leak  claim', `vip ${tag}`]);
    expect(await res.json()).toEqual({ tags: ['leak claim', `vip ${tag}`].sort() });
    await put(['leak claim', `vip ${tag}`]);
    expect((await list(support, `tag=${encodeURIComponent(`vip ${tag}`)}`)).customers.map((c) => c.id)).toEqual([guestId]);
    const { rows } = await api.ctx.db.$client.query(`select before, after from audit_events where entity_id = $1 and action = 'customer.tags_changed'`, [guestId]);
    expect(rows).toEqual([{ before: { tags: [] }, after: { tags: ['leak claim', `vip ${tag}`].sort() } }]);
    expect((await detail(guestId)).timeline.find((e) => e.kind === 'audit')).toMatchObject({ title: 'Changed a customer’s tags', by: support.email });

    expect((await put('vip')).status).toBe(400);
    expect((await put(Array.from({ length: 21 }, (_, i) => `t${i}`))).status).toBe(400);
  });

  it('emails an account a sign-in code (never shown to staff) and merges its guest orders once the email is proven', async () => {
    const q = api.ctx.db.$client;
    const email = `merge.${tag}@example.com`;
    const guestOrder = await insertOrder({ email, name: 'Mo Merge', total: '18.00', status: 'delivered' });
    const res = await api.request('/api/register', { body: { firstName: 'Mo', lastName: 'Merge', email, password: 'correct horse battery' } });
    const { user } = (await res.json()) as { user: { id: string } };

    const notVerified = await support.request(`/api/admin/customers/${user.id}/merge-guest-orders`, { method: 'POST', body: {} });
    expect({ status: notVerified.status, message: ((await notVerified.json()) as { message: string }).message }).toEqual({
      status: 409,
      message: 'The account has not proved it holds this email yet. Send the customer a sign-in code; once they have signed in with it, merge again.',
    });

    const sent = await support.request(`/api/admin/customers/${user.id}/sign-in-code`, { method: 'POST', body: {} });
    expect(sent.status).toBe(202);
    const answer = JSON.stringify(await sent.json());
    expect(answer).toContain('A sign-in code is on its way');
    const { rows: codes } = await q.query<{ id: string; email: string }>(`select id, email from sign_in_codes where user_id = $1`, [user.id]);
    expect(codes.map((c) => c.email)).toEqual([email]);
    const { rows: outbox } = await q.query(`select payload from outbox where topic = 'shopper.sign-in-code-requested' and payload->>'codeId' = $1`, [codes[0]!.id]);
    expect(outbox).toEqual([{ payload: { codeId: codes[0]!.id } }]);
    expect((await q.query(`select actor_email from audit_events where entity_id = $1 and action = 'customer.sign_in_code_sent'`, [user.id])).rows).toEqual([{ actor_email: support.email }]);
    const guest = await support.request(`/api/admin/customers/${guestId}/sign-in-code`, { method: 'POST', body: {} });
    expect(guest.status).toBe(409);

    // The customer signs in with the code (as the shoppers' flow marks it used): the email is proven.
    await q.query(`update sign_in_codes set used_at = now() where id = $1`, [codes[0]!.id]);
    const merged = await support.request(`/api/admin/customers/${user.id}/merge-guest-orders`, { method: 'POST', body: {} });
    expect(await merged.json()).toEqual({ merged: [guestOrder] });
    expect((await q.query(`select user_id from orders where id = $1`, [guestOrder])).rows).toEqual([{ user_id: user.id }]);
    expect((await support.request(`/api/admin/customers/${user.id}/merge-guest-orders`, { method: 'POST', body: {} })).status).toBe(409);
    expect((await detail(user.id)).timeline.map((e) => e.title)).toContain('Merged a customer’s guest orders into their account');
  });

  it('is for owners, managers and support; fulfilment sees the order notes but not the customers', async () => {
    expect((await fulfilment.request('/api/admin/customers')).status).toBe(403);
    expect((await fulfilment.request(`/api/admin/customers/${guestId}`)).status).toBe(403);
    expect((await fulfilment.request(`/api/admin/orders/${firstOrder}/notes`, { method: 'POST', body: { body: 'x' } })).status).toBe(403);
    expect((await manager.request('/api/admin/customers')).status).toBe(200);
    expect((await api.request('/api/admin/customers')).status).toBe(401);
  });
});
