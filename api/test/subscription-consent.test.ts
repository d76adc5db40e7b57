/**
 * Consent on record (issue 22): subscribing at checkout (POST /api/payments/subscribe-nonce, the spec's body)
 * records the terms version and exact text shown, with the server's price (never the browser's), the
 * cadence, the time, the address, the browser and its address; a checkout that showed terms no longer
 * offered is refused with nothing charged; staff read the consent on the plan page.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, priceCart, toPayloadStrings } from '@nh/shared';
import { adminSubscriptionDetailSchema } from '@nh/shared/contracts/admin-subscriptions';
import { SUBSCRIPTION_TERMS_MESSAGES, SUBSCRIPTION_TERMS_VERSION, subscriptionTermsText } from '@nh/shared/contracts/subscription-terms';
import { subscribeNonceResponseSchema } from '@nh/shared/contracts/subscriptions';
import { mintSignInCode } from '@nh/server/queries/sign-in-codes';
import { startTestApi, type TestApi } from './support/harness';
import { insertPlan } from './support/plans';
import { signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let support: StaffClient;
let me: Shopper;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) ConsentTest/1.0';
const ADDRESS = { address: '7 Consent Way', city: 'Springfield', state: 'IL', zip: '12345' };

beforeAll(async () => {
  api = await startTestApi();
  support = await signInAs(api, 'support');
  me = await signUpShopper(api, 'consent');
});
afterAll(() => api.close());

async function tokenize(zip = ADDRESS.zip) {
  const res = await api.request('/api/payments/sandbox/tokenize', {
    body: { authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' }, cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip } },
  });
  return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
}

/** A subscribe body for 2 of a new $12.00 product, every 2 months. */
async function body(extra: Record<string, unknown> = {}) {
  const name = `Consent Test ${randomUUID().slice(0, 8)}`;
  const [product] = await q<{ id: number }>(`insert into products (name, slug, price, inventory, status, sku) values ($1, $2, '12.00', 10, 'active', $3) returning id`, [
    name,
    name.toLowerCase().replace(/\s+/g, '-'),
    `CT-${name.slice(-8)}`,
  ]);
  return {
    amount: toPayloadStrings(priceCart([{ price: 1200, quantity: 2 }], { subscribe: true })).total,
    ...(await tokenize()),
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    ...ADDRESS,
    interval: 'monthly',
    intervalCount: 2,
    items: [{ productId: product!.id, variantSku: null, quantity: 2, price: centsToDecimal(1200) }],
    shippingAddress: ADDRESS,
    ...extra,
  };
}
const subscribe = (b: unknown) => me.call('/api/payments/subscribe-nonce', { body: b, headers: { 'Idempotency-Key': randomUUID(), 'User-Agent': BROWSER } });
const consentOf = (subscriptionId: string) => q<Record<string, unknown>>('select * from subscription_consents where subscription_id = $1', [subscriptionId]);

