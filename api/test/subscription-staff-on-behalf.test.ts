/**
 * Staff on the customer's behalf (issue 21): new items (PUT /api/admin/subscriptions/{id}/items, the
 * shopper's rules) and a link emailed to the customer to give the plan a new card (POST …/card-link), then
 * used without signing in (GET and POST /api/subscriptions/update-card/{token}). Each staff action audited
 * with the staff member and the reason; refusals write nothing; the link's token is never stored or put in
 * an outbox row, only its hash.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal } from '@nh/shared/money';
import { ADMIN_SUBSCRIPTION_MESSAGES as STAFF, adminSubscriptionDetailSchema } from '@nh/shared/contracts/admin-subscriptions';
import { PLAN_CARD_LINK_MESSAGES as LINK, planCardLinkResultSchema, planCardLinkViewSchema } from '@nh/shared/contracts/plan-card-link';
import { billingPeriodOf, SUBSCRIPTION_MESSAGES as MSG } from '@nh/shared/contracts/subscriptions';
import { mintSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let support: StaffClient;
let fulfilment: StaffClient;
let userId: string;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
  support = await signInAs(api, 'support');
  fulfilment = await signInAs(api, 'fulfilment');
  const email = `behalf.${randomBytes(4).toString('hex')}@example.com`;
  const res = await api.request('/api/register', { body: { firstName: 'Ada', lastName: 'Lovelace', email, password: 'correct horse battery' } });
  userId = ((await res.json()) as { user: { id: string } }).user.id;
});
afterAll(() => api.close());

const OLD_PROFILE = { customer: '11110000', payment: '22220000' };

async function makeProduct(price: number, status = 'active'): Promise<{ id: number; name: string }> {
  const name = `Behalf ${randomUUID().slice(0, 8)}`;
  const [row] = await q<{ id: number }>(`insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, 100, $4, $5) returning id`, [
    name,
    name.toLowerCase().replace(/\s+/g, '-'),
    centsToDecimal(price),
    status,
    `BH-${name.slice(-8)}`,
  ]);
  return { id: row!.id, name };
}

interface PlanOptions {
  status?: string;
  failedAttempts?: number;
  dueInDays?: number;
  items?: Array<{ productId: number; productName: string; quantity: number; price: string }>;
}

async function insertPlan(o: PlanOptions = {}) {
  const items = (o.items ?? [{ productId: 1, productName: 'Test Cleaner', quantity: 2, price: '12.50' }]).map((i) => ({ ...i, variantSku: null, sku: null, itemNumber: null }));
  const [row] = await q<{ id: string; next_billing_date: Date }>(
    `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, failed_attempts, shipping_address, authnet_customer_profile_id, authnet_payment_profile_id, card_type, card_last_four)
     values ($1, 'behalf@example.com', 'Ada Lovelace', $2, '22.95', date_trunc('day', now(), 'UTC') + make_interval(days => $3) + interval '14 hours', $4, $5, $6, $7, $8, 'Visa', '0005')
     returning id, next_billing_date`,
    [userId, JSON.stringify(items), o.dueInDays ?? 10, o.status ?? 'active', o.failedAttempts ?? 0, JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' }), OLD_PROFILE.customer, OLD_PROFILE.payment],
  );
  return { id: row!.id, nextBillingDate: row!.next_billing_date };
}

const planRow = (id: string) =>
  q<Record<string, unknown>>(
    `select status, items, amount::text as amount, failed_attempts, authnet_customer_profile_id, authnet_payment_profile_id, card_type, card_last_four from subscriptions where id = $1`,
    [id],
  ).then((r) => r[0]!);
const auditOf = (id: string) =>
  q<{ id: number; actor_id: string; action: string; before: unknown; after: Record<string, unknown> }>(
    `select id, actor_id, action, before, after from audit_events where entity_type = 'subscription' and entity_id = $1 order by id`,
    [id],
  );
const outboxOf = (id: string, topic: string) => q<{ payload: Record<string, unknown> }>(`select payload from outbox where topic = $1 and payload->>'subscriptionId' = $2 order by id`, [topic, id]);
const linksOf = (id: string) =>
  q<{ id: string; token_hash: string; email: string; created_by: string; used_at: Date | null; expires_at: Date }>(
    'select id, token_hash, email, created_by, used_at, expires_at from plan_card_links where subscription_id = $1 order by created_at, id',
    [id],
  );
const underWay = (plan: { id: string; nextBillingDate: Date }) =>
  q(`insert into payment_transactions (subscription_id, billing_period, amount, status) values ($1, $2, '22.95', 'pending')`, [plan.id, billingPeriodOf(plan.nextBillingDate)]);

describe('PUT /api/admin/subscriptions/{id}/items', () => {
  it('changes quantities and adds a product at today\'s prices, by the shopper\'s rules: audited with the reason, emailed', async () => {
    const kept = await makeProduct(1000);
    const added = await makeProduct(500);
    const plan = await insertPlan({ items: [{ productId: kept.id, productName: kept.name, quantity: 1, price: '9.00' }] });
    const res = await support.request(`/api/admin/subscriptions/${plan.id}/items`, {
      method: 'PUT',
      body: {
        items: [
          { productId: kept.id, variantSku: null, quantity: 2 },
          { productId: added.id, variantSku: null, quantity: 1 },
        ],
        reason: 'Runs out of spray, asked by phone',
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const detail = adminSubscriptionDetailSchema.parse(await res.json());
    expect(detail.items.map((i) => [i.productName, i.quantity, i.price])).toEqual([
      [kept.name, 2, '10.00'],
      [added.name, 1, '5.00'],
    ]);
    // 25.00 less 15 %, free shipping, with tax: the renewal total the shopper's change would give.
    const amount = Number((await planRow(plan.id)).amount);
    expect(detail.amount).toBe(centsToDecimal(Math.round(amount * 100)));
    const audit = await auditOf(plan.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: support.id, action: 'subscription.items_changed', before: { amount: 2295 }, after: { reason: 'Runs out of spray, asked by phone', added: [{ productName: added.name, quantity: 1 }] } });
    expect((await outboxOf(plan.id, 'subscription.changed-by-staff')).map((r) => r.payload.auditId)).toEqual([audit[0]!.id]);
  });

  it('refuses as the shopper\'s rule does, in staff words (a product not sold 409, a charge under way 409, an ended plan 409), a missing reason 400 and a role without the permission 403: nothing written', async () => {
    const product = await makeProduct(1000);
    const gone = await makeProduct(800, 'inactive');
    const items = [{ productId: product.id, productName: product.name, quantity: 1, price: '10.00' }];
    const plan = await insertPlan({ items });
    const body = (extra: object) => ({ items: [{ productId: product.id, variantSku: null, quantity: 1 }, extra], reason: 'Asked' });
    const notSold = await support.request(`/api/admin/subscriptions/${plan.id}/items`, { method: 'PUT', body: body({ productId: gone.id, variantSku: null, quantity: 1 }) });
    expect(notSold.status).toBe(409);
    expect(await notSold.json()).toMatchObject({ code: 'SUBSCRIPTION_ITEM_NOT_SOLD', message: STAFF.productNotSold });
    const noReason = await support.request(`/api/admin/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items: [{ productId: product.id, variantSku: null, quantity: 2 }] } });
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toMatchObject({ message: STAFF.itemsReason });
    const forbidden = await fulfilment.request(`/api/admin/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items: [{ productId: product.id, variantSku: null, quantity: 2 }], reason: 'Asked' } });
    expect(forbidden.status).toBe(403);

    const busy = await insertPlan({ items });
    await underWay(busy);
    const busyRes = await support.request(`/api/admin/subscriptions/${busy.id}/items`, { method: 'PUT', body: { items: [{ productId: product.id, variantSku: null, quantity: 2 }], reason: 'Asked' } });
    expect(busyRes.status).toBe(409);
    expect(await busyRes.json()).toMatchObject({ code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS' });
    const ended = await insertPlan({ items, status: 'cancelled' });
    const endedRes = await support.request(`/api/admin/subscriptions/${ended.id}/items`, { method: 'PUT', body: { items: [{ productId: product.id, variantSku: null, quantity: 2 }], reason: 'Asked' } });
    expect(endedRes.status).toBe(409);
    expect(await endedRes.json()).toMatchObject({ code: 'SUBSCRIPTION_ENDED' });

    for (const p of [plan, busy, ended]) {
      expect((await planRow(p.id)).items).toEqual(items.map((i) => ({ ...i, variantSku: null, sku: null, itemNumber: null })));
      expect(await auditOf(p.id)).toEqual([]);
    }
  });
});

async function tokenize(zip: string) {
  const res = await api.request('/api/payments/sandbox/tokenize', {
    body: { authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' }, cardData: { cardNumber: '5424000000000015', month: '11', year: '2031', cardCode: '123', zip } },
  });
  return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
}

/** Staff send a link; the test makes its token as the mail worker would (the API never holds it). */
async function sendLink(planId: string, reason = 'Card expired, customer on the phone'): Promise<{ linkId: string; token: string }> {
  const res = await support.request(`/api/admin/subscriptions/${planId}/card-link`, { method: 'POST', body: { reason } });
  expect(res.status, await res.clone().text()).toBe(200);
  const links = await linksOf(planId);
  const link = links[links.length - 1]!;
  const client = await api.ctx.db.$client.connect();
  try {
    const token = await mintSingleUseToken(client, 'plan_card_links', link.id);
    return { linkId: link.id, token: token! };
  } finally {
    client.release();
  }
}

