/**
 * Shoppers helping themselves (issue 13) through the API: order history and detail (another shopper's
 * order is a 404), a guest's lookup by number and email (one answer whatever matched; a single-use
 * emailed link, exchanged once for an hour's access in that browser), and the password reset (single
 * use, 1 h, every session ended; a completed reset spends the account's other reset links too). The API
 * writes no token: the outbox row names the link's row and the test makes the token as the mail worker
 * does (support/emailed-links.ts).
 */
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import { ACCOUNT_MESSAGES, shopperOrderListSchema, shopperOrderSchema } from '@nh/shared/contracts/account';
import { median, timeBothWays } from './support/answer-timing';
import { emailedToken, emailedTokens, linkRows } from './support/emailed-links';
import { Browser as TestBrowser } from './support/browser';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** A browser of this file's API. */
class Browser extends TestBrowser {
  constructor() {
    super(() => api.url);
  }
}

const unique = () => randomBytes(4).toString('hex');

async function registered(password = 'first password 1'): Promise<{ browser: Browser; email: string; id: string; password: string }> {
  const browser = new Browser();
  const email = `self.${unique()}@example.com`;
  const res = await browser.call('/api/register', { body: { firstName: 'Sam', lastName: 'Shopper', email, password } });
  expect(res.status).toBe(201);
  const { user } = (await res.json()) as { user: { id: string } };
  return { browser, email, id: user.id, password };
}

async function placeOrder(o: {
  userId?: string | null;
  email: string;
  createdAt?: Date;
  carrier?: string | null;
  trackingNumber?: string | null;
  status?: 'processing' | 'shipped';
}): Promise<string> {
  const [row] = await api.ctx.db
    .insert(tables.orders)
    .values({
      userId: o.userId ?? null,
      customerEmail: o.email,
      customerName: 'Sam Shopper',
      shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
      items: [
        {
          productId: 1,
          productName: 'Flush Toilet Cleaner',
          variantSku: null,
          sku: 'NH-FLU-24',
          itemNumber: 'NH1001',
          quantity: 2,
          price: '12.99',
        },
        { productId: 2, productName: 'Dish Pods', variantSku: null, sku: 'NH-DSH-1', itemNumber: 'NH1002', quantity: 1, price: '14.99' },
      ],
      subtotal: 4097,
      discount: 0,
      shipping: 0,
      tax: 328,
      total: 4425,
      status: o.status ?? 'processing',
      carrier: o.carrier ?? null,
      trackingNumber: o.trackingNumber ?? null,
      ...(o.createdAt ? { createdAt: o.createdAt } : {}),
    })
    .returning({ id: tables.orders.id });
  return row!.id;
}

/** The token of the latest link emailed to `email` for `topic`, as the mail worker makes it. */
const tokenFor = (topic: string, email: string) => emailedToken(api.ctx.db, topic, email);
/** Every request answered so far has done its work (reset requests and lookups answer first). */
const settled = () => api.services.afterAnswer.settled();

const tokenRows = (email: string) =>
  api.ctx.db.select().from(tables.shopperTokens).where(eq(tables.shopperTokens.email, email.toLowerCase()));

