/**
 * The request guards in front of every route: state-changing requests only from the shop's own pages,
 * one promo-code guessing budget for validation and checkout, and the warning for an untrusted proxy.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@nh/server/observability/logger';
import { FOREIGN_ORIGIN_MESSAGE } from '../src/lib/same-origin';
import { untrustedProxyWarning } from '../src/lib/proxy-warning';
import { PROMO_GUESS_MESSAGE } from '../src/modules/promo/guess-limit';
import { startTestApi, type TestApi } from './support/harness';
import { captureLog } from './support/log-capture';

let api: TestApi;
let cookie: string;

beforeAll(async () => {
  api = await startTestApi({ SHOP_SITE_URL: 'https://shop.example.com', ALLOWED_ORIGINS: 'https://www.shop.example.com' });
  const res = await api.request('/api/register', { body: { firstName: 'Ada', lastName: 'Guard', email: `ada.${randomUUID().slice(0, 8)}@example.com`, password: 'correct horse battery' } });
  expect(res.status).toBe(201);
  // The session cookie (signing up also sets the known-browser cookie).
  cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('nh.sid='))!;
});
afterAll(() => api.close());

/** A guest's user call answers 200 with null too: signed in means a user came back. */
const signedIn = async () => (await (await api.request('/api/auth/user', { headers: { cookie } })).json()) !== null;

describe('state-changing requests come from the shop', () => {
  /** A body-less cancel of some plan, as a forged form or fetch would send it, with the shopper's cookie. */
  const cancel = (headers: Record<string, string>) => api.request(`/api/subscriptions/${randomUUID()}/cancel`, { method: 'POST', headers: { cookie, ...headers } });

  it.each([
    ['a foreign Origin', { origin: 'http://evil.example' }],
    ['another port of the same site (the test API is on 127.0.0.1 too)', { origin: 'http://127.0.0.1:1' }],
    ['Origin: null (sandboxed frame)', { origin: 'null' }],
    ['Origin: null from another site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['no Origin but Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['no Origin but Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
  ])('refuses %s with 403 and a message, before the route runs', async (_name, headers) => {
    const res = await cancel(headers);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: FOREIGN_ORIGIN_MESSAGE, code: 'FOREIGN_ORIGIN' });
  });

  it('refuses a foreign sign-out: the shopper stays signed in', async () => {
    const res = await api.request('/api/logout', { method: 'POST', headers: { cookie, origin: 'http://evil.example' } });
    expect(res.status).toBe(403);
    expect(await signedIn()).toBe(true);
  });

  it.each([
    ['its own origin', () => ({ origin: api.url })],
    ['the configured site (SHOP_SITE_URL)', () => ({ origin: 'https://shop.example.com' })],
    ['an origin in ALLOWED_ORIGINS', () => ({ origin: 'https://www.shop.example.com' })],
    ['Sec-Fetch-Site: same-origin without Origin', () => ({ 'sec-fetch-site': 'same-origin' })],
    ['its own form under a no-referrer policy (Origin: null, Sec-Fetch-Site: same-origin)', () => ({ origin: 'null', 'sec-fetch-site': 'same-origin' })],
    ['no browser headers at all (curl, the benchmarks)', () => ({})],
  ])('lets through a request from %s (the route answers)', async (_name, headers) => {
    const res = await cancel(headers());
    expect(res.status).toBe(404);
  });

  it('leaves reads alone, whatever their origin', async () => {
    const res = await api.request('/api/auth/user', { headers: { cookie, origin: 'http://evil.example' } });
    expect(res.status).toBe(200);
  });
});

describe('promo code guessing', () => {
  const validate = (target: TestApi, code: string) => target.request(`/api/promo-codes/validate/${code}`);

  it('answers 429 once 10 codes were refused from one address; a good code is not counted', async () => {
    const own = await startTestApi();
    try {
      for (let i = 0; i < 3; i += 1) expect((await validate(own, 'WELCOME10')).status).toBe(200);
      for (let i = 0; i < 10; i += 1) expect((await validate(own, `GUESS${i}`)).status).toBe(404);
      const res = await validate(own, 'WELCOME10');
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ message: PROMO_GUESS_MESSAGE, code: 'RATE_LIMITED' });
    } finally {
      await own.close();
    }
  });

  it('counts promo refusals at checkout against the same budget, and then refuses a checkout naming a code', async () => {
    const own = await startTestApi();
    try {
      // A product of this test's own (other test files edit catalogue products meanwhile), at its real
      // price, so the promo code is the only thing checkout can refuse.
      const slug = `guard-test-${randomUUID().slice(0, 8)}`;
      const { rows } = await own.ctx.db.$client.query<{ id: number; price: string }>(
        `insert into products (name, slug, price, inventory, status, sku) values ($1, $2, '12.50', 1000, 'active', $2) returning id, price::text as price`,
        [`Guard Test ${slug}`, slug],
      );
      const product = rows[0]!;
      const body = (promoCode: string | null) => ({
        firstName: 'Gus',
        lastName: 'Guesser',
        email: 'gus@example.com',
        address: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        amount: '10.00',
        dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT',
        dataValue: 'never-charged',
        orderData: {
          items: [{ productId: product.id, quantity: 1, price: product.price }],
          subtotal: product.price,
          shipping: '0.00',
          tax: '0.00',
          total: '10.00',
          promoCode,
          shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
        },
      });
      const checkout = (promoCode: string | null) => own.request('/api/payments/checkout-nonce', { body: body(promoCode), headers: { 'Idempotency-Key': randomUUID() } });
      for (let i = 0; i < 5; i += 1) expect((await validate(own, `GUESS${i}`)).status).toBe(404);
      for (let i = 0; i < 5; i += 1) {
        const res = await checkout(`CHECKOUTGUESS${i}`);
        expect(res.status).toBe(422);
        expect(await res.json()).toMatchObject({ message: 'This promo code is invalid or expired' });
      }
      expect((await validate(own, 'WELCOME10')).status).toBe(429);
      const named = await checkout('WELCOME10');
      expect(named.status).toBe(429);
      expect(await named.json()).toEqual({ message: PROMO_GUESS_MESSAGE, code: 'RATE_LIMITED' });
      // A checkout without a code is not held up by the guessing budget.
      expect((await checkout(null)).status).not.toBe(429);
    } finally {
      await own.close();
    }
  });
});

