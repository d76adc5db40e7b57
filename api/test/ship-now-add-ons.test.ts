/**
 * Ship now and one-time add-ons (issue 21), shopper and staff: POST /api/subscriptions/{id}/ship-now
 * (Idempotency-Key), POST/DELETE …/one-time-items, and the staff's twins. Each accepted call writes its
 * rows (the plan, the request's record, the outbox rows, staff's audit row); each refusal answers its
 * status and message and writes nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_MAX_LINES } from '@nh/shared/constants';
import { adminSubscriptionDetailSchema } from '@nh/shared/contracts/admin-subscriptions';
import { SUBSCRIPTION_MESSAGES as MSG, subscriptionViewSchema } from '@nh/shared/contracts/subscriptions';
import { ONE_TIME_ITEM_MESSAGES, SHIP_NOW_MESSAGES } from '@nh/shared/contracts/ship-now-add-ons';
import { startTestApi, type TestApi } from './support/harness';
import { dayOf, insertPlan as insertPlanRow, type PlanOptions } from './support/plans';
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
  me = await signUpShopper(api, 'shipnow');
  other = await signUpShopper(api, 'shipnow');
});
afterAll(() => api.close());

/** A catalogue product of our own (sizes optional). */
async function product(o: { inventory?: number; status?: string; price?: string; variants?: Array<{ label: string; price: string; sku: string }> } = {}) {
  const name = `Ship Now Test ${randomUUID().slice(0, 8)}`;
  const [row] = await q<{ id: number; name: string }>(
    `insert into products (name, slug, price, inventory, status, sku, variants) values ($1, $2, $3, $4, $5, $6, $7) returning id, name`,
    [name, name.toLowerCase().replace(/\s+/g, '-'), o.price ?? '10.00', o.inventory ?? 50, o.status ?? 'active', `SN-${name.slice(-8)}`, JSON.stringify(o.variants ?? [])],
  );
  return row!;
}

/** An active plan of `userId` with one line of a fresh product, billed at 14:00 UTC `dueInDays` ahead. */
async function insertPlan(userId: string, { inventory, productStatus, ...o }: PlanOptions & { inventory?: number; productStatus?: string } = {}) {
  const p = await product({ inventory, status: productStatus });
  const plan = await insertPlanRow(api, userId, { ...o, items: [{ productId: p.id, productName: p.name, quantity: 2, price: '10.00' }], amount: '18.36' });
  return { ...plan, product: p };
}

const planRow = (id: string) =>
  q<{ next_billing_date: Date; one_time_items: Array<{ id: string; productId: number; variantSku: string | null; quantity: number; productName: string }>; updated_at: Date }>(
    'select next_billing_date, one_time_items, updated_at from subscriptions where id = $1',
    [id],
  ).then((r) => r[0]!);
const shipNows = (id: string) => q<{ billing_period: string; key_hash: string; requested_by_user_id: string | null; requested_by_staff_id: string | null }>('select * from subscription_ship_nows where subscription_id = $1', [id]);
const outboxOf = (id: string, topic: string) => q<{ payload: Record<string, unknown> }>(`select payload from outbox where topic = $2 and payload->>'subscriptionId' = $1 order by id`, [id, topic]);
const auditOf = (id: string) => q<{ action: string; before: unknown; after: Record<string, unknown> }>(`select action, before, after from audit_events where entity_type = 'subscription' and entity_id = $1 order by id`, [id]);
const key = () => `ship-${randomUUID()}`;
const shipNow = (who: Shopper, id: string, k: string | null = key()) => who.call(`/api/subscriptions/${id}/ship-now`, { method: 'POST', body: {}, headers: k === null ? {} : { 'Idempotency-Key': k } });

/** Everything a refusal must leave as it was. */
async function snapshot(id: string) {
  const row = await planRow(id);
  return {
    next: row.next_billing_date.toISOString(),
    oneTime: row.one_time_items,
    shipNows: (await shipNows(id)).length,
    outbox: (await q(`select id from outbox where payload->>'subscriptionId' = $1`, [id])).length,
    audit: (await auditOf(id)).length,
  };
}

