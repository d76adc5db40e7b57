/**
 * The sign-in limits of issue 19, for the back office's owner and for a shopper alike
 * (api/src/lib/sign-in-guard.ts): a stranger guessing from many addresses can no longer keep the holder
 * out. The hard limits are per (account, address) and per address; the account-wide count only makes
 * browsers new to the account wait (at most SIGN_IN_DELAY_MAX_MS) and emails the holder once per
 * window; a browser that signed in before never waits; a completed reset clears the counts. Also the
 * shoppers' reset requests: a stranger cannot use up the real shopper's. Client addresses come from
 * X-Forwarded-For (TRUST_PROXY).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertShopperToken } from '@nh/server/queries/shopper-self-service';
import { insertStaff, insertStaffToken } from '@nh/server/queries/staff';
import { hashPassword } from '@nh/server/passwords';
import { ACCOUNT_MESSAGES } from '@nh/shared/contracts/account';
import { AUTH_MESSAGES } from '@nh/shared/contracts/auth';
import { STAFF_MESSAGES } from '@nh/shared/contracts/staff';
import { KNOWN_BROWSER_COOKIE } from '../src/lib/known-browser';
import { SIGN_IN_DELAY_MAX_MS } from '../src/lib/sign-in-guard';
import { mint } from './support/emailed-links';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ TRUST_PROXY: 'true' });
});
afterAll(() => api.close());

interface Account {
  id: string;
  email: string;
  password: string;
}

interface Realm {
  name: 'staff' | 'shopper';
  /** Where the sign-in form posts. */
  path: string;
  tooMany: string;
  /** A new account that can sign in. */
  create: () => Promise<Account>;
  /** A reset link for the account (minted as a reset request mints it) confirmed through the API with `password`. */
  reset: (account: Account, password: string) => Promise<Response>;
}

const unique = () => randomBytes(4).toString('hex');
const HOUR = 60 * 60 * 1000;

const realms: Realm[] = [
  {
    name: 'staff',
    path: '/api/admin/session',
    tooMany: STAFF_MESSAGES.tooManySignIns,
    create: async () => {
      const password = 'owner password 1';
      const owner = await insertStaff(api.ctx.db, {
        email: `owner-${unique()}@staff.test`,
        name: 'The Owner',
        role: 'owner',
        passwordHash: await hashPassword(password),
      });
      return { id: owner.id, email: owner.email, password };
    },
    reset: async (account, password) => {
      const row = await insertStaffToken(api.ctx.db, {
        purpose: 'password_reset',
        email: account.email,
        staffId: account.id,
        expiresAt: new Date(Date.now() + HOUR),
      });
      const [token] = await mint(api.ctx.db, 'staff.password-reset-requested', [row.id]);
      return api.request('/api/admin/password-reset/confirm', { body: { token, password } });
    },
  },
  {
    name: 'shopper',
    path: '/api/login',
    tooMany: AUTH_MESSAGES.tooManyAttempts,
    create: async () => {
      const account = { email: `limits.${unique()}@example.com`, password: 'shopper password 1' };
      const res = await api.request('/api/register', {
        body: { firstName: 'Sam', lastName: 'Shopper', ...account },
        headers: { 'x-forwarded-for': '192.0.2.250' },
      });
      expect(res.status).toBe(201);
      const { user } = (await res.json()) as { user: { id: string } };
      return { id: user.id, ...account };
    },
    reset: async (account, password) => {
      const row = await insertShopperToken(api.ctx.db, {
        purpose: 'password_reset',
        email: account.email,
        userId: account.id,
        expiresAt: new Date(Date.now() + HOUR),
      });
      const [token] = await mint(api.ctx.db, 'shopper.password-reset-requested', [row.id]);
      return api.request('/api/password/reset', { body: { token, password } });
    },
  },
];

/** A sign-in from `address`, with the known-browser cookie if given: the answer, its body and how long it took. */
async function signIn(
  realm: Realm,
  email: string,
  password: string,
  address: string,
  knownCookie?: string,
): Promise<{ res: Response; body: unknown; ms: number }> {
  const started = performance.now();
  const res = await api.request(realm.path, {
    body: { email, password },
    headers: { 'x-forwarded-for': address, ...(knownCookie ? { cookie: knownCookie } : {}) },
  });
  const body: unknown = await res.json();
  return { res, body, ms: performance.now() - started };
}