describe('consent recorded at subscribe', () => {
  it("keeps the terms version and exact text with the server's price, cadence, time, address, browser and IP address", async () => {
    const before = Date.now();
    const res = await subscribe(await body());
    expect(res.status, await res.clone().text()).toBe(200);
    const { subscriptionId } = subscribeNonceResponseSchema.parse(await res.json());
    const [consent] = await consentOf(subscriptionId);
    const renewal = priceCart([{ price: 1200, quantity: 2 }], { subscribe: true }).total;
    expect(consent).toMatchObject({
      terms_version: SUBSCRIPTION_TERMS_VERSION,
      terms_text: subscriptionTermsText({ renewalAmount: renewal, interval: 'monthly', intervalCount: 2 }),
      amount_cents: renewal,
      interval: 'monthly',
      interval_count: 2,
      shipping_address: ADDRESS,
      user_agent: BROWSER,
      anonymised_at: null,
    });
    expect(consent!.ip_address).toMatch(/127\.0\.0\.1|::1/);
    expect((consent!.agreed_at as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((consent!.agreed_at as Date).getTime()).toBeLessThanOrEqual(Date.now());
    // The plan's agreed price starts as the price consented to.
    const [plan] = await q<{ amount: string; agreed_amount: string }>('select amount::text, agreed_amount::text from subscriptions where id = $1', [subscriptionId]);
    expect(plan).toEqual({ amount: centsToDecimal(renewal), agreed_amount: centsToDecimal(renewal) });
  });

  it("records the server's price, not the browser's: a promo code lowers today's charge, the agreed price stays the subscriber price", async () => {
    await q(`insert into promo_codes (code, discount_type, discount_value, is_active) values ('CONSENT10', 'percentage', 10, true) on conflict do nothing`);
    const lines = [{ price: 1200, quantity: 2 }];
    const res = await subscribe(await body({ promoCode: 'CONSENT10', amount: toPayloadStrings(priceCart(lines, { subscribe: true, promo: { discountType: 'percentage', discountValue: 10 } })).total }));
    expect(res.status, await res.clone().text()).toBe(200);
    const { subscriptionId } = subscribeNonceResponseSchema.parse(await res.json());
    const [consent] = await consentOf(subscriptionId);
    expect(consent!.amount_cents).toBe(priceCart(lines, { subscribe: true }).total);
  });

  it('accepts the current terms version and refuses another with 409, charging nothing and making no plan', async () => {
    const ok = await subscribe(await body({ termsVersion: SUBSCRIPTION_TERMS_VERSION }));
    expect(ok.status).toBe(200);
    // This shopper's rows only: other test files write plans and payments to the same database meanwhile.
    const plans = () => q<{ n: number }>('select count(*)::int as n from subscriptions where user_id = $1', [me.id]);
    const payments = () =>
      q<{ n: number }>(
        `select count(*)::int as n from payment_transactions
          where subscription_id in (select id from subscriptions where user_id = $1) or order_id in (select id from orders where user_id = $1)`,
        [me.id],
      );
    const plansBefore = await plans();
    const paymentsBefore = await payments();
    const res = await subscribe(await body({ termsVersion: 'sns-terms-1999-01-01' }));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'SUBSCRIPTION_TERMS_CHANGED', message: SUBSCRIPTION_TERMS_MESSAGES.changed, termsVersion: SUBSCRIPTION_TERMS_VERSION });
    expect(await plans()).toEqual(plansBefore);
    expect(await payments()).toEqual(paymentsBefore);
  });

  it('records nothing when the card is declined (no plan, no consent)', async () => {
    const consents = () => q<{ n: number }>('select count(*)::int as n from subscription_consents where subscription_id in (select id from subscriptions where user_id = $1)', [me.id]);
    const consentsBefore = await consents();
    // Billing ZIP 46282: the sandbox declines.
    const res = await subscribe({ ...(await body()), ...(await tokenize('46282')) });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await consents()).toEqual(consentsBefore);
  });
});

describe('a guest who subscribes with the emailed code', () => {
  it('records the consent for the plan of the account made on verify', async () => {
    const email = `guest.${randomUUID().slice(0, 8)}@example.com`;
    expect((await api.request('/api/login/email-code', { body: { email, signUp: true } })).status).toBe(202);
    await api.services.afterAnswer.settled();
    const [row] = await q<{ id: string }>('select id from sign_in_codes where email = $1', [email]);
    // The code as the mail worker makes it when it sends the email.
    const client = await api.ctx.db.$client.connect();
    const code = await mintSignInCode(client, row!.id).finally(() => client.release());
    const verified = await api.request('/api/login/email-code/verify', { body: { email, code: code!, firstName: 'Gwen', lastName: 'Guest' } });
    expect(verified.status).toBe(200);
    const cookie = verified.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))!;
    const res = await api.request('/api/payments/subscribe-nonce', { body: await body({ email }), headers: { cookie, 'Idempotency-Key': randomUUID(), 'User-Agent': BROWSER } });
    expect(res.status, await res.clone().text()).toBe(200);
    const { subscriptionId } = subscribeNonceResponseSchema.parse(await res.json());
    const [owner] = await q<{ email: string }>('select u.email from subscriptions s join users u on u.id = s.user_id where s.id = $1', [subscriptionId]);
    expect(owner!.email).toBe(email);
    const [consent] = await consentOf(subscriptionId);
    expect(consent).toMatchObject({ terms_version: SUBSCRIPTION_TERMS_VERSION, amount_cents: priceCart([{ price: 1200, quantity: 2 }], { subscribe: true }).total, user_agent: BROWSER });
  });
});