describe('request log lines', () => {
  it('never carry an unsubscribe token (it authorises whoever holds it)', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = await startTestApi({}, { log: createLogger('api-test', 'info', stream) });
    try {
      const token = randomUUID();
      await logged.request(`/api/newsletter/unsubscribe/${token}`);
      await new Promise((resolve) => setImmediate(resolve));
      const line = lines.map((l) => JSON.parse(l) as { msg: string; url?: string }).find((l) => l.msg === 'request completed');
      expect(line?.url).toBe('/api/newsletter/unsubscribe/[redacted]');
      expect(lines.join('\n')).not.toContain(token);
    } finally {
      await logged.close();
    }
  });

  it('never carry a token from a query string or an unsubscribe path, whatever the page, route, case or answer', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = await startTestApi({ LOG_LEVEL: 'debug' }, { log: createLogger('api-test', 'debug', stream) });
    try {
      const secret = `secret-${randomUUID()}`;
      const urls = [
        `/account/reset-password?token=${secret}`,
        `/admin/invite?utm_source=email&token=${secret}`,
        `/orders/view?token=${secret}`,
        `/api/orders/access?token=${secret}`,
        `/api/password/reset?Token=${secret}`,
        `/api/newsletter/unsubscribe/${secret}`,
        `/API/Newsletter/UNSUBSCRIBE/${secret}`,
        `/unsubscribe/${secret}`,
      ];
      for (const url of urls) await logged.request(url, { headers: { accept: 'text/html' } });
      await logged.request(`/api/password/reset?token=${secret}`, { body: { token: 'x', password: 'y' } });
      // A line is written when its response has finished, which may be just after the client read it (and
      // so after the next request's line, on a busy machine): the lines are compared in any order.
      const completed = () => lines.map((l) => JSON.parse(l) as { msg: string; url?: string }).filter((l) => l.msg === 'request completed');
      await expect.poll(() => completed().length).toBe(urls.length + 1);
      expect(completed().map((l) => l.url).sort()).toEqual([
        '/account/reset-password?token=[redacted]',
        '/admin/invite?utm_source=email&token=[redacted]',
        '/orders/view?token=[redacted]',
        '/api/orders/access?token=[redacted]',
        '/api/password/reset?Token=[redacted]',
        '/api/newsletter/unsubscribe/[redacted]',
        '/API/Newsletter/UNSUBSCRIBE/[redacted]',
        '/unsubscribe/[redacted]',
        '/api/password/reset?token=[redacted]',
      ].sort());
      expect(lines.filter((l) => l.includes(secret))).toEqual([]);
    } finally {
      await logged.close();
    }
  });
});

describe('untrusted proxy warning', () => {
  const run = (handler: ReturnType<typeof untrustedProxyWarning>, headers: Record<string, string>) =>
    new Promise<void>((resolve) => handler({ headers, socket: { remoteAddress: '10.0.0.2' } } as never, {} as never, () => resolve()));

  it('warns once when requests carry X-Forwarded-For while TRUST_PROXY is off (production)', async () => {
    const { lines, log } = captureLog();
    const handler = untrustedProxyWarning(log, true);
    await run(handler, {});
    expect(lines).toEqual([]);
    await run(handler, { 'x-forwarded-for': '203.0.113.9' });
    await run(handler, { 'x-forwarded-for': '203.0.113.10' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringContaining('TRUST_PROXY is off') });
  });

  it('says nothing when disabled (TRUST_PROXY on, or not production)', async () => {
    const { lines, log } = captureLog();
    await run(untrustedProxyWarning(log, false), { 'x-forwarded-for': '203.0.113.9' });
    expect(lines).toEqual([]);
  });
});