describe('POST /api/subscriptions/{id}/ship-now', () => {
  it('needs an Idempotency-Key (400 with a message), before anything is written', async () => {
    const plan = await insertPlan(me.id);
    const before = await snapshot(plan.id);
    const missing = await shipNow(me, plan.id, null);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_MISSING', message: SHIP_NOW_MESSAGES.idempotencyKeyMissing });
    const invalid = await shipNow(me, plan.id, 'no spaces allowed');
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_INVALID', message: SHIP_NOW_MESSAGES.idempotencyKeyInvalid });
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it("answers another shopper's plan 404 and writes nothing", async () => {
    const plan = await insertPlan(other.id);
    const before = await snapshot(plan.id);
    const res = await shipNow(me, plan.id);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: MSG.notFound });
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it('moves the next delivery to today, records the request (the key hashed) and asks for the renewal with the sweep job id; a repeat or a second tab charges nothing more', async () => {
    const plan = await insertPlan(me.id, { dueInDays: 12 });
    const k = key();
    const res = await shipNow(me, plan.id, k);
    expect(res.status, await res.clone().text()).toBe(202);
    const view = subscriptionViewSchema.parse(await res.json());
    expect(view.nextBillingDate).toBe(`${dayOf(0)}T14:00:00.000Z`);
    expect(view.shipNow).toMatchObject({ period: dayOf(0), state: 'charging' });

    const [request] = await shipNows(plan.id);
    expect(request).toMatchObject({ billing_period: dayOf(0), key_hash: createHash('sha256').update(k).digest('hex'), requested_by_user_id: me.id, requested_by_staff_id: null });
    expect(JSON.stringify(await q(`select * from outbox where payload->>'subscriptionId' = $1`, [plan.id]))).not.toContain(k);
    expect((await outboxOf(plan.id, 'subscription.ship-now-requested')).map((r) => r.payload)).toEqual([{ subscriptionId: plan.id, period: dayOf(0), attempt: 0 }]);
    expect((await outboxOf(plan.id, 'subscription.changed'))[0]!.payload).toMatchObject({ change: { kind: 'ship-now', period: dayOf(0) } });

    // A double click (same key) and a second tab (another key) while the charge is under way: the plan as it is.
    const again = await shipNow(me, plan.id, k);
    expect(again.status).toBe(202);
    expect(subscriptionViewSchema.parse(await again.json()).nextBillingDate).toBe(view.nextBillingDate);
    const secondTab = await shipNow(me, plan.id);
    expect(secondTab.status).toBe(202);
    expect(await shipNows(plan.id)).toHaveLength(1);
    expect(await outboxOf(plan.id, 'subscription.ship-now-requested')).toHaveLength(1);
  });

  it('refuses a second ship-now on a day a delivery was already charged (409), even with a new key', async () => {
    const plan = await insertPlan(me.id, { dueInDays: 12 });
    expect((await shipNow(me, plan.id)).status).toBe(202);
    // The renewal charged today's period and moved the plan on (as recordPaid does).
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '18.36', 'approved')`, [plan.id, dayOf(0)]);
    await q(`update subscriptions set next_billing_date = next_billing_date + interval '1 month' where id = $1`, [plan.id]);
    const before = await snapshot(plan.id);
    const res = await shipNow(me, plan.id);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'SUBSCRIPTION_ALREADY_SHIPPED_TODAY', message: SHIP_NOW_MESSAGES.alreadyShippedToday });
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it('refuses an ended, a paused, a failing plan and one whose charge is under way (409), writing nothing', async () => {
    const cases: Array<{ plan: Awaited<ReturnType<typeof insertPlan>>; code: string; message: string }> = [
      { plan: await insertPlan(me.id, { status: 'cancelled' }), code: 'SUBSCRIPTION_ENDED', message: MSG.alreadyEnded },
      { plan: await insertPlan(me.id, { status: 'paused' }), code: 'SUBSCRIPTION_NOT_ACTIVE', message: SHIP_NOW_MESSAGES.notActive },
      { plan: await insertPlan(me.id, { failedAttempts: 1 }), code: 'SUBSCRIPTION_IN_DUNNING', message: SHIP_NOW_MESSAGES.inDunning },
    ];
    // Due today with the renewal's charge in flight (pending, no answer yet).
    const busy = await insertPlan(me.id, { dueInDays: 0 });
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '18.36', 'pending')`, [busy.id, dayOf(0)]);
    cases.push({ plan: busy, code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS', message: MSG.chargeInProgress });
    for (const c of cases) {
      const before = await snapshot(c.plan.id);
      const res = await shipNow(me, c.plan.id);
      expect(res.status, c.code).toBe(409);
      expect(await res.json()).toMatchObject({ code: c.code, message: c.message });
      expect(await snapshot(c.plan.id)).toEqual(before);
    }
  });

  it('checks stock first: an unavailable line (or add-on) answers 409 naming it, with the choices, and writes nothing', async () => {
    const plan = await insertPlan(me.id, { inventory: 1 });
    const before = await snapshot(plan.id);
    const res = await shipNow(me, plan.id);
    expect(res.status).toBe(409);
    const body = (await res.json()) as { code: string; message: string; unavailableItems: Array<{ productId: number; problem: string }> };
    expect(body).toMatchObject({ code: 'SUBSCRIPTION_ITEM_UNAVAILABLE', message: SHIP_NOW_MESSAGES.itemsUnavailable([plan.product.name]) });
    expect(body.message).toContain('Change your items (or remove the one-time item)');
    expect(body.unavailableItems).toEqual([expect.objectContaining({ productId: plan.product.id, problem: 'out-of-stock', wanted: 2, available: 1 })]);
    expect(await snapshot(plan.id)).toEqual(before);

    // An add-on that ran out is named the same way.
    const ok = await insertPlan(me.id);
    const scarce = await product({ inventory: 1 });
    expect((await me.call(`/api/subscriptions/${ok.id}/one-time-items`, { body: { productId: scarce.id, quantity: 1 } })).status).toBe(201);
    await q('update products set inventory = 0 where id = $1', [scarce.id]);
    const refused = await shipNow(me, ok.id);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(SHIP_NOW_MESSAGES.itemsUnavailable([scarce.name]));
  });

  it('ships a plan already due today on its own period, without moving its date', async () => {
    const plan = await insertPlan(me.id, { dueInDays: 0 });
    const res = await shipNow(me, plan.id);
    expect(res.status).toBe(202);
    expect(subscriptionViewSchema.parse(await res.json()).nextBillingDate).toBe(plan.nextBillingDate.toISOString());
    expect((await outboxOf(plan.id, 'subscription.ship-now-requested'))[0]!.payload).toEqual({ subscriptionId: plan.id, period: dayOf(0), attempt: 0 });
  });
});

describe('POST /api/admin/subscriptions/{id}/ship-now', () => {
  it('ships now for the customer with a reason: audited, emailed; without a reason or key 400; fulfilment 403', async () => {
    const plan = await insertPlan(me.id, { dueInDays: 8 });
    const before = await snapshot(plan.id);
    const path = `/api/admin/subscriptions/${plan.id}/ship-now`;
    expect((await support.request(path, { method: 'POST', body: {}, headers: { 'Idempotency-Key': key() } })).status).toBe(400);
    const noKey = await support.request(path, { method: 'POST', body: { reason: 'Ran out early, asked by phone' } });
    expect(noKey.status).toBe(400);
    expect(await noKey.json()).toMatchObject({ message: SHIP_NOW_MESSAGES.idempotencyKeyMissing });
    expect((await fulfilment.request(path, { method: 'POST', body: { reason: 'x' }, headers: { 'Idempotency-Key': key() } })).status).toBe(403);
    expect(await snapshot(plan.id)).toEqual(before);

    const res = await support.request(path, { method: 'POST', body: { reason: 'Ran out early, asked by phone' }, headers: { 'Idempotency-Key': key() } });
    expect(res.status, await res.clone().text()).toBe(202);
    const detail = adminSubscriptionDetailSchema.parse(await res.json());
    expect(detail.nextBillingDate).toBe(`${dayOf(0)}T14:00:00.000Z`);
    const [audit] = await auditOf(plan.id);
    expect(audit).toMatchObject({ action: 'subscription.shipped_now', after: { period: dayOf(0), reason: 'Ran out early, asked by phone' } });
    expect(await outboxOf(plan.id, 'subscription.changed-by-staff')).toHaveLength(1);
    expect(await outboxOf(plan.id, 'subscription.ship-now-requested')).toHaveLength(1);
    expect((await shipNows(plan.id))[0]).toMatchObject({ requested_by_user_id: null });
    expect((await shipNows(plan.id))[0]!.requested_by_staff_id).not.toBeNull();
  });
});

describe('one-time items', () => {
  const add = (who: Shopper, id: string, body: unknown) => who.call(`/api/subscriptions/${id}/one-time-items`, { body });

  it('adds a line to the next delivery only, priced today with the discount in the next delivery figure; DELETE removes it; each emailed', async () => {
    const plan = await insertPlan(me.id);
    const brush = await product({ price: '5.00' });
    const res = await add(me, plan.id, { productId: brush.id, quantity: 2, price: '0.01' });
    expect(res.status, await res.clone().text()).toBe(201);
    const view = subscriptionViewSchema.parse(await res.json());
    expect(view.oneTimeItems).toEqual([{ id: expect.any(String), productId: brush.id, productName: brush.name, variantSku: null, quantity: 2, priceToday: '5.00' }]);
    expect(view.items).toHaveLength(1);
    // 18.36 for the plan, plus 2 x 5.00 less 15% plus 8% tax = 9.18.
    expect(view.nextDeliveryAmount).toBe('27.54');
    expect((await outboxOf(plan.id, 'subscription.changed'))[0]!.payload).toMatchObject({ change: { kind: 'one-time-added', productName: brush.name, quantity: 2 } });

    // The same product again adds to the line.
    const more = subscriptionViewSchema.parse(await (await add(me, plan.id, { productId: brush.id, quantity: 1 })).json());
    expect(more.oneTimeItems.map((o) => o.quantity)).toEqual([3]);

    const lineId = more.oneTimeItems[0]!.id;
    const removed = await me.call(`/api/subscriptions/${plan.id}/one-time-items/${lineId}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(subscriptionViewSchema.parse(await removed.json()).oneTimeItems).toEqual([]);
    expect((await outboxOf(plan.id, 'subscription.changed')).at(-1)!.payload).toMatchObject({ change: { kind: 'one-time-removed', quantity: 3 } });
    // Removed again (a double click): the plan as it is, nothing more written.
    const outbox = (await outboxOf(plan.id, 'subscription.changed')).length;
    expect((await me.call(`/api/subscriptions/${plan.id}/one-time-items/${lineId}`, { method: 'DELETE' })).status).toBe(200);
    expect(await outboxOf(plan.id, 'subscription.changed')).toHaveLength(outbox);
  });

  it('takes `size` as the size\'s label or SKU; a product with sizes needs one (409)', async () => {
    const plan = await insertPlan(me.id);
    const refill = await product({ variants: [{ label: '1 gal.', price: '45.00', sku: 'RF-1G' }, { label: '32 oz', price: '15.00', sku: 'RF-32' }] });
    const byLabel = subscriptionViewSchema.parse(await (await add(me, plan.id, { productId: refill.id, size: '1 GAL.', quantity: 1 })).json());
    expect(byLabel.oneTimeItems[0]).toMatchObject({ variantSku: 'RF-1G', productName: `${refill.name} - 1 gal.`, priceToday: '45.00' });
    const bySku = subscriptionViewSchema.parse(await (await add(me, plan.id, { productId: refill.id, size: 'RF-32', quantity: 1 })).json());
    expect(bySku.oneTimeItems.map((o) => o.variantSku)).toEqual(['RF-1G', 'RF-32']);
    const before = await snapshot(plan.id);
    const noSize = await add(me, plan.id, { productId: refill.id, quantity: 1 });
    expect(noSize.status).toBe(409);
    expect(await noSize.json()).toMatchObject({ code: 'SUBSCRIPTION_ITEM_NOT_SOLD', message: MSG.sizeNotSold(refill.name) });
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it('refuses an unknown or inactive product (409), a bad quantity (400), too many lines (422), an ended plan (409), a charge under way (409) and another shopper\'s plan (404), writing nothing', async () => {
    const plan = await insertPlan(me.id);
    const inactive = await product({ status: 'inactive' });
    const ok = await product();
    const refusals: Array<[string, unknown, number, string]> = [
      [plan.id, { productId: 2_000_000_000, quantity: 1 }, 409, MSG.productNotSold],
      [plan.id, { productId: inactive.id, quantity: 1 }, 409, MSG.productNotSold],
      [plan.id, { productId: ok.id, quantity: 0 }, 400, ONE_TIME_ITEM_MESSAGES.quantity],
      [plan.id, { productId: ok.id, quantity: 11 }, 400, ONE_TIME_ITEM_MESSAGES.quantity],
      [plan.id, { productId: ok.id, quantity: 1.5 }, 400, ONE_TIME_ITEM_MESSAGES.quantity],
    ];
    for (const [id, body, status, message] of refusals) {
      const before = await snapshot(id);
      const res = await add(me, id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { message: string }).message).toBe(message);
      expect(await snapshot(id)).toEqual(before);
    }

    const full = await insertPlan(me.id);
    for (let i = 0; i < PLAN_MAX_LINES; i++) expect((await add(me, full.id, { productId: (await product()).id, quantity: 1 })).status).toBe(201);
    const beforeFull = await snapshot(full.id);
    const tooMany = await add(me, full.id, { productId: ok.id, quantity: 1 });
    expect(tooMany.status).toBe(422);
    expect(await tooMany.json()).toMatchObject({ code: 'SUBSCRIPTION_ITEMS_INVALID', message: ONE_TIME_ITEM_MESSAGES.tooMany });
    expect(await snapshot(full.id)).toEqual(beforeFull);

    const ended = await insertPlan(me.id, { status: 'cancelled' });
    const busy = await insertPlan(me.id, { dueInDays: 0 });
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '18.36', 'pending')`, [busy.id, dayOf(0)]);
    const others = await insertPlan(other.id);
    for (const [id, status, code] of [
      [ended.id, 409, 'SUBSCRIPTION_ENDED'],
      [busy.id, 409, 'SUBSCRIPTION_CHARGE_IN_PROGRESS'],
      [others.id, 404, 'NOT_FOUND'],
    ] as const) {
      const before = await snapshot(id);
      const res = await add(me, id, { productId: ok.id, quantity: 1 });
      expect(res.status, code).toBe(status);
      expect(((await res.json()) as { code: string }).code).toBe(code);
      expect(await snapshot(id)).toEqual(before);
    }
  });

  it('lets staff add and remove one for the customer, each with a reason in the audit row and the customer emailed', async () => {
    const plan = await insertPlan(me.id);
    const spare = await product({ price: '7.00' });
    const path = `/api/admin/subscriptions/${plan.id}/one-time-items`;
    const noReason = await support.request(path, { method: 'POST', body: { productId: spare.id, quantity: 1 } });
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toMatchObject({ message: ONE_TIME_ITEM_MESSAGES.reasonRequired });
    const res = await support.request(path, { method: 'POST', body: { productId: spare.id, quantity: 2, reason: 'Customer asked for a spare bottle' } });
    expect(res.status, await res.clone().text()).toBe(201);
    const detail = adminSubscriptionDetailSchema.parse(await res.json());
    expect(detail.oneTimeItems).toEqual([{ id: expect.any(String), productId: spare.id, productName: spare.name, variantSku: null, quantity: 2 }]);
    const removed = await support.request(`${path}/${detail.oneTimeItems[0]!.id}`, { method: 'DELETE', body: { reason: 'Changed their mind' } });
    expect(removed.status).toBe(200);
    expect(adminSubscriptionDetailSchema.parse(await removed.json()).oneTimeItems).toEqual([]);
    expect((await auditOf(plan.id)).map((a) => [a.action, a.after.reason])).toEqual([
      ['subscription.one_time_item_added', 'Customer asked for a spare bottle'],
      ['subscription.one_time_item_removed', 'Changed their mind'],
    ]);
    expect(await outboxOf(plan.id, 'subscription.changed-by-staff')).toHaveLength(2);
  });
});
