import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_MESSAGES, subscriptionViewSchema, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** A signed-in shopper: a new account, and its session cookie sent on every call. */
interface Shopper {
  id: string;
  email: string;
  call: (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Response>;
}

async function signUp(): Promise<Shopper> {
  const email = `sub.${randomBytes(4).toString('hex')}@example.com`;
  const res = await api.request('/api/register', { body: { firstName: 'Ada', lastName: 'Lovelace', email, password: 'correct horse battery' } });
  expect(res.status).toBe(201);
  const { user } = (await res.json()) as { user: { id: string } };
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))!;
  return {
    id: user.id,
    email,
    call: (path, init = {}) => api.request(path, { ...init, headers: { cookie, ...init.headers } }),
  };
}

/** A subscription row written directly (the list and cancel calls do not care how it was made). */
async function insertSubscription(userId: string, options: { status?: string; createdAt?: string; card?: string } = {}): Promise<string> {
  const items = [{ productId: 1, productName: 'Test Cleaner', variantSku: null, sku: 'T-1', itemNumber: null, quantity: 2, price: '12.50' }];
  const [row] = await q<{ id: string }>(
    `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, created_at, shipping_address)
     values ($1, 'x@example.com', 'Ada Lovelace', $2, '22.95', now() + interval '1 month', $3, coalesce($4::timestamptz, now()), $5) returning id`,
    [userId, JSON.stringify(items), options.status ?? 'active', options.createdAt ?? null, JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' })],
  );
  if (options.card) {
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status, card_type, card_last_four, created_at) values ($1, '2020-01-01', '22.95', 'declined', 'Visa', '0000', now() + interval '1 second')`, [row!.id]);
    await q(`insert into payment_transactions (subscription_id, billing_period, amount, status, card_type, card_last_four) values ($1, '2020-02-01', '22.95', 'approved', 'Visa', $2)`, [row!.id, options.card]);
  }
  return row!.id;
}

describe('signed out', () => {
  it('answers 401 with the spec message on the list and cancel calls', async () => {
    const list = await api.request('/api/subscriptions');
    expect(list.status).toBe(401);
    expect(await list.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.listLoginRequired });
    const cancel = await api.request(`/api/subscriptions/${randomUUID()}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(401);
    expect(await cancel.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.listLoginRequired });
  });
});

describe('GET /api/subscriptions', () => {
  it('lists only the user\'s own, newest first, with the card of the latest approved payment', async () => {
    const me = await signUp();
    const other = await signUp();
    const older = await insertSubscription(me.id, { createdAt: '2024-01-01T00:00:00Z', status: 'cancelled' });
    const newer = await insertSubscription(me.id, { card: '4242' });
    await insertSubscription(other.id);

    const res = await me.call('/api/subscriptions');
    expect(res.status).toBe(200);
    const list = (await res.json()) as SubscriptionView[];
    expect(list.map((s) => subscriptionViewSchema.parse(s))).toEqual(list);
    expect(list.map((s) => s.id)).toEqual([newer, older]);
    expect(list[0]).toMatchObject({
      status: 'active',
      items: [{ productId: 1, productName: 'Test Cleaner', variantSku: null, quantity: 2, price: '12.50' }],
      amount: '22.95',
      discountPercent: 15,
      interval: 'monthly',
      intervalCount: 1,
      cancelledAt: null,
      cardType: 'Visa',
      cardLastFour: '4242',
    });
    expect(list[1]).toMatchObject({ status: 'cancelled', cardType: null, cardLastFour: null, createdAt: '2024-01-01T00:00:00.000Z' });
    expect(Object.keys(list[0]!.items[0]!)).not.toContain('sku');
  });

  it('answers an empty list for a user without subscriptions', async () => {
    const me = await signUp();
    const res = await me.call('/api/subscriptions');
    expect(await res.json()).toEqual([]);
  });
});

describe('POST /api/subscriptions/{id}/cancel', () => {
  it('cancels the user\'s own active plan, then refuses a second cancel', async () => {
    const me = await signUp();
    const id = await insertSubscription(me.id, { card: '1111' });
    const res = await me.call(`/api/subscriptions/${id}/cancel`, { method: 'POST' });
    expect(res.status).toBe(200);
    const view = subscriptionViewSchema.parse(await res.json());
    expect(view).toMatchObject({ id, status: 'cancelled', cardLastFour: '1111' });
    expect(Date.now() - Date.parse(view.cancelledAt!)).toBeLessThan(60_000);
    const [row] = await q<{ status: string; cancelled_at: Date; updated_at: Date; created_at: Date }>('select status, cancelled_at, updated_at, created_at from subscriptions where id = $1', [id]);
    expect(row!.status).toBe('cancelled');
    expect(row!.cancelled_at.toISOString()).toBe(view.cancelledAt);
    expect(row!.updated_at.getTime()).toBeGreaterThanOrEqual(row!.created_at.getTime());

    const again = await me.call(`/api/subscriptions/${id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.alreadyEnded });
  });

  it('cancels a paused plan and refuses an expired one', async () => {
    const me = await signUp();
    const paused = await insertSubscription(me.id, { status: 'paused' });
    expect((await me.call(`/api/subscriptions/${paused}/cancel`, { method: 'POST' })).status).toBe(200);
    const expired = await insertSubscription(me.id, { status: 'expired' });
    expect((await me.call(`/api/subscriptions/${expired}/cancel`, { method: 'POST' })).status).toBe(409);
    expect((await q<{ status: string }>('select status from subscriptions where id = $1', [expired]))[0]!.status).toBe('expired');
  });

  it('answers 404 for someone else\'s plan and leaves it as it was', async () => {
    const me = await signUp();
    const other = await signUp();
    const theirs = await insertSubscription(other.id);
    const res = await me.call(`/api/subscriptions/${theirs}/cancel`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.notFound });
    expect(await q('select status, cancelled_at from subscriptions where id = $1', [theirs])).toEqual([{ status: 'active', cancelled_at: null }]);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const me = await signUp();
    for (const id of [randomUUID(), 'not-a-uuid', '1']) {
      const res = await me.call(`/api/subscriptions/${id}/cancel`, { method: 'POST' });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: SUBSCRIPTION_MESSAGES.notFound });
    }
  });
});
