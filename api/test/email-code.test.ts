/**
 * Signing in with an emailed code (issue 22) through the API: one answer in words and time whatever the
 * email; a 6-digit code that works once, for 10 minutes, with 5 tries; the ordinary shopper session
 * (a new session id); limits that a stranger spends only for themselves. The API writes no code: the
 * test makes it as the mail worker does (`mintSignInCode`) from the outbox row's `codeId`.
 */
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import { mintSignInCode } from '@nh/server/queries/sign-in-codes';
import { AUTH_MESSAGES } from '@nh/shared/contracts/auth';
import { median, timeBothWays } from './support/answer-timing';
import { eventually } from './support/emailed-links';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ TRUST_PROXY: 'true' });
});
afterAll(() => api.close());

const unique = () => randomBytes(4).toString('hex');
let addressCounter = 0;
/** A client address of its own for each test's browser, so the per-address budgets are the test's. */
const newAddress = () => `198.19.${Math.floor(Math.random() * 250)}.${(addressCounter++ % 250) + 1}`;

class Browser {
  cookie: string | undefined;
  constructor(
    readonly target: TestApi,
    readonly address = newAddress(),
  ) {}
  async call(path: string, body?: unknown): Promise<Response> {
    const res = await fetch(this.target.url + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        'x-forwarded-for': this.address,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('nh.sid='));
    if (set) this.cookie = set;
    return res;
  }
}

async function shopper(): Promise<{ email: string; id: string }> {
  const email = `code.${unique()}@example.com`;
  const [row] = await api.ctx.db.insert(tables.users).values({ email, firstName: 'Cody', lastName: 'Shopper', passwordHash: null }).returning();
  return { email, id: row!.id };
}

/** The outbox rows asking for a code for `email` (waiting for the work done after the answer). */
async function codeRows(email: string, count = 1): Promise<Array<{ codeId: string; payload: unknown }>> {
  return eventually(async () => {
    const { rows } = await api.ctx.db.$client.query<{ code_id: string; payload: unknown }>(
      `select c.id as code_id, o.payload from outbox o join sign_in_codes c on c.id = (o.payload->>'codeId')::uuid
       where o.topic = 'shopper.sign-in-code-requested' and c.email = lower($1) order by o.id`,
      [email],
    );
    return rows.length >= count && rows.map((r) => ({ codeId: r.code_id, payload: r.payload }));
  }, `${count} code row(s) for ${email}`);
}

/** The code as the mail worker makes it when it sends the email. */
async function mint(codeId: string): Promise<string> {
  const client = await api.ctx.db.$client.connect();
  try {
    const code = await mintSignInCode(client, codeId);
    if (!code) throw new Error('the code is used or expired: no email would be sent');
    return code;
  } finally {
    client.release();
  }
}

