import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP } from '@nh/shared';
import { authUserSchema, signInResponseSchema } from '@nh/shared/contracts/auth';
import * as tables from '@nh/server/db/schema';
import { errorHandler } from '../src/lib/errors';
import { sessionMiddleware } from '../src/lib/session';
import { requireUser, signedInUser } from '../src/modules/auth';
import { safeReturnTo } from '../src/modules/auth/return-to';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** The `nh.sid=…` pair of a response's Set-Cookie, if it sets the session cookie. */
function sessionCookie(res: Response): string | undefined {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('nh.sid='));
}

/** A tiny cookie jar: remembers the session cookie across calls, as a browser would. */
class Browser {
  cookie: string | undefined;
  constructor(private readonly target: TestApi) {}
  async call(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
    const res = await fetch(this.target.url + path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...(this.cookie ? { cookie: this.cookie } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
    });
    const set = sessionCookie(res);
    if (set) this.cookie = set.endsWith('=') ? undefined : set;
    return res;
  }
}

const newAccount = () => ({
  firstName: 'Grace',
  lastName: 'Hopper',
  email: `Grace.${randomBytes(4).toString('hex')}@Example.com`,
  password: 'correct horse battery',
});

describe('GET /api/auth/user', () => {
  it('answers 200 with null for a guest (no error for the browser to log), never cached', async () => {
    const res = await api.request('/api/auth/user');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toBeNull();
  });
});

