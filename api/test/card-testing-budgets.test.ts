/**
 * The card-testing guard's budgets (issue 19, api/src/lib/card-testing-guard.ts): refused cards are
 * counted per client address (an IPv6 address by its /56, as every limit), per signed-in shopper and per
 * plan, so changing a plan's card (a live $0 authorisation each time) from many addresses is stopped too.
 * Each test has an API of its own (budgets of its own); client addresses come from X-Forwarded-For.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import { startTestApi, type TestApi } from './support/harness';

const TOO_MANY = { message: CHECKOUT_MESSAGES.tooManyFailures, code: 'RATE_LIMITED' };
const DECLINE_ZIP = '46282';

interface Shopper {
  id: string;
  /** A call with the shopper's session, from `address`. */
  call: (path: string, body: unknown, address: string) => Promise<Response>;
}

async function signUp(api: TestApi): Promise<Shopper> {
  const email = `cards.${randomBytes(4).toString('hex')}@example.com`;
  const res = await api.request('/api/register', {
    body: { firstName: 'Ada', lastName: 'Lovelace', email, password: 'correct horse battery' },
  });
  expect(res.status).toBe(201);
  const { user } = (await res.json()) as { user: { id: string } };
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('nh.sid='))!;
  return { id: user.id, call: (path, body, address) => api.request(path, { body, headers: { cookie, 'x-forwarded-for': address } }) };
}

/** An active plan of the shopper on a saved card, or a paused one (resumed with a new card). */
async function insertPlan(api: TestApi, userId: string, status: 'active' | 'paused' = 'active'): Promise<string> {
  const items = [{ productId: 1, productName: 'Test Cleaner', variantSku: null, sku: null, itemNumber: null, quantity: 2, price: '12.50' }];
  const { rows } = await api.ctx.db.$client.query<{ id: string }>(
    `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, shipping_address,
       authnet_customer_profile_id, authnet_payment_profile_id, card_expires_on)
     values ($1, 'plan@example.com', 'Ada Lovelace', $2, '22.95', date_trunc('day', now(), 'UTC') + interval '10 days 14 hours', $3, $4, '11110000', '22220000', '2030-12-31')
     returning id`,
    [userId, JSON.stringify(items), status, JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' })],
  );
  return rows[0]!.id;
}

/** A card tokenised by the local sandbox (ZIP 46282 declines). */
async function card(api: TestApi, zip: string): Promise<{ dataDescriptor: string; dataValue: string }> {
  const res = await api.request('/api/payments/sandbox/tokenize', {
    body: {
      authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
      cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip },
    },
  });
  return ((await res.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } }).opaqueData;
}

/** Whether the sandbox still holds the token unused (a refused call never sent the card). */
const unsent = async (api: TestApi, dataValue: string) =>
  (await api.ctx.redis.exists(`${api.ctx.config.QUEUE_PREFIX}:pay-sandbox:token:${dataValue}`)) === 1;

/** A new card for plan `id` from `address`: the status, and the body when it is a 429. */
async function changeCard(
  api: TestApi,
  who: Shopper,
  id: string,
  zip: string,
  address: string,
): Promise<{ status: number; body: unknown; dataValue: string }> {
  const opaque = await card(api, zip);
  const res = await who.call(`/api/subscriptions/${id}/card`, opaque, address);
  return { status: res.status, body: await res.json(), dataValue: opaque.dataValue };
}

describe('the card-testing guard', () => {
  it('keys a client address as every limit does: IPv6 addresses in one /56 share a budget', async () => {
    const api = await startTestApi({
      TRUST_PROXY: 'true',
      PAYMENT_FAILURES_PER_15_MIN: '1',
      PAYMENT_FAILURES_PER_ACCOUNT_PER_15_MIN: '0',
      PAYMENT_FAILURES_PER_PLAN_PER_15_MIN: '0',
    });
    try {
      const me = await signUp(api);
      const plan = await insertPlan(api, me.id);
      expect((await changeCard(api, me, plan, DECLINE_ZIP, '2001:db8:abcd:1200::1')).status).toBe(402);
      const sameBlock = await changeCard(api, me, plan, DECLINE_ZIP, '2001:db8:abcd:12ff:ffff::2');
      expect(sameBlock).toMatchObject({ status: 429, body: TOO_MANY });
      expect(await unsent(api, sameBlock.dataValue)).toBe(true);
      // Another /56 has a budget of its own.
      expect((await changeCard(api, me, plan, DECLINE_ZIP, '2001:db8:abcd:1300::1')).status).toBe(402);
    } finally {
      await api.close();
    }
  });

  it("stops a plan's card changes after its budget, from however many addresses; a stored card is not counted", async () => {
    const api = await startTestApi({
      TRUST_PROXY: 'true',
      PAYMENT_FAILURES_PER_PLAN_PER_15_MIN: '2',
      PAYMENT_FAILURES_PER_ACCOUNT_PER_15_MIN: '50',
    });
    try {
      const me = await signUp(api);
      const plan = await insertPlan(api, me.id);
      expect((await changeCard(api, me, plan, DECLINE_ZIP, '203.0.113.1')).status).toBe(402);
      expect((await changeCard(api, me, plan, '12345', '203.0.113.2')).status).toBe(200);
      expect((await changeCard(api, me, plan, DECLINE_ZIP, '203.0.113.3')).status).toBe(402);
      for (const address of ['203.0.113.4', '198.51.100.9']) {
        const refused = await changeCard(api, me, plan, '12345', address);
        expect(refused).toMatchObject({ status: 429, body: TOO_MANY });
        expect(await unsent(api, refused.dataValue)).toBe(true);
      }
      // The shopper's other plan has its own budget.
      const other = await insertPlan(api, me.id);
      expect((await changeCard(api, me, other, DECLINE_ZIP, '203.0.113.5')).status).toBe(402);
    } finally {
      await api.close();
    }
  });

  it("stops a shopper after the account's budget across plans and card paths, from any address; another shopper goes on", async () => {
    const api = await startTestApi({
      TRUST_PROXY: 'true',
      PAYMENT_FAILURES_PER_ACCOUNT_PER_15_MIN: '2',
      PAYMENT_FAILURES_PER_PLAN_PER_15_MIN: '50',
    });
    try {
      const me = await signUp(api);
      const [first, second, third] = [await insertPlan(api, me.id), await insertPlan(api, me.id), await insertPlan(api, me.id, 'paused')];
      expect((await changeCard(api, me, first, DECLINE_ZIP, '203.0.113.11')).status).toBe(402);
      expect((await changeCard(api, me, second, DECLINE_ZIP, '203.0.113.12')).status).toBe(402);
      const changing = await changeCard(api, me, first, '12345', '203.0.113.13');
      expect(changing).toMatchObject({ status: 429, body: TOO_MANY });
      // Resuming a paused plan with a new card spends the same budget.
      const opaque = await card(api, '12345');
      const resuming = await me.call(`/api/subscriptions/${third}/resume`, opaque, '203.0.113.14');
      expect(resuming.status).toBe(429);
      expect(await resuming.json()).toEqual(TOO_MANY);
      expect(await unsent(api, opaque.dataValue)).toBe(true);

      const someoneElse = await signUp(api);
      const theirs = await insertPlan(api, someoneElse.id);
      expect((await changeCard(api, someoneElse, theirs, '12345', '203.0.113.13')).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});