describe('the price agreed', () => {
  async function product(price: string) {
    const name = `Agreed ${randomUUID().slice(0, 8)}`;
    const [row] = await q<{ id: number }>(`insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, 100, 'active', $4) returning id`, [
      name,
      name.toLowerCase().replace(/\s+/g, '-'),
      price,
      `AG-${name.slice(-8)}`,
    ]);
    return { id: row!.id, name };
  }
  const agreedOf = (id: string) =>
    q<{ amount: string; agreed: string | null; from: string | null }>('select amount::text, agreed_amount::text as agreed, agreed_amount_from::text as "from" from subscriptions where id = $1', [id]).then((r) => r[0]!);

  it("follows the shopper's own change of items (agreed on screen), not staff's (a notice is due first)", async () => {
    const p = await product('10.00');
    const plan = await insertPlan(api, me.id, { items: [{ productId: p.id, productName: p.name, quantity: 1, price: '10.00' }], amount: '9.18' });
    await q(`update subscriptions set agreed_amount = 9.18 where id = $1`, [plan.id]);
    const own = await me.call(`/api/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items: [{ productId: p.id, variantSku: null, quantity: 2 }] } });
    expect(own.status, await own.clone().text()).toBe(200);
    const after = await agreedOf(plan.id);
    expect(after).toEqual({ amount: after.agreed, agreed: after.agreed, from: null });
    expect(after.amount).not.toBe('9.18');

    const staff = await support.request(`/api/admin/subscriptions/${plan.id}/items`, { method: 'PUT', body: { items: [{ productId: p.id, variantSku: null, quantity: 3 }], reason: 'Asked by phone' } });
    expect(staff.status, await staff.clone().text()).toBe(200);
    const byStaff = await agreedOf(plan.id);
    expect(byStaff.agreed).toBe(after.agreed);
    expect(Number(byStaff.amount)).toBeGreaterThan(Number(byStaff.agreed));
  });
});

describe('My Subscriptions', () => {
  it("shows the next delivery at the price in force: a rise not notified in time is held to the price agreed", async () => {
    // 2 × $12.50 ($22.95 a month) raised by staff to $25.00 a month, agreed $22.95; then notified from the next delivery.
    const plan = await insertPlan(api, me.id, { amount: '25.00' });
    await q(`update subscriptions set agreed_amount = 22.95 where id = $1`, [plan.id]);
    const view = async () => {
      const list = (await (await me.call('/api/subscriptions')).json()) as Array<{ id: string; nextDeliveryAmount: string }>;
      return list.find((p) => p.id === plan.id)!.nextDeliveryAmount;
    };
    expect(await view()).toBe('22.95');
    await q(`update subscriptions set agreed_amount = 25.00, agreed_amount_from = (next_billing_date at time zone 'UTC')::date, prior_agreed_amount = 22.95 where id = $1`, [plan.id]);
    // Its lines cost $22.95 today (priceRenewal charges the lower of the two).
    expect(await view()).toBe('22.95');
    await q(`update subscriptions set items = jsonb_set(items, '{0,price}', '"14.00"') where id = $1`, [plan.id]);
    expect(await view()).toBe('25.00');
    await q(`update subscriptions set agreed_amount_from = (next_billing_date at time zone 'UTC')::date + 1 where id = $1`, [plan.id]);
    expect(await view()).toBe('22.95');
  });
});

describe('the staff plan page', () => {
  it('shows the consent: terms version and text, agreed price, cadence, time, address and browser', async () => {
    const res = await subscribe(await body());
    const { subscriptionId } = subscribeNonceResponseSchema.parse(await res.json());
    const detail = adminSubscriptionDetailSchema.parse(await (await support.request(`/api/admin/subscriptions/${subscriptionId}`)).json());
    const renewal = priceCart([{ price: 1200, quantity: 2 }], { subscribe: true }).total;
    expect(detail.consent).toMatchObject({
      termsVersion: SUBSCRIPTION_TERMS_VERSION,
      termsText: subscriptionTermsText({ renewalAmount: renewal, interval: 'monthly', intervalCount: 2 }),
      agreedAmount: centsToDecimal(renewal),
      cadence: 'Every 2 months',
      shippingAddress: ADDRESS,
      userAgent: BROWSER,
      anonymised: false,
    });
    expect(detail.priceNotices).toEqual([]);
  });

  it('answers null for a plan from before consents were kept', async () => {
    const plan = await insertPlan(api, me.id);
    const detail = adminSubscriptionDetailSchema.parse(await (await support.request(`/api/admin/subscriptions/${plan.id}`)).json());
    expect(detail.consent).toBeNull();
  });
});