const linkPath = (token: string) => `/api/subscriptions/update-card/${token}`;

describe('a card link staff send', () => {
  it('is audited with the staff member and the reason; its row keeps only a hash, its outbox row only the link\'s id', async () => {
    const plan = await insertPlan();
    const res = await support.request(`/api/admin/subscriptions/${plan.id}/card-link`, { method: 'POST', body: { reason: 'Card expired' } });
    expect(res.status).toBe(200);
    const [link] = await linksOf(plan.id);
    expect(link).toMatchObject({ email: 'behalf@example.com', created_by: support.id, used_at: null });
    expect(link!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const days = (link!.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    const audit = await auditOf(plan.id);
    expect(audit).toEqual([{ id: expect.any(Number), actor_id: support.id, action: 'subscription.card_link_sent', before: null, after: expect.objectContaining({ reason: 'Card expired', sentTo: 'behalf@example.com' }) }]);
    const rows = await q<{ payload: unknown }>(`select payload from outbox where topic = 'subscription.card-link-requested' and payload->>'tokenId' = $1`, [link!.id]);
    expect(rows.map((r) => r.payload)).toEqual([{ tokenId: link!.id }]);
  });

  it('refuses without a reason (400), for a role without the permission (403), an unknown plan (404) and an ended one (409): no link made', async () => {
    const plan = await insertPlan();
    expect((await support.request(`/api/admin/subscriptions/${plan.id}/card-link`, { method: 'POST', body: {} })).status).toBe(400);
    expect((await fulfilment.request(`/api/admin/subscriptions/${plan.id}/card-link`, { method: 'POST', body: { reason: 'x' } })).status).toBe(403);
    expect((await support.request(`/api/admin/subscriptions/${randomUUID()}/card-link`, { method: 'POST', body: { reason: 'x' } })).status).toBe(404);
    const ended = await insertPlan({ status: 'cancelled' });
    const endedRes = await support.request(`/api/admin/subscriptions/${ended.id}/card-link`, { method: 'POST', body: { reason: 'x' } });
    expect(endedRes.status).toBe(409);
    expect(await endedRes.json()).toMatchObject({ code: 'SUBSCRIPTION_ENDED', message: STAFF.alreadyEnded });
    for (const id of [plan.id, ended.id]) {
      expect(await linksOf(id)).toEqual([]);
      expect(await auditOf(id)).toEqual([]);
    }
  });

  it('opens the plan\'s summary without signing in (masked card), stores the new card on the plan once, and is spent', async () => {
    const product = await makeProduct(1250);
    const plan = await insertPlan({ items: [{ productId: product.id, productName: product.name, quantity: 2, price: '12.50' }] });
    const { token } = await sendLink(plan.id);
    // Only the hash is stored.
    expect((await linksOf(plan.id))[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));

    const view = await api.request(linkPath(token));
    expect(view.status).toBe(200);
    expect(view.headers.get('cache-control')).toBe('no-store');
    expect(planCardLinkViewSchema.parse(await view.json())).toMatchObject({
      status: 'active',
      productNames: [product.name],
      nextBillingDate: plan.nextBillingDate.toISOString(),
      cardType: 'Visa',
      cardLastFour: '0005',
      resumesOnSave: false,
    });

    const charges = api.payments.sandbox!.charges.length;
    const saved = await api.request(linkPath(token), { method: 'POST', body: await tokenize('12345') });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(planCardLinkResultSchema.parse(await saved.json())).toEqual({ status: 'active', cardType: 'MasterCard', cardLastFour: '0015', resumed: false });
    const row = await planRow(plan.id);
    expect(row).toMatchObject({ status: 'active', card_type: 'MasterCard', card_last_four: '0015' });
    expect(row.authnet_customer_profile_id).not.toBe(OLD_PROFILE.customer);
    expect(api.payments.sandbox!.charges.length).toBe(charges);
    expect((await linksOf(plan.id))[0]!.used_at).not.toBeNull();
    // The confirmation email (and the new card's expiry lookup) as for the shopper's own change.
    expect((await outboxOf(plan.id, 'subscription.changed')).map((r) => r.payload.change)).toEqual([{ kind: 'card', cardType: 'MasterCard', cardLastFour: '0015' }]);

    // Used: both calls answer 410 with the message page's words, and nothing more changes.
    for (const res of [await api.request(linkPath(token)), await api.request(linkPath(token), { method: 'POST', body: await tokenize('12345') })]) {
      expect(res.status).toBe(410);
      expect(await res.json()).toEqual({ code: 'PLAN_CARD_LINK_USED', message: LINK.used });
    }
    expect(await outboxOf(plan.id, 'subscription.changed')).toHaveLength(1);
  });

  it('answers an unknown token 404, an expired one 410, and one replaced by a newer link 410; a declined card keeps the link open', async () => {
    const unknown = await api.request(linkPath(randomBytes(32).toString('base64url')));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: 'PLAN_CARD_LINK_INVALID', message: LINK.invalid });
    expect((await api.request(linkPath('not a token'))).status).toBe(404);

    const plan = await insertPlan();
    const first = await sendLink(plan.id);
    const second = await sendLink(plan.id);
    const replaced = await api.request(linkPath(first.token));
    expect(replaced.status).toBe(410);
    expect(await replaced.json()).toEqual({ code: 'PLAN_CARD_LINK_EXPIRED', message: LINK.expired });

    const before = await planRow(plan.id);
    const declined = await api.request(linkPath(second.token), { method: 'POST', body: await tokenize('46282') });
    expect(declined.status).toBe(402);
    expect(await planRow(plan.id)).toEqual(before);
    expect((await api.request(linkPath(second.token))).status).toBe(200);

    await q(`update plan_card_links set expires_at = now() - interval '1 second' where id = $1`, [second.linkId]);
    const expired = await api.request(linkPath(second.token), { method: 'POST', body: await tokenize('12345') });
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({ code: 'PLAN_CARD_LINK_EXPIRED' });
    expect(await planRow(plan.id)).toEqual(before);
  });

  it('refuses while the period\'s charge is under way (409), leaving the link open and the card as it was', async () => {
    const plan = await insertPlan();
    const { token, linkId } = await sendLink(plan.id);
    await underWay(plan);
    const before = await planRow(plan.id);
    const res = await api.request(linkPath(token), { method: 'POST', body: await tokenize('12345') });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'SUBSCRIPTION_CHARGE_IN_PROGRESS', message: MSG.chargeInProgress });
    expect(await planRow(plan.id)).toEqual(before);
    expect((await linksOf(plan.id)).find((l) => l.id === linkId)!.used_at).toBeNull();
  });

  it('a plan paused because its renewal failed is resumed as "Resume with a new card" resumes it: active, its unpaid delivery charged at once', async () => {
    const plan = await insertPlan({ status: 'paused', failedAttempts: 4, dueInDays: -8 });
    const { token } = await sendLink(plan.id);
    const view = planCardLinkViewSchema.parse(await (await api.request(linkPath(token))).json());
    expect(view).toMatchObject({ status: 'paused', resumesOnSave: true });
    const res = await api.request(linkPath(token), { method: 'POST', body: await tokenize('12345') });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(planCardLinkResultSchema.parse(await res.json())).toMatchObject({ status: 'active', resumed: true, cardLastFour: '0015' });
    expect(await planRow(plan.id)).toMatchObject({ status: 'active', failed_attempts: 0, card_last_four: '0015' });
    // The renewal of the unpaid period is asked for at once, as by the shopper's resume.
    expect((await outboxOf(plan.id, 'subscription.resumed')).map((r) => r.payload)).toEqual([{ subscriptionId: plan.id, period: billingPeriodOf(plan.nextBillingDate) }]);
    expect((await linksOf(plan.id))[0]!.used_at).not.toBeNull();
  });

  it('refuses a plan that ended after the link was sent (409)', async () => {
    const plan = await insertPlan();
    const { token } = await sendLink(plan.id);
    await q(`update subscriptions set status = 'cancelled', cancelled_at = now() where id = $1`, [plan.id]);
    const res = await api.request(linkPath(token));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'SUBSCRIPTION_ENDED', message: LINK.planEnded });
  });
});

describe('the card link endpoints\' limit', () => {
  it('answers 429 after 30 tries an hour from one address (guessing tokens), as the other emailed links\' endpoints', async () => {
    const own = await startTestApi();
    try {
      const guess = () => own.request(linkPath(randomBytes(32).toString('base64url')));
      for (let i = 0; i < 30; i++) expect((await guess()).status).toBe(404);
      const limited = await guess();
      expect(limited.status).toBe(429);
      expect(await limited.json()).toMatchObject({ message: LINK.tooManyTries });
    } finally {
      await own.close();
    }
  });
});