async function emailedCode(browser: Browser, email: string, nth = 1): Promise<string> {
  const res = await browser.call('/api/login/email-code', { email });
  expect(res.status).toBe(202);
  const rows = await codeRows(email, nth);
  return mint(rows[nth - 1]!.codeId);
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('sign in with an emailed code', () => {
  it('answers a known and an unknown email with the same words; the outbox row names only the code row; the code starts a new session', async () => {
    const me = await shopper();
    const browser = new Browser(api);
    const unknown = await browser.call('/api/login/email-code', { email: `nobody.${unique()}@example.com` });
    const knownRes = await browser.call('/api/login/email-code', { email: me.email.toUpperCase() });
    expect(unknown.status).toBe(202);
    expect(knownRes.status).toBe(202);
    expect(await unknown.json()).toEqual({ message: AUTH_MESSAGES.codeSent });
    expect(await knownRes.json()).toEqual({ message: AUTH_MESSAGES.codeSent });
    const [row] = await codeRows(me.email);
    expect(row!.payload).toEqual({ codeId: row!.codeId });
    const code = await mint(row!.codeId);
    expect(code).toMatch(/^\d{6}$/);
    // Only a keyed hash is stored: neither the code nor its bare SHA-256.
    const [stored] = await api.ctx.db.select().from(tables.signInCodes).where(eq(tables.signInCodes.id, row!.codeId));
    expect(stored!.codeHash).not.toContain(code);
    expect(stored!.codeHash).not.toBe((await import('node:crypto')).createHash('sha256').update(code).digest('hex'));

    await browser.call('/api/auth/user'); // a guest's session cookie, if any
    const before = browser.cookie;
    const res = await browser.call('/api/login/email-code/verify', { email: me.email, code: `${code.slice(0, 3)} ${code.slice(3)}`, returnTo: '/account' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user: { id: me.id, email: me.email }, redirectTo: '/account' });
    expect(browser.cookie).toBeTruthy();
    expect(browser.cookie).not.toBe(before);
    expect(await (await browser.call('/api/auth/user')).json()).toMatchObject({ id: me.id });
  });

  it('works once: the same code again is refused with the one message', async () => {
    const me = await shopper();
    const browser = new Browser(api);
    const code = await emailedCode(browser, me.email);
    expect((await browser.call('/api/login/email-code/verify', { email: me.email, code })).status).toBe(200);
    const again = new Browser(api);
    const res = await again.call('/api/login/email-code/verify', { email: me.email, code });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: AUTH_MESSAGES.codeWrong });
    expect(await (await again.call('/api/auth/user')).json()).toBeNull();
  });

  it('expires after 10 minutes', async () => {
    const me = await shopper();
    const browser = new Browser(api);
    const code = await emailedCode(browser, me.email);
    const [row] = await api.ctx.db.select().from(tables.signInCodes).where(eq(tables.signInCodes.email, me.email));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(9.9 * 60_000);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(10 * 60_000 + 1000);
    await api.ctx.db.update(tables.signInCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(tables.signInCodes.email, me.email));
    expect((await browser.call('/api/login/email-code/verify', { email: me.email, code })).status).toBe(401);
  });

  it('allows 5 tries per code: 4 wrong then right signs in; 5 wrong and the right code opens nothing', async () => {
    const four = await shopper();
    const b1 = new Browser(api);
    const code1 = await emailedCode(b1, four.email);
    for (let i = 0; i < 4; i++) expect((await b1.call('/api/login/email-code/verify', { email: four.email, code: wrong(code1) })).status).toBe(401);
    expect((await b1.call('/api/login/email-code/verify', { email: four.email, code: code1 })).status).toBe(200);

    const five = await shopper();
    const b2 = new Browser(api);
    const code2 = await emailedCode(b2, five.email);
    for (let i = 0; i < 5; i++) expect((await b2.call('/api/login/email-code/verify', { email: five.email, code: wrong(code2) })).status).toBe(401);
    expect((await b2.call('/api/login/email-code/verify', { email: five.email, code: code2 })).status).toBe(401);
    // Parallel guesses cannot pass the 5 either: each try is counted before it is compared.
    const [row] = await api.ctx.db.select().from(tables.signInCodes).where(eq(tables.signInCodes.email, five.email));
    expect(row!.tries).toBe(5);
    expect(row!.usedAt).toBeNull();
  });

  it('refuses a malformed code or email with a 400 and a human message', async () => {
    const browser = new Browser(api);
    const res = await browser.call('/api/login/email-code/verify', { email: 'someone@example.com', code: '12ab' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(AUTH_MESSAGES.codeFormat);
    expect((await browser.call('/api/login/email-code', { email: 'not an email' })).status).toBe(400);
  });

  it('answers a known and an unknown email in the same time (the median paired difference within 10 % of the median answer; no account enumeration by timing)', async () => {
    const timedApi = await startTestApi({ TRUST_PROXY: 'true' });
    try {
      const rounds = 160;
      const known: string[] = [];
      for (let i = 0; i < rounds; i++) known.push((await shopper()).email);
      const ask = (which: 'known' | 'unknown', i: number) =>
        fetch(`${timedApi.url}/api/login/email-code`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${i}.${which === 'known' ? 1 : 2}` },
          body: JSON.stringify({ email: which === 'known' ? known[i] : `nobody.${unique()}@example.com` }),
        });
      for (let i = 0; i < 5; i++) await (await ask('unknown', 200 + i)).arrayBuffer(); // warm up
      const times = { known: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < rounds; i++) {
        // Alternate which goes first; each request starts once the work of the one before is done, so neither pays for the other's.
        for (const which of i % 2 ? (['unknown', 'known'] as const) : (['known', 'unknown'] as const)) {
          await timedApi.services.afterAnswer.settled();
          const started = performance.now();
          const res = await ask(which, i);
          await res.arrayBuffer();
          times[which].push(performance.now() - started);
          expect(res.status).toBe(202);
        }
      }
      // Paired: each round's known minus unknown (a busy machine slows both of a pair alike); the median
      // difference within 10 % of the median answer.
      const differences = times.known.map((k, i) => k - times.unknown[i]!);
      const typical = median([...times.known, ...times.unknown]);
      console.log(`email-code answers: median ${typical.toFixed(2)} ms, median known-unknown ${median(differences).toFixed(2)} ms`);
      expect(Math.abs(median(differences)) / typical).toBeLessThan(0.1);
      await timedApi.services.afterAnswer.settled();
      const rows = await api.ctx.db.select().from(tables.signInCodes).where(inArray(tables.signInCodes.email, known));
      expect(rows).toHaveLength(rounds);

      // And the answer never waits for the work: with the codes' table locked for 200 ms from each request's start, known answers stay quick.
      const locked = await timeBothWays(
        5,
        (which, i, signal) =>
          fetch(`${timedApi.url}/api/login/email-code`, {
            method: 'POST',
            signal,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${100 + i}.${which === 'known' ? 1 : 2}` },
            body: JSON.stringify({ email: which === 'known' ? known[i] : `nobody.${unique()}@example.com` }),
          }),
        { db: api.ctx.db, table: 'sign_in_codes' },
      );
      expect(median(locked.known)).toBeLessThan(150);
    } finally {
      await timedApi.close();
    }
  }, 90_000);
});