describe('order history and detail', () => {
  it('lists a signed-in shopper’s own orders, newest first, and shows one with items, totals, carrier and tracking link', async () => {
    const me = await registered();
    const older = await placeOrder({ userId: me.id, email: me.email, createdAt: new Date('2026-01-02T10:00:00Z') });
    const newer = await placeOrder({
      userId: me.id,
      email: me.email,
      status: 'shipped',
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
    });
    await placeOrder({ userId: null, email: me.email }); // a guest order with the same address is not in the account

    const list = await me.browser.call('/api/orders');
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const { orders } = shopperOrderListSchema.parse(await list.json());
    expect(orders.map((o) => o.id)).toEqual([newer, older]);
    expect(orders[0]).toMatchObject({ number: newer.slice(0, 8), status: 'shipped', itemCount: 3, total: 4425 });

    const detail = await me.browser.call(`/api/orders/${newer}`);
    expect(detail.status).toBe(200);
    const order = shopperOrderSchema.parse(await detail.json());
    expect(order).toMatchObject({
      id: newer,
      status: 'shipped',
      subtotal: 4097,
      tax: 328,
      total: 4425,
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
    });
    expect(order.trackingUrl).toContain('1Z999AA10123456784');
    expect(order.items).toEqual([
      { productId: 1, productName: 'Flush Toilet Cleaner', quantity: 2, unitPrice: 1299, lineTotal: 2598 },
      { productId: 2, productName: 'Dish Pods', quantity: 1, unitPrice: 1499, lineTotal: 1499 },
    ]);
  });

  it('answers another shopper’s order, an unknown id and a malformed id with the same 404; signed out with a 401', async () => {
    const owner = await registered();
    const other = await registered();
    const theirs = await placeOrder({ userId: owner.id, email: owner.email });
    for (const path of [`/api/orders/${theirs}`, '/api/orders/00000000-0000-4000-8000-000000000000', '/api/orders/not-an-id']) {
      const res = await other.browser.call(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: ACCOUNT_MESSAGES.orderNotFound, code: 'NOT_FOUND' });
    }
    expect(shopperOrderListSchema.parse(await (await other.browser.call('/api/orders')).json()).orders).toEqual([]);
    const guest = await api.request('/api/orders');
    expect(guest.status).toBe(401);
    expect(await guest.json()).toMatchObject({ message: ACCOUNT_MESSAGES.ordersSignIn });
    expect((await api.request(`/api/orders/${theirs}`)).status).toBe(401);
  });
});