describe('the sign-in page', () => {
  it('serves a self-contained page with both forms and an external script', async () => {
    const res = await api.request('/api/login?returnTo=/subscriptions');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain(`<title>Log In | ${SHOP.name}</title>`);
    expect(html).toContain('id="login-form"');
    expect(html).toContain('id="register-form"');
    expect(html).toContain('<script src="/api/login.js" defer></script>');
    expect(html).toContain('value="/subscriptions"');
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('serves its script as JavaScript', async () => {
    const res = await api.request('/api/login.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(await res.text()).toContain("form[data-endpoint]");
  });

  it('never offers another site as the way back', async () => {
    const html = await (await api.request(`/api/login?returnTo=${encodeURIComponent('//evil.example/"><script>')}`)).text();
    expect(html).toContain('name="returnTo" value="/"');
    expect(html).not.toContain('evil.example');
  });
});

describe('register, sign in, sign out', () => {
  it('creates an account, signs it in and answers the user', async () => {
    const browser = new Browser(api);
    const account = newAccount();
    const res = await browser.call('/api/register', { body: { ...account, returnTo: '/subscriptions' } });
    expect(res.status).toBe(201);
    const body = signInResponseSchema.parse(await res.json());
    expect(body).toEqual({
      user: { id: expect.any(String), email: account.email.toLowerCase(), firstName: 'Grace', lastName: 'Hopper', profileImageUrl: null },
      redirectTo: '/subscriptions',
    });
    expect(browser.cookie).toBeDefined();

    const me = await browser.call('/api/auth/user');
    expect(me.status).toBe(200);
    expect(authUserSchema.parse(await me.json())).toEqual(body.user);

    const [row] = await api.ctx.db.select().from(tables.users).where(eq(tables.users.id, body.user.id));
    expect(row!.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(row!.passwordHash).not.toContain(account.password);
  });

  it('refuses a second account for the same email (any case) with 409', async () => {
    const account = newAccount();
    expect((await api.request('/api/register', { body: account })).status).toBe(201);
    const again = await api.request('/api/register', { body: { ...account, email: account.email.toUpperCase() } });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ message: 'An account with this email already exists. Please sign in instead.', code: 'EMAIL_TAKEN' });
  });

  it.each([
    [{ password: 'short' }, 'Password must be at least 8 characters.'],
    [{ email: 'nope' }, 'Please enter a valid email address.'],
    [{ firstName: ' ' }, 'Please enter your first name.'],
    [{ lastName: '' }, 'Please enter your last name.'],
  ])('refuses registration with %j: 400 "%s"', async (change, message) => {
    const res = await api.request('/api/register', { body: { ...newAccount(), ...change } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message });
  });

  it('signs in with the right password (new session id), signs out and forgets the session', async () => {
    const account = newAccount();
    const first = new Browser(api);
    await first.call('/api/register', { body: account });
    const registeredCookie = first.cookie;

    const browser = new Browser(api);
    browser.cookie = registeredCookie;
    const res = await browser.call('/api/login', { body: { email: account.email.toUpperCase(), password: account.password, returnTo: 'https://evil.example/' } });
    expect(res.status).toBe(200);
    const body = signInResponseSchema.parse(await res.json());
    expect(body.redirectTo).toBe('/');
    expect(body.user.email).toBe(account.email.toLowerCase());
    // Signing in replaces the session: the cookie the browser arrived with is no longer signed in.
    expect(browser.cookie).toBeDefined();
    expect(browser.cookie).not.toBe(registeredCookie);
    const old = await fetch(`${api.url}/api/auth/user`, { headers: { cookie: registeredCookie! } });
    expect(old.status).toBe(200);
    expect(await old.json()).toBeNull();

    const me = await browser.call('/api/auth/user');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(account.email.toLowerCase());
    const signedInCookie = browser.cookie!;

    const page = await browser.call('/api/login?returnTo=/subscriptions');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/subscriptions');

    const out = await browser.call('/api/logout', { method: 'POST' });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect(browser.cookie).toBeUndefined();
    const after = await fetch(`${api.url}/api/auth/user`, { headers: { cookie: signedInCookie } });
    expect(after.status).toBe(200);
    expect(await after.json()).toBeNull();
  });

  it('answers a wrong password or an unknown email with the same 401', async () => {
    const account = newAccount();
    await api.request('/api/register', { body: account });
    for (const body of [
      { email: account.email, password: 'wrong password' },
      { email: 'nobody.here@example.com', password: account.password },
    ]) {
      const res = await api.request('/api/login', { body });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Incorrect email or password.', code: 'WRONG_CREDENTIALS' });
      expect(sessionCookie(res)).toBeUndefined();
    }
  });

  it('refuses a sign-in without a password with 400', async () => {
    const res = await api.request('/api/login', { body: { email: 'someone@example.com' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'Please enter your password.' });
  });

  it('signs out a visitor who was not signed in without complaint', async () => {
    const res = await fetch(`${api.url}/api/logout`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
  });

  it('never signs out on a GET (another site could trigger it): GET /api/logout is a page whose button posts', async () => {
    const account = newAccount();
    const browser = new Browser(api);
    await browser.call('/api/register', { body: account });
    const page = await browser.call('/api/logout');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/api/logout"><button type="submit">Log Out</button></form>');
    expect((await browser.call('/api/auth/user')).status).toBe(200);
  });
});

describe('failed sign-ins are rate-limited (the hard limits; the account-wide rule is sign-in-limits.test.ts)', () => {
  const TOO_MANY = { message: 'Too many failed sign-in attempts. Please try again in 15 minutes.', code: 'RATE_LIMITED' };
  const wrongFor = (email: string) => ({ email, password: 'wrong password' });

  it('answers 429 after LOGIN_ADDRESS_FAILURES_PER_15_MIN failures from one address, whichever accounts they name', async () => {
    const limited = await startTestApi({ LOGIN_ADDRESS_FAILURES_PER_15_MIN: '6' });
    try {
      const login = (email: string) => limited.request('/api/login', { body: wrongFor(email) });
      for (let i = 0; i < 6; i += 1) expect((await login(`nobody.${i}@example.com`)).status).toBe(401);
      const res = await login('nobody.else@example.com');
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual(TOO_MANY);
    } finally {
      await limited.close();
    }
  });

  it('answers 429 after 10 failures on one account from one address, even to the right password; other addresses and accounts go on', async () => {
    const limited = await startTestApi({ TRUST_PROXY: 'true' });
    try {
      const login = (body: { email: string; password: string }, address: string) =>
        limited.request('/api/login', { body, headers: { 'x-forwarded-for': address } });
      const account = newAccount();
      await limited.request('/api/register', { body: account });
      for (let i = 0; i < 10; i += 1) expect((await login(wrongFor(account.email), '203.0.113.1')).status).toBe(401);
      // That address now waits, even with the right password (any case of the email is the same account)…
      const res = await login({ email: account.email.toUpperCase(), password: account.password }, '203.0.113.1');
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual(TOO_MANY);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(800);
      expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(900);
      // …while another account from the same address signs in, and so does the account from elsewhere.
      const other = newAccount();
      await limited.request('/api/register', { body: other });
      expect((await login(other, '203.0.113.1')).status).toBe(200);
      expect((await login(account, '203.0.113.2')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('keeps one budget across API processes (the counters are in Redis)', async () => {
    const shared = { RATE_LIMIT_PREFIX: `rl-shared-${randomBytes(4).toString('hex')}`, LOGIN_ADDRESS_FAILURES_PER_15_MIN: '10' };
    const [a, b] = await Promise.all([startTestApi(shared), startTestApi(shared)]);
    try {
      for (let i = 0; i < 5; i += 1) {
        expect((await a.request('/api/login', { body: wrongFor(`a.${i}@example.com`) })).status).toBe(401);
        expect((await b.request('/api/login', { body: wrongFor(`b.${i}@example.com`) })).status).toBe(401);
      }
      expect((await a.request('/api/login', { body: wrongFor('a.last@example.com') })).status).toBe(429);
      expect((await b.request('/api/login', { body: wrongFor('b.last@example.com') })).status).toBe(429);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('requireUser (for other modules)', () => {
  it('lets a signed-in user through with the user, and answers 401 otherwise', async () => {
    const app = express();
    app.use(sessionMiddleware(api.ctx));
    app.get('/mine', requireUser(api.ctx), (_req, res) => {
      res.json({ email: signedInUser(res).email });
    });
    app.use(errorHandler);
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const anonymous = await fetch(`${url}/mine`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({ message: 'Not signed in', code: 'NOT_SIGNED_IN' });

      const browser = new Browser(api);
      const account = newAccount();
      await browser.call('/api/register', { body: account });
      const res = await fetch(`${url}/mine`, { headers: { cookie: browser.cookie! } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ email: account.email.toLowerCase() });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('safeReturnTo', () => {
  it.each([
    ['/subscriptions', '/subscriptions'],
    ['/product/surfy?orderId=1', '/product/surfy?orderId=1'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['/ok\nSet-Cookie: x', '/'],
    [undefined, '/'],
    [42, '/'],
  ])('%j → %j', (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected);
  });
});
