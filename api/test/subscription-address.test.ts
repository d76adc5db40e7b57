/**
 * A plan's delivery address (issue 21, "Address"): PUT /api/subscriptions/{id}/address by the shopper and
 * PUT /api/admin/subscriptions/{id}/address by staff, checked by the checkout's address schema (its
 * messages), each through the plan-change sequence with its outbox row (and staff's audit row); refusals
 * (someone else's plan, an ended one, a charge under way, a bad address, a role without the permission)
 * write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import { ADMIN_SUBSCRIPTION_MESSAGES, adminSubscriptionDetailSchema } from '@nh/shared/contracts/admin-subscriptions';
import { billingPeriodOf, SUBSCRIPTION_MESSAGES as MSG, subscriptionViewSchema } from '@nh/shared/contracts/subscriptions';
import { startTestApi, type TestApi } from './support/harness';
import { insertPlan, PLAN_ADDRESS } from './support/plans';
import { signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let support: StaffClient;
let fulfilment: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

let me: Shopper;
let other: Shopper;
beforeAll(async () => {
  api = await startTestApi();
  support = await signInAs(api, 'support');
  fulfilment = await signInAs(api, 'fulfilment');
  me = await signUpShopper(api, 'address');
  other = await signUpShopper(api, 'address');
});
afterAll(() => api.close());

const OLD = PLAN_ADDRESS;
const NEW = { address: '77 Harbor Road', city: 'Portland', state: 'OR', zip: '97201' };

const addressOf = (id: string) => q<{ shipping_address: unknown }>('select shipping_address from subscriptions where id = $1', [id]).then((r) => r[0]!.shipping_address);
const changeRows = (id: string) => q<{ payload: Record<string, unknown> }>(`select payload from outbox where topic = 'subscription.changed' and payload->>'subscriptionId' = $1 order by id`, [id]);
const staffRows = (id: string) => q<{ payload: { auditId: number } }>(`select payload from outbox where topic = 'subscription.changed-by-staff' and payload->>'subscriptionId' = $1 order by id`, [id]);
const auditOf = (id: string) =>
  q<{ id: number; actor_id: string; action: string; before: unknown; after: unknown }>(
    `select id, actor_id, action, before, after from audit_events where entity_type = 'subscription' and entity_id = $1 order by id`,
    [id],
  );
const underWay = (plan: { id: string; nextBillingDate: Date }) =>
  q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '22.95', 'pending')`, [plan.id, billingPeriodOf(plan.nextBillingDate)]);

describe('PUT /api/subscriptions/{id}/address', () => {
  it('ships the next deliveries to the new address: the page shows it, the confirmation email names it; the same address again changes nothing', async () => {
    const plan = await insertPlan(api, me.id);
    const res = await me.call(`/api/subscriptions/${plan.id}/address`, { method: 'PUT', body: { ...NEW, address: '  77 Harbor Road ' } });
    expect(res.status, await res.clone().text()).toBe(200);
    const view = subscriptionViewSchema.parse(await res.json());
    expect(view).toMatchObject({ shippingAddress: NEW, nextBillingDate: plan.nextBillingDate.toISOString(), status: 'active' });
    expect(await addressOf(plan.id)).toEqual(NEW);
    const rows = await changeRows(plan.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({ change: { kind: 'address', address: NEW }, status: 'active', nextBillingDate: plan.nextBillingDate.toISOString(), amount: 2295 });

    const again = await me.call(`/api/subscriptions/${plan.id}/address`, { method: 'PUT', body: NEW });
    expect(again.status).toBe(200);
    expect(await changeRows(plan.id)).toHaveLength(1);
    // The list carries the address too.
    const list = (await (await me.call('/api/subscriptions')).json()) as Array<{ id: string; shippingAddress: unknown }>;
    expect(list.find((s) => s.id === plan.id)?.shippingAddress).toEqual(NEW);
  });

  it('changes a paused plan\'s address too (its deliveries start again there)', async () => {
    const plan = await insertPlan(api, me.id, { status: 'paused' });
    const res = await me.call(`/api/subscriptions/${plan.id}/address`, { method: 'PUT', body: NEW });
    expect(res.status).toBe(200);
    expect(await addressOf(plan.id)).toEqual(NEW);
  });

  it('refuses an address checkout would refuse, with the checkout\'s messages (400), writing nothing', async () => {
    const plan = await insertPlan(api, me.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...NEW, address: '   ' }, CHECKOUT_MESSAGES.address],
      [{ ...NEW, city: '' }, CHECKOUT_MESSAGES.city],
      [{ ...NEW, state: 'Oregon' }, CHECKOUT_MESSAGES.stateLong],
      [{ ...NEW, state: 'O' }, CHECKOUT_MESSAGES.stateShort],
      [{ ...NEW, zip: '972' }, CHECKOUT_MESSAGES.zip],
      [{ ...NEW, zip: '97201-12345' }, CHECKOUT_MESSAGES.zipLong],
      [{ address: NEW.address, city: NEW.city, state: NEW.state }, CHECKOUT_MESSAGES.zip],
    ];
    for (const [body, message] of cases) {
      const res = await me.call(`/api/subscriptions/${plan.id}/address`, { method: 'PUT', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
    expect(await addressOf(plan.id)).toEqual(OLD);
    expect(await changeRows(plan.id)).toEqual([]);
  });

  it('refuses someone else\'s plan (404), an ended one (409), a charge under way (409) and no session (401): nothing changed', async () => {
    const plan = await insertPlan(api, me.id);
    expect((await other.call(`/api/subscriptions/${plan.id}/address`, { method: 'PUT', body: NEW })).status).toBe(404);
    expect((await api.request(`/api/subscriptions/${plan.id}/address`, { method: 'PUT', body: NEW })).status).toBe(401);
    expect((await me.call('/api/subscriptions/not-a-plan/address', { method: 'PUT', body: NEW })).status).toBe(404);

    const ended = await insertPlan(api, me.id, { status: 'cancelled' });
    const endedRes = await me.call(`/api/subscriptions/${ended.id}/address`, { method: 'PUT', body: NEW });
    expect(endedRes.status).toBe(409);
    expect(await endedRes.json()).toEqual({ code: 'SUBSCRIPTION_ENDED', message: MSG.alreadyEnded });

    const busy = await insertPlan(api, me.id);
    await underWay(busy);
    const busyRes = await me.call(`/api/subscriptions/${busy.id}/address`, { method: 'PUT', body: NEW });
    expect(busyRes.status).toBe(409);
    expect(await busyRes.json()).toEqual({ code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS', message: MSG.chargeInProgress });

    for (const id of [plan.id, ended.id, busy.id]) {
      expect(await addressOf(id)).toEqual(OLD);
      expect(await changeRows(id)).toEqual([]);
    }
  });
});

describe('PUT /api/admin/subscriptions/{id}/address', () => {
  it('changes the address on the customer\'s behalf: audited with the staff member and the reason, emailed through the outbox', async () => {
    const plan = await insertPlan(api, me.id);
    const res = await support.request(`/api/admin/subscriptions/${plan.id}/address`, { method: 'PUT', body: { ...NEW, reason: 'Moved house, asked by phone' } });
    expect(res.status, await res.clone().text()).toBe(200);
    const detail = adminSubscriptionDetailSchema.parse(await res.json());
    expect(detail.shippingAddress).toEqual(NEW);
    expect(detail.actions).toMatchObject({ address: true, items: true, cardLink: true });
    const audit = await auditOf(plan.id);
    expect(audit).toEqual([
      { id: expect.any(Number), actor_id: support.id, action: 'subscription.address_changed', before: { shippingAddress: OLD }, after: { shippingAddress: NEW, reason: 'Moved house, asked by phone' } },
    ]);
    expect((await staffRows(plan.id)).map((r) => r.payload)).toEqual([{ subscriptionId: plan.id, auditId: audit[0]!.id }]);
    // The customer's own list shows it.
    const list = (await (await me.call('/api/subscriptions')).json()) as Array<{ id: string; shippingAddress: unknown }>;
    expect(list.find((s) => s.id === plan.id)?.shippingAddress).toEqual(NEW);
  });

  it('asks for a reason and a valid address (the checkout\'s words); refuses an ended plan, a charge under way, and a role without the permission', async () => {
    const plan = await insertPlan(api, me.id);
    const noReason = await support.request(`/api/admin/subscriptions/${plan.id}/address`, { method: 'PUT', body: NEW });
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toMatchObject({ message: ADMIN_SUBSCRIPTION_MESSAGES.addressReason });
    const badZip = await support.request(`/api/admin/subscriptions/${plan.id}/address`, { method: 'PUT', body: { ...NEW, zip: '1', reason: 'Asked' } });
    expect(badZip.status).toBe(400);
    expect(await badZip.json()).toMatchObject({ message: CHECKOUT_MESSAGES.zip });
    expect((await fulfilment.request(`/api/admin/subscriptions/${plan.id}/address`, { method: 'PUT', body: { ...NEW, reason: 'Asked' } })).status).toBe(403);
    expect((await support.request(`/api/admin/subscriptions/00000000-0000-4000-8000-000000000000/address`, { method: 'PUT', body: { ...NEW, reason: 'Asked' } })).status).toBe(404);

    const ended = await insertPlan(api, me.id, { status: 'cancelled' });
    const endedRes = await support.request(`/api/admin/subscriptions/${ended.id}/address`, { method: 'PUT', body: { ...NEW, reason: 'Asked' } });
    expect(endedRes.status).toBe(409);
    const busy = await insertPlan(api, me.id);
    await underWay(busy);
    const busyRes = await support.request(`/api/admin/subscriptions/${busy.id}/address`, { method: 'PUT', body: { ...NEW, reason: 'Asked' } });
    expect(busyRes.status).toBe(409);
    expect(await busyRes.json()).toMatchObject({ code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS', message: ADMIN_SUBSCRIPTION_MESSAGES.chargeInProgress });

    for (const id of [plan.id, ended.id, busy.id]) {
      expect(await addressOf(id)).toEqual(OLD);
      expect(await auditOf(id)).toEqual([]);
      expect(await staffRows(id)).toEqual([]);
    }
  });
});