describe('guest order lookup', () => {
  it('answers 202 with one message whether or not the number and email match; only a match writes a link and its email', async () => {
    const email = `guest.${unique()}@example.com`;
    const orderId = await placeOrder({ email, carrier: 'USPS', trackingNumber: '9400100000000000000000', status: 'shipped' });
    const answers = [];
    for (const body of [
      { orderNumber: `#${orderId.slice(0, 8).toUpperCase()}`, email: email.toUpperCase() },
      { orderNumber: orderId.slice(0, 8), email: `wrong.${unique()}@example.com` },
      { orderNumber: 'ffffffff', email },
    ]) {
      const res = await api.request('/api/orders/lookup', { body });
      answers.push({ status: res.status, body: await res.json() });
    }
    expect(answers).toEqual(Array(3).fill({ status: 202, body: { message: ACCOUNT_MESSAGES.lookupSent } }));
    await settled();
    const rows = await tokenRows(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: 'order_access', orderId, usedAt: null });
    // The outbox row names the link's row, nothing more (no token: it is made as the email is sent).
    expect(await linkRows(api.ctx.db, 'order.link-requested', email)).toEqual([
      { tokenId: rows[0]!.id, payload: { tokenId: rows[0]!.id } },
    ]);
    const wrongEmailLinks = await api.ctx.db.execute(sql`select 1 from shopper_tokens where order_id = ${orderId} and email <> ${email}`);
    expect(wrongEmailLinks.rows).toHaveLength(0);
  });

  it('refuses a malformed number or email with a 400 naming the field', async () => {
    const res = await api.request('/api/orders/lookup', { body: { orderNumber: 'abc', email: 'a@b.co' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      message: ACCOUNT_MESSAGES.orderNumber,
      fields: { orderNumber: ACCOUNT_MESSAGES.orderNumber },
    });
    const bad = await api.request('/api/orders/lookup', { body: { orderNumber: '12345678', email: 'nope' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fields: { email: ACCOUNT_MESSAGES.email } });
  });

  it('exchanges the emailed link once for an hour’s access in that browser; a second use, another browser and a forged link are refused', async () => {
    const email = `guest.${unique()}@example.com`;
    const orderId = await placeOrder({ email, carrier: 'FedEx', trackingNumber: '123456789012', status: 'shipped' });
    await api.request('/api/orders/lookup', { body: { orderNumber: orderId.slice(0, 8), email } });
    const token = await tokenFor('order.link-requested', email);

    const guest = new Browser();
    const opened = await guest.call('/api/orders/access', { body: { token } });
    expect(opened.status).toBe(200);
    expect(shopperOrderSchema.parse(await opened.json())).toMatchObject({
      id: orderId,
      carrier: 'FedEx',
      trackingNumber: '123456789012',
      total: 4425,
    });
    const reload = await guest.call(`/api/orders/guest/${orderId}`);
    expect(reload.status).toBe(200);
    expect((await reload.json()) as { id: string }).toMatchObject({ id: orderId });

    const again = await new Browser().call('/api/orders/access', { body: { token } });
    expect(again.status).toBe(410);
    expect(await again.json()).toEqual({ message: ACCOUNT_MESSAGES.orderLinkUsed, code: 'ORDER_LINK_USED' });
    const stranger = await new Browser().call(`/api/orders/guest/${orderId}`);
    expect(stranger.status).toBe(403);
    expect(await stranger.json()).toMatchObject({ message: ACCOUNT_MESSAGES.guestAccessEnded });
    const forged = await new Browser().call('/api/orders/access', { body: { token: `${token}x` } });
    expect(forged.status).toBe(404);
    expect(await forged.json()).toMatchObject({ message: ACCOUNT_MESSAGES.orderLinkInvalid });
    // Access is to that order only.
    const otherOrder = await placeOrder({ email: `someone.${unique()}@example.com` });
    expect((await guest.call(`/api/orders/guest/${otherOrder}`)).status).toBe(403);
  });

  it('answers a lookup that matched and one that did not in the same time (nothing told by timing)', async () => {
    const timedApi = await startTestApi({ TRUST_PROXY: 'true' }); // budgets of its own; each request from an address of its own
    try {
      const orders: Array<{ id: string; email: string }> = [];
      for (let i = 0; i < 20; i++) {
        const email = `timed.${unique()}@example.com`;
        orders.push({ id: await placeOrder({ email }), email });
      }
      // The links' table locked for 200 ms from each request's start: an answer that waited for the work would wait for the lock.
      const times = await timeBothWays(
        20,
        (which, i, signal) =>
          fetch(`${timedApi.url}/api/orders/lookup`, {
            method: 'POST',
            signal,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${i}.${which === 'known' ? 1 : 2}` },
            body: JSON.stringify({
              orderNumber: orders[i]!.id.slice(0, 8),
              email: which === 'known' ? orders[i]!.email : `nobody.${unique()}@example.com`,
            }),
          }),
        { db: api.ctx.db, table: 'shopper_tokens' },
      );
      expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(20);
      expect(times.statuses).toEqual(Array(40).fill(202));
      // The work was done once the table was free: each matched order got its link.
      await timedApi.services.afterAnswer.settled();
      const links = await api.ctx.db
        .select()
        .from(tables.shopperTokens)
        .where(
          inArray(
            tables.shopperTokens.orderId,
            orders.map((o) => o.id),
          ),
        );
      expect(links).toHaveLength(20);
    } finally {
      await timedApi.close();
    }
  }, 90_000);

  it('refuses an expired link with a 410 and leaves it unspent', async () => {
    const email = `guest.${unique()}@example.com`;
    const orderId = await placeOrder({ email });
    await api.request('/api/orders/lookup', { body: { orderNumber: orderId, email } });
    const token = await tokenFor('order.link-requested', email);
    await api.ctx.db
      .update(tables.shopperTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(tables.shopperTokens.email, email));
    const res = await new Browser().call('/api/orders/access', { body: { token } });
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ message: ACCOUNT_MESSAGES.orderLinkExpired, code: 'ORDER_LINK_EXPIRED' });
    expect((await tokenRows(email))[0]!.usedAt).toBeNull();
  });

  it('rate-limits lookups: 5 an hour for one email address, 10 from one client address, with its own message', async () => {
    const fresh = await startTestApi(); // budgets of its own
    try {
      const lookup = (email: string) => fresh.request('/api/orders/lookup', { body: { orderNumber: '12345678', email } });
      const email = `flood.${unique()}@example.com`;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await lookup(email)).status);
      expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
      const res = await lookup(email);
      expect(await res.json()).toMatchObject({ message: ACCOUNT_MESSAGES.tooManyLookups, code: 'RATE_LIMITED' });
      // Seven counted from this address so far (all count, matched or not): three more, then refused.
      const others: number[] = [];
      for (let i = 0; i < 4; i++) others.push((await lookup(`other${i}.${unique()}@example.com`)).status);
      expect(others).toEqual([202, 202, 202, 429]);
    } finally {
      await fresh.close();
    }
  });
});

describe('password reset', () => {
  it('answers 202 with one message for a known and an unknown address; only the known one gets a link', async () => {
    const me = await registered();
    const unknown = `nobody.${unique()}@example.com`;
    for (const email of [me.email.toUpperCase(), unknown]) {
      const res = await api.request('/api/password/forgot', { body: { email } });
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ message: ACCOUNT_MESSAGES.resetSent });
    }
    await settled();
    expect(await tokenRows(unknown)).toEqual([]);
    const [row] = await tokenRows(me.email);
    expect(row).toMatchObject({ purpose: 'password_reset', userId: me.id });
    expect(await linkRows(api.ctx.db, 'shopper.password-reset-requested', me.email)).toEqual([
      { tokenId: row!.id, payload: { tokenId: row!.id } },
    ]);
    // Only the hash is stored, and the link lasts one hour.
    const token = await tokenFor('shopper.password-reset-requested', me.email);
    const [minted] = await tokenRows(me.email);
    expect(minted!.tokenHash).not.toContain(token);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(59 * 60 * 1000);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(60 * 60 * 1000 + 1000);
  });

  it('sets the new password, ends every session of the account, and refuses the link the second time', async () => {
    const me = await registered();
    const otherDevice = new Browser();
    expect((await otherDevice.call('/api/login', { body: { email: me.email, password: me.password } })).status).toBe(200);
    expect(await (await otherDevice.call('/api/auth/user')).json()).toMatchObject({ id: me.id });
    await api.request('/api/password/forgot', { body: { email: me.email } });
    const token = await tokenFor('shopper.password-reset-requested', me.email);

    const done = await new Browser().call('/api/password/reset', { body: { token, password: 'second password 2' } });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ message: ACCOUNT_MESSAGES.resetDone });
    for (const device of [me.browser, otherDevice]) expect(await (await device.call('/api/auth/user')).json()).toBeNull();
    const sessions = await api.ctx.db.execute(sql`select 1 from sessions where sess->>'userId' = ${me.id}`);
    expect(sessions.rows).toHaveLength(0);

    expect((await api.request('/api/login', { body: { email: me.email, password: me.password } })).status).toBe(401);
    expect((await api.request('/api/login', { body: { email: me.email, password: 'second password 2' } })).status).toBe(200);

    const reused = await api.request('/api/password/reset', { body: { token, password: 'third password 3' } });
    expect(reused.status).toBe(410);
    expect(await reused.json()).toEqual({ message: ACCOUNT_MESSAGES.resetInvalid, code: 'PASSWORD_RESET_INVALID' });
    expect((await api.request('/api/login', { body: { email: me.email, password: 'second password 2' } })).status).toBe(200);
  });

  it('spends every open reset link of the account with the one used: links emailed earlier no longer work', async () => {
    const me = await registered();
    const other = await registered();
    for (let i = 0; i < 3; i++) await api.request('/api/password/forgot', { body: { email: me.email } });
    await api.request('/api/password/forgot', { body: { email: other.email } });
    const [first, second, third] = await emailedTokens(api.ctx.db, 'shopper.password-reset-requested', me.email, 3);
    const theirs = await tokenFor('shopper.password-reset-requested', other.email);

    expect((await api.request('/api/password/reset', { body: { token: second, password: 'second password 2' } })).status).toBe(200);
    for (const token of [first, third]) {
      const res = await api.request('/api/password/reset', { body: { token, password: 'someone else 3' } });
      expect(res.status).toBe(410);
      expect(await res.json()).toEqual({ message: ACCOUNT_MESSAGES.resetInvalid, code: 'PASSWORD_RESET_INVALID' });
    }
    expect((await tokenRows(me.email)).filter((r) => r.usedAt === null)).toEqual([]);
    expect((await api.request('/api/login', { body: { email: me.email, password: 'second password 2' } })).status).toBe(200);
    // Another account's link is not touched.
    const open = await api.ctx.db
      .select()
      .from(tables.shopperTokens)
      .where(and(eq(tables.shopperTokens.userId, other.id), isNull(tables.shopperTokens.usedAt)));
    expect(open).toHaveLength(1);
    expect((await api.request('/api/password/reset', { body: { token: theirs, password: 'their new one 4' } })).status).toBe(200);
  });

  it('answers a reset request for a known and an unknown address in the same time (no account enumeration by timing)', async () => {
    const timedApi = await startTestApi({ TRUST_PROXY: 'true' }); // budgets of its own; each request from an address of its own
    try {
      const known: string[] = [];
      for (let i = 0; i < 20; i++) {
        const email = `timed.${unique()}@example.com`;
        await api.ctx.db.insert(tables.users).values({ email, firstName: 'Tim', passwordHash: 'not a real hash' });
        known.push(email);
      }
      // The links' table locked for 200 ms from each request's start: an answer that waited for the work would wait for the lock.
      const times = await timeBothWays(
        20,
        (which, i, signal) =>
          fetch(`${timedApi.url}/api/password/forgot`, {
            method: 'POST',
            signal,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${i}.${which === 'known' ? 1 : 2}` },
            body: JSON.stringify({ email: which === 'known' ? known[i] : `nobody.${unique()}@example.com` }),
          }),
        { db: api.ctx.db, table: 'shopper_tokens' },
      );
      expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(20);
      expect(times.statuses).toEqual(Array(40).fill(202));
      // The work was done once the table was free: every known address got its link.
      await timedApi.services.afterAnswer.settled();
      const links = await api.ctx.db.select().from(tables.shopperTokens).where(inArray(tables.shopperTokens.email, known));
      expect(links).toHaveLength(20);
    } finally {
      await timedApi.close();
    }
  }, 90_000);

  it('refuses an expired link with a 410 and changes nothing: the password and the sessions stay', async () => {
    const me = await registered();
    await api.request('/api/password/forgot', { body: { email: me.email } });
    const token = await tokenFor('shopper.password-reset-requested', me.email);
    await api.ctx.db
      .update(tables.shopperTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(tables.shopperTokens.email, me.email)));
    const res = await api.request('/api/password/reset', { body: { token, password: 'never applied 9' } });
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ message: ACCOUNT_MESSAGES.resetInvalid });
    expect(await (await me.browser.call('/api/auth/user')).json()).toMatchObject({ id: me.id });
    expect((await api.request('/api/login', { body: { email: me.email, password: me.password } })).status).toBe(200);
    expect((await tokenRows(me.email))[0]!.usedAt).toBeNull();
  });

  it('refuses a short password with a 400 before spending the link, and an unknown token with a 410', async () => {
    const me = await registered();
    await api.request('/api/password/forgot', { body: { email: me.email } });
    const token = await tokenFor('shopper.password-reset-requested', me.email);
    const short = await api.request('/api/password/reset', { body: { token, password: 'short' } });
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({
      message: ACCOUNT_MESSAGES.passwordTooShort,
      fields: { password: ACCOUNT_MESSAGES.passwordTooShort },
    });
    expect((await tokenRows(me.email))[0]!.usedAt).toBeNull();
    const unknown = await api.request('/api/password/reset', {
      body: { token: randomBytes(32).toString('base64url'), password: 'long enough 1' },
    });
    expect(unknown.status).toBe(410);
  });

  it('rate-limits reset requests for one email address with its own message', async () => {
    const fresh = await startTestApi(); // budgets of its own
    try {
      const email = `flood.${unique()}@example.com`;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await fresh.request('/api/password/forgot', { body: { email } })).status);
      expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
      expect(await (await fresh.request('/api/password/forgot', { body: { email } })).json()).toMatchObject({
        message: ACCOUNT_MESSAGES.tooManyResets,
        code: 'RATE_LIMITED',
      });
    } finally {
      await fresh.close();
    }
  });
});