/** The `nh.known=…` pair a sign-in set. */
function knownCookieOf(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${KNOWN_BROWSER_COOKIE}=`));
  if (!set) throw new Error('no known-browser cookie set');
  return set.split(';')[0]!;
}

/** `count` wrong passwords, from each address in turn, all sent at once: their statuses. */
async function wrongPasswords(realm: Realm, account: Account, addresses: string[], count: number): Promise<number[]> {
  const sends = Array.from({ length: count }, (_, i) =>
    signIn(realm, account.email, `wrong password ${i}`, addresses[i % addresses.length]!),
  );
  return (await Promise.all(sends)).map(({ res }) => res.status);
}

/** The sign-in failures emails written for the account (its outbox rows). */
async function alertsOf(account: Account): Promise<Array<{ account: string; failures: number }>> {
  const { rows } = await api.ctx.db.$client.query<{ payload: { account: string; failures: number } }>(
    `select payload from outbox where topic = 'account.sign-in-failures' and payload->>'accountId' = $1 order by id`,
    [account.id],
  );
  return rows.map((r) => r.payload);
}

/** Waits until the account has `n` alerts (they are written after the answer), then a little more for any extra. */
async function settledAlerts(account: Account, n: number) {
  for (let i = 0; i < 50 && (await alertsOf(account)).length < n; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 200));
  return alertsOf(account);
}

/** Ends the current 15-minute window of every sign-in count of this test API (as the clock would). */
async function endTheWindow(): Promise<void> {
  const keys = await api.ctx.redis.keys(`${api.ctx.config.RATE_LIMIT_PREFIX}:sign-in:*`);
  if (keys.length) await api.ctx.redis.del(...keys);
}

const tenAddresses = Array.from({ length: 10 }, (_, i) => `203.0.113.${i + 10}`);

describe.each(realms)('$name sign-in', (realm) => {
  it('50 wrong passwords from 10 addresses never keep the holder out: a browser that signed in before gets in at once, a new address after the capped wait', async () => {
    const account = await realm.create();
    // The holder signed in on this browser last week.
    const before = await signIn(realm, account.email, account.password, '198.51.100.1');
    expect(before.res.status).toBe(200);
    const known = knownCookieOf(before.res);

    const statuses = await wrongPasswords(realm, account, tenAddresses, 50);
    expect(statuses.filter((s) => s !== 401)).toEqual([]);

    // The known browser: no wait, from its own address or any other.
    for (const address of ['198.51.100.1', '198.51.100.77']) {
      const { res, ms } = await signIn(realm, account.email, account.password, address, known);
      expect(res.status).toBe(200);
      expect(ms).toBeLessThan(SIGN_IN_DELAY_MAX_MS / 2);
    }
    // A new browser at a new address: in, after the capped wait (never a refusal).
    const fresh = await signIn(realm, account.email, account.password, '198.51.100.200');
    expect(fresh.res.status).toBe(200);
    expect(fresh.ms).toBeGreaterThanOrEqual(SIGN_IN_DELAY_MAX_MS - 5);
    expect(fresh.ms).toBeLessThan(SIGN_IN_DELAY_MAX_MS * 2);
    // A wrong password from a new browser waits as long: the wait tells nothing about the password.
    const wrong = await signIn(realm, account.email, 'still wrong', '198.51.100.201');
    expect(wrong.res.status).toBe(401);
    expect(wrong.ms).toBeGreaterThanOrEqual(SIGN_IN_DELAY_MAX_MS - 5);

    // The holder was told once in this window, however many failures followed.
    const alerts = await settledAlerts(account, 1);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ account: realm.name, failures: expect.any(Number) });
    expect(alerts[0]!.failures).toBeGreaterThanOrEqual(10);
    // The next window's failures tell them again, once.
    await endTheWindow();
    expect(await wrongPasswords(realm, account, tenAddresses, 12)).toEqual(Array(12).fill(401));
    expect(await settledAlerts(account, 2)).toHaveLength(2);
  });

  it('hard-limits one address on the account, even the right password from a known browser there (Retry-After); other addresses go on', async () => {
    const account = await realm.create();
    const first = await signIn(realm, account.email, account.password, '198.51.100.2');
    const known = knownCookieOf(first.res);
    expect(await wrongPasswords(realm, account, ['203.0.113.50'], 10)).toEqual(Array(10).fill(401));
    for (const cookie of [undefined, known]) {
      const { res, body } = await signIn(realm, account.email, account.password, '203.0.113.50', cookie);
      expect(res.status).toBe(429);
      expect(body).toEqual({ message: realm.tooMany, code: 'RATE_LIMITED' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await signIn(realm, account.email, account.password, '198.51.100.3', known)).res.status).toBe(200);
    expect((await signIn(realm, account.email, account.password, '198.51.100.4')).res.status).toBe(200);

    // IPv6 by its /56, as every limit: another address in the same /56 is the same address.
    const v6 = await realm.create();
    expect(await wrongPasswords(realm, v6, ['2001:db8:5:100::1'], 10)).toEqual(Array(10).fill(401));
    expect((await signIn(realm, v6.email, v6.password, '2001:db8:5:1ff::2')).res.status).toBe(429);
    expect((await signIn(realm, v6.email, v6.password, '2001:db8:5:200::1')).res.status).toBe(200);
  });

  it('a completed password reset clears the counts of the account: no 429, no wait, and a new email for new failures', async () => {
    const account = await realm.create();
    expect(await wrongPasswords(realm, account, ['203.0.113.60', '203.0.113.61'], 20)).toEqual(Array(20).fill(401));
    expect((await signIn(realm, account.email, account.password, '203.0.113.60')).res.status).toBe(429);
    expect(await settledAlerts(account, 1)).toHaveLength(1);

    const reset = await realm.reset(account, 'brand new password 2');
    expect(reset.status).toBe(200);
    const after = await signIn(realm, account.email, 'brand new password 2', '203.0.113.60');
    expect(after.res.status).toBe(200);
    expect(after.ms).toBeLessThan(SIGN_IN_DELAY_MAX_MS / 2);

    expect(await wrongPasswords(realm, account, ['203.0.113.62'], 10)).toEqual(Array(10).fill(401));
    expect(await settledAlerts(account, 2)).toHaveLength(2);
  });

  it('remembers the browser in an HttpOnly, SameSite=Lax cookie for the API only, Secure over https, holding no account name', async () => {
    const account = await realm.create();
    const { res } = await signIn(realm, account.email, account.password, '198.51.100.4');
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${KNOWN_BROWSER_COOKIE}=`))!;
    expect(set).toMatch(/; HttpOnly/i);
    expect(set).toMatch(/; SameSite=Lax/i);
    expect(set).toMatch(/; Path=\/api;/);
    expect(Number(/Max-Age=(\d+)/i.exec(set)![1])).toBeGreaterThan(300 * 24 * 3600);
    expect(set).not.toMatch(/; Secure/i);
    expect(set.toLowerCase()).not.toContain(account.email.split('@')[0]);
    const https = await api.request(realm.path, {
      body: { email: account.email, password: account.password },
      headers: { 'x-forwarded-for': '198.51.100.4', 'x-forwarded-proto': 'https' },
    });
    expect(https.headers.getSetCookie().find((c) => c.startsWith(`${KNOWN_BROWSER_COOKIE}=`))).toMatch(/; Secure/i);

    // Another account's cookie, or a forged one, is not a known browser for this account.
    const other = await realm.create();
    const otherCookie = knownCookieOf((await signIn(realm, other.email, other.password, '198.51.100.5')).res);
    await wrongPasswords(realm, account, tenAddresses, 10);
    for (const cookie of [otherCookie, `${KNOWN_BROWSER_COOKIE}=${'A'.repeat(22)}.${'B'.repeat(22)}`]) {
      const { res: late, ms } = await signIn(realm, account.email, account.password, '198.51.100.6', cookie);
      expect(late.status).toBe(200);
      expect(ms).toBeGreaterThanOrEqual(500);
    }
  });
});