describe("a guest's sign-up code at checkout (Subscribe & Save)", () => {
  it('sends a code to an email without an account only when asked to sign up; verifying it makes the account (no password) and signs in', async () => {
    const email = `newcomer.${unique()}@example.com`;
    const browser = new Browser(api);
    expect((await browser.call('/api/login/email-code', { email })).status).toBe(202);
    await api.services.afterAnswer.settled();
    expect(await api.ctx.db.select().from(tables.signInCodes).where(eq(tables.signInCodes.email, email))).toEqual([]);

    const res = await browser.call('/api/login/email-code', { email, signUp: true });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ message: AUTH_MESSAGES.codeSent });
    const [row] = await codeRows(email);
    const code = await mint(row!.codeId);
    // Nothing exists for the email until the code is verified: a stranger typing someone's email makes no account.
    expect(await api.ctx.db.select().from(tables.users).where(eq(tables.users.email, email))).toEqual([]);
    const verified = await browser.call('/api/login/email-code/verify', { email, code, firstName: 'Nova', lastName: 'Newcomer' });
    expect(verified.status).toBe(200);
    const [user] = await api.ctx.db.select().from(tables.users).where(eq(tables.users.email, email));
    expect(user).toMatchObject({ firstName: 'Nova', lastName: 'Newcomer', passwordHash: null });
    expect(await (await browser.call('/api/auth/user')).json()).toMatchObject({ id: user!.id, email });
  });

  it('signs an existing account in with a sign-up code, keeping its names', async () => {
    const me = await shopper();
    const browser = new Browser(api);
    const res = await browser.call('/api/login/email-code', { email: me.email, signUp: true });
    expect(res.status).toBe(202);
    const code = await mint((await codeRows(me.email))[0]!.codeId);
    const verified = await browser.call('/api/login/email-code/verify', { email: me.email, code, firstName: 'Other', lastName: 'Name' });
    expect(await verified.json()).toMatchObject({ user: { id: me.id, firstName: 'Cody' } });
  });

  it('still refuses a guest at subscribe-nonce: nothing is charged before the email is verified', async () => {
    const res = await new Browser(api).call('/api/payments/subscribe-nonce', {});
    expect(res.status).toBe(401);
  });
});

describe('the sign-in page', () => {
  it('offers the emailed code first, and the password below it', async () => {
    const html = await (await fetch(`${api.url}/api/login`)).text();
    expect(html).toContain('Email Me a Code');
    expect(html.indexOf('id="code-request-form"')).toBeGreaterThan(0);
    expect(html.indexOf('id="code-request-form"')).toBeLessThan(html.indexOf('id="login-form"'));
    expect(html).toContain('autocomplete="one-time-code"');
    const script = await (await fetch(`${api.url}/api/login.js`)).text();
    expect(script).toContain("form.dataset.then === 'code'");
  });
});

describe('limits a stranger cannot turn against the shopper', () => {
  it('a stranger asking for codes spends their own budget; the shopper on a new address still gets a code that works', async () => {
    const me = await shopper();
    // Three stranger addresses: 5 per (email, address), and the email-wide cap of 10 an hour fills up.
    const statuses: number[] = [];
    for (let s = 0; s < 3; s++) {
      const stranger = new Browser(api);
      for (let i = 0; i < 6; i++) statuses.push((await stranger.call('/api/login/email-code', { email: me.email })).status);
    }
    // Each address's first request passes the cap uncounted; the others count up to 10.
    const ok = 202;
    const no = 429;
    expect(statuses).toEqual([ok, ok, ok, ok, ok, no, ok, ok, ok, ok, ok, no, ok, ok, ok, no, no, no]);
    const rowsBefore = (await codeRows(me.email, 13)).length;
    expect(rowsBefore).toBe(13);
    // The shopper, from an address of their own: the first request for the email from it passes the cap.
    const real = new Browser(api);
    const res = await real.call('/api/login/email-code', { email: me.email });
    expect(res.status).toBe(202);
    const rows = await codeRows(me.email, rowsBefore + 1);
    const code = await mint(rows.at(-1)!.codeId);
    // The stranger's codes did not spoil the shopper's: it still signs in.
    expect((await real.call('/api/login/email-code/verify', { email: me.email, code })).status).toBe(200);
  });

  it('a stranger guessing codes is stopped at their address; a wrong-guessed code is replaced by a new one that works', async () => {
    const me = await shopper();
    const real = new Browser(api);
    const first = await emailedCode(real, me.email);
    const stranger = new Browser(api);
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await stranger.call('/api/login/email-code/verify', { email: me.email, code: wrong(first) })).status;
    expect(last).toBe(429);
    // The stranger used up the code's 5 tries; the shopper asks again and the new code works from their address.
    expect((await real.call('/api/login/email-code/verify', { email: me.email, code: first })).status).toBe(401);
    const second = await emailedCode(real, me.email, 2);
    expect((await real.call('/api/login/email-code/verify', { email: me.email, code: second })).status).toBe(200);
  });
});
