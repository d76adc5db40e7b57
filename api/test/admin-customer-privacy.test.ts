/**
 * Privacy requests on a customer (issue 23): export everything held as JSON, and anonymise (plans
 * cancelled first; personal fields replaced in orders, plans, the email log, reviews, notes and audit
 * details; orders, payments, totals and audit rows kept); owners and managers only, audited.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerDetailSchema } from '@nh/shared/contracts/admin-customers';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';
import { signUpShopper, type Shopper } from './support/shopper';
import { insertPlan } from './support/plans';

let api: TestApi;
let manager: StaffClient;
let support: StaffClient;
let shopper: Shopper;
let planId: string;
const orderIds: string[] = [];
const tag = randomBytes(3).toString('hex');
const phone = `+1 555 01${tag.slice(0, 2)}`;
const street = `${tag} Privet Drive`;

beforeAll(async () => {
  api = await startTestApi();
  [manager, support] = await Promise.all([signInAs(api, 'manager'), signInAs(api, 'support')]);
  shopper = await signUpShopper(api, `private${tag}`);
  const q = api.ctx.db.$client;
  for (const [userId, total] of [
    [shopper.id, '40.00'],
    [null, '25.50'],
  ] as const) {
    const { rows } = await q.query<{ id: string }>(
      `insert into orders (store_code, user_id, customer_email, customer_name, customer_phone, shipping_address, billing_address, items, subtotal, shipping, tax, total, status, customer_notes)
       values ('NH', $1, $2, 'Ada Lovelace', $3, $4, $4, '[]', $5, 0, 0, $5, 'delivered', 'Leave it with Ada Lovelace next door') returning id`,
      [userId, shopper.email, phone, JSON.stringify({ address: street, city: 'Little Whinging', state: 'IL', zip: '60601' }), total],
    );
    orderIds.push(rows[0]!.id);
  }
  await q.query(`insert into payment_transactions (order_id, amount, status, kind, card_last_four) values ($1, 40, 'approved', 'charge', '1111')`, [orderIds[0]]);
  planId = (await insertPlan(api, shopper.id)).id;
  await q.query(`update subscriptions set customer_email = $2 where id = $1`, [planId, shopper.email]);
  await q.query(`insert into email_log (kind, subject_id, to_address, status) values ('order-confirmation', $1, $2, 'sent')`, [orderIds[0], shopper.email.toUpperCase()]);
  await q.query(`insert into reviews (product_id, customer_name, customer_email, rating, comment) select min(id), 'Ada Lovelace', $1, 5, 'Lovely' from products`, [shopper.email]);
  // Staff's changes whose details hold personal values: an order note naming her, a plan address change.
  await manager.request(`/api/admin/orders/${orderIds[0]}/notes`, { method: 'POST', body: { body: `Ada Lovelace called from ${phone}` } });
  await q.query(
    `insert into audit_events (actor_email, action, entity_type, entity_id, before, after) values ('x@staff.test', 'subscription.address_changed', 'subscription', $1, $2, $3)`,
    [planId, JSON.stringify({ address: { address: '1 Old St' } }), JSON.stringify({ address: { address: street }, email: shopper.email })],
  );
});
afterAll(() => api.close());

describe('privacy requests', () => {
  it('exports everything held about the customer as JSON, audited; support may not', async () => {
    expect((await support.request(`/api/admin/customers/${shopper.id}/export`)).status).toBe(403);
    const res = await manager.request(`/api/admin/customers/${shopper.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="customer-${shopper.id.slice(0, 8)}.json"`);
    const data = (await res.json()) as Record<string, Array<Record<string, unknown>>> & { account: Record<string, unknown> };
    expect(data.account).toMatchObject({ id: shopper.id, email: shopper.email, first_name: 'Ada' });
    expect(data.account).not.toHaveProperty('password_hash');
    expect(data.orders!.map((o) => o.id).sort()).toEqual([...orderIds].sort());
    expect(data.subscriptions!.map((p) => p.id)).toEqual([planId]);
    expect(data.payments!.map((p) => p.card_last_four)).toEqual(['1111']);
    expect(data.emails).toHaveLength(1);
    expect(data.reviews).toHaveLength(1);
    expect(data.notes).toHaveLength(1);
    expect(data.audit!.length).toBeGreaterThanOrEqual(2);
    const { rows } = await api.ctx.db.$client.query(`select actor_email, after from audit_events where action = 'customer.exported' and entity_id = $1`, [shopper.id]);
    expect(rows).toEqual([{ actor_email: manager.email, after: { records: expect.objectContaining({ orders: 2, subscriptions: 1 }) } }]);
  });

  it('refuses without the email typed again, for support, and for an unknown customer', async () => {
    const wrong = await manager.request(`/api/admin/customers/${shopper.id}/anonymise`, { method: 'POST', body: { confirmEmail: 'someone@else.com' } });
    expect({ status: wrong.status, body: await wrong.json() }).toMatchObject({ status: 400, body: { message: 'Type the customer’s email to confirm.' } });
    expect((await manager.request(`/api/admin/customers/${shopper.id}/anonymise`, { method: 'POST', body: {} })).status).toBe(400);
    expect((await support.request(`/api/admin/customers/${shopper.id}/anonymise`, { method: 'POST', body: { confirmEmail: shopper.email } })).status).toBe(403);
    expect((await manager.request(`/api/admin/customers/00000000-0000-4000-8000-000000000000/anonymise`, { method: 'POST', body: { confirmEmail: 'a@b.c' } })).status).toBe(404);
  });

  it('anonymises: plans cancelled first, personal fields gone everywhere, orders, payments and totals kept', async () => {
    const q = api.ctx.db.$client;
    const before = customerDetailSchema.parse(await (await manager.request(`/api/admin/customers/${shopper.id}`)).json());
    expect(before).toMatchObject({ orderCount: 2, lifetimeSpend: 6550 });

    const res = await manager.request(`/api/admin/customers/${shopper.id}/anonymise`, { method: 'POST', body: { confirmEmail: ` ${shopper.email.toUpperCase()} ` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: shopper.id, cancelledPlans: 1, orders: 2, emails: 1 });

    const after = customerDetailSchema.parse(await (await manager.request(`/api/admin/customers/${shopper.id}`)).json());
    expect(after).toMatchObject({ anonymised: true, orderCount: 2, lifetimeSpend: 6550, email: `anonymised-${shopper.id}@anonymised.invalid`, name: 'Anonymised', phone: null });
    expect(after.plans).toEqual([expect.objectContaining({ id: planId, statusLabel: 'Cancelled', nextBillingDate: null })]);

    // No trace of her email, name, phone or street in any table that held them.
    const needles = [shopper.email, 'Lovelace', phone, street];
    const dumps = await q.query<{ t: string; dump: string }>(
      `select 'orders' as t, string_agg(o::text, ' ') as dump from orders o where id = any($1::uuid[])
       union all select 'subscriptions', string_agg(s::text, ' ') from subscriptions s where id = $2
       union all select 'email_log', string_agg(e::text, ' ') from email_log e where subject_id = $3
       union all select 'audit_events', string_agg(a.before::text || ' ' || a.after::text, ' ') from audit_events a where entity_id = any($4::text[])
       union all select 'users', string_agg(u::text, ' ') from users u where id = $5
       union all select 'customers', string_agg(c::text, ' ') from customers c where id = $5
       union all select 'customer_notes', string_agg(n::text, ' ') from customer_notes n where customer_id = $5
       union all select 'reviews', string_agg(r::text, ' ') from reviews r where comment = 'Lovely' and customer_email like 'anonymised-%'`,
      [orderIds, planId, orderIds[0], [...orderIds, planId, shopper.id], shopper.id],
    );
    for (const { t, dump } of dumps.rows) {
      expect(dump, t).toBeTruthy();
      for (const needle of needles) expect(dump.toLowerCase(), `${t} still holds ${needle}`).not.toContain(needle.toLowerCase());
    }
    // Orders, payments and totals kept; the note says what was said, without the person.
    const kept = await q.query(`select total::text, status, shipping_address->>'state' as state from orders where id = any($1::uuid[]) order by total`, [orderIds]);
    expect(kept.rows).toEqual([
      { total: '25.50', status: 'delivered', state: 'IL' },
      { total: '40.00', status: 'delivered', state: 'IL' },
    ]);
    expect((await q.query(`select count(*)::int as n from payment_transactions where order_id = $1`, [orderIds[0]])).rows[0]).toEqual({ n: 1 });
    expect(after.notes.map((n) => n.body)).toEqual(['Anonymised called from Anonymised']);
    const audit = await q.query(`select action, actor_email from audit_events where entity_id = any($1::text[]) and action in ('subscription.cancelled', 'customer.anonymised') order by id`, [[planId, shopper.id]]);
    expect(audit.rows).toEqual([
      { action: 'subscription.cancelled', actor_email: manager.email },
      { action: 'customer.anonymised', actor_email: manager.email },
    ]);
    // The account can no longer sign in, and a second request is refused.
    expect((await q.query(`select password_hash from users where id = $1`, [shopper.id])).rows[0]).toEqual({ password_hash: null });
    const again = await manager.request(`/api/admin/customers/${shopper.id}/anonymise`, { method: 'POST', body: { confirmEmail: after.email } });
    expect(again.status).toBe(409);
  });

  it('the audit trail stays append-only outside a privacy request', async () => {
    await expect(api.ctx.db.$client.query(`update audit_events set after = null where entity_id = $1`, [planId])).rejects.toThrow(/append-only/);
  });
});