describe.each([
  { realm: 'staff', path: '/api/admin/password-reset', tooMany: STAFF_MESSAGES.tooManyResetEmails, base: '203.0.113.80' },
  { realm: 'shopper', path: '/api/password/forgot', tooMany: ACCOUNT_MESSAGES.tooManyResets, base: '203.0.113.70' },
])('$realm reset requests', ({ realm, path, tooMany, base }) => {
  const at = (n: number) => base.replace(/\d+$/, (last) => String(Number(last) + n));
  it('a stranger spends only their own budget: per (email, address), and an email-wide cap that the first request from an address and a browser which signed in before pass', async () => {
    const kind = realms.find((r) => r.name === realm)!;
    const holder = await kind.create();
    const known = knownCookieOf((await signIn(kind, holder.email, holder.password, '198.51.100.8')).res);
    const forgot = (address: string, cookie?: string) =>
      api
        .request(path, {
          body: { email: holder.email },
          headers: { 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
        })
        .then((r) => r.status);
    const from = async (address: string, n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) statuses.push(await forgot(address));
      return statuses;
    };
    expect(await from(at(0), 6)).toEqual([202, 202, 202, 202, 202, 429]);
    // Another address still asks for this email…
    expect(await from(at(1), 5)).toEqual([202, 202, 202, 202, 202]);
    // …until the email-wide cap (10 an hour; an address's first request is not counted) stops strangers…
    expect(await from(at(2), 5)).toEqual([202, 202, 202, 429, 429]);
    const capped = () => api.request(path, { body: { email: holder.email }, headers: { 'x-forwarded-for': at(3) } });
    // …but not the holder: the first request from an address (a new phone, cookies cleared) still goes…
    expect((await capped()).status).toBe(202);
    const second = await capped();
    expect(second.status).toBe(429);
    expect(await second.json()).toEqual({ message: tooMany, code: 'RATE_LIMITED' });
    // …and a browser that signed in to the account before passes the cap, wherever it is.
    expect(await forgot(at(4), known)).toBe(202);
    expect(await forgot(at(4), known)).toBe(202);
    expect(await forgot('198.51.100.8', known)).toBe(202);
  });
});
