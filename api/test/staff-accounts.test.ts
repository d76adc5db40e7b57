/**
 * Staff accounts end to end through the API: sign-in with a server-side session cookie, sign-out,
 * invitations (single use, 72 h), role changes and disabling (sessions end at once), the last owner
 * kept, password resets (single use, 1 h, every session ended, the account's other reset links spent;
 * the answer's time the same for any address), rate limits, and the audit rows each leaves. The API
 * writes no token: the outbox row names the link's row and the test makes the token as the mail worker
 * does (support/emailed-links.ts).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '@nh/server/db/client';
import { applyMigrations, dropDatabase, ensureDatabase } from '@nh/server/runtime/database';
import { ensureFirstOwner, DEV_OWNER } from '@nh/server/first-owner';
import { auditPageSchema } from '@nh/shared/contracts/audit';
import { staffListSchema, staffMeSchema, staffMemberSchema, STAFF_MESSAGES } from '@nh/shared/contracts/staff';
import { median, timeBothWays } from './support/answer-timing';
import { emailedToken, emailedTokens, linkRows } from './support/emailed-links';
import { withFreshDatabase } from './support/fresh-database';
import { startTestApi, type TestApi } from './support/harness';
import { sessionCookie, signInAs, STAFF_TEST_PASSWORD, type StaffClient } from './support/staff';

let api: TestApi;
let owner: StaffClient;

beforeAll(async () => {
  api = await startTestApi();
  owner = await signInAs(api, 'owner');
});
afterAll(() => api.close());

const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
  api.request('/api/admin/session', { method: 'POST', body: { email, password }, headers });

/** The token of the latest link emailed to `email` for `topic`, as the mail worker makes it. */
const tokenFor = (topic: string, email: string) => emailedToken(api.ctx.db, topic, email);

async function auditOf(filters: Record<string, string>) {
  const res = await owner.request(`/api/admin/audit?${new URLSearchParams(filters)}`);
  expect(res.status).toBe(200);
  return auditPageSchema.parse(await res.json());
}

describe('staff sign-in', () => {
  it('signs in with email and password: an httpOnly, SameSite=Strict cookie, GET /api/admin/me, then sign-out ends the session', async () => {
    const member = await signInAs(api, 'manager');
    const res = await signIn(member.email.toUpperCase(), STAFF_TEST_PASSWORD);
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('nh.staff='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/;/);
    expect(staffMeSchema.parse(await res.json())).toEqual({ id: member.id, email: member.email, name: 'Test manager', role: 'manager' });
    const cookie = sessionCookie(res);

    const me = await api.request('/api/admin/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    expect(await me.json()).toMatchObject({ email: member.email, role: 'manager' });

    const out = await api.request('/api/admin/session', { method: 'DELETE', headers: { cookie } });
    expect(out.status).toBe(204);
    expect((await api.request('/api/admin/me', { headers: { cookie } })).status).toBe(401);
    // The stored session is gone, not just the cookie.
    const [token] = cookie.split('=').slice(1);
    const left = await api.ctx.db.execute(sql`select 1 from staff_sessions where token_hash = encode(sha256(${token}::bytea), 'hex')`);
    expect(left.rows).toHaveLength(0);
  });

  it('refuses a wrong password and an unknown email alike, audits both, and never stores the password', async () => {
    const member = await signInAs(api, 'support');
    for (const [email, password] of [
      [member.email, 'not the password'],
      [`nobody-${randomUUID().slice(0, 6)}@staff.test`, STAFF_TEST_PASSWORD],
    ] as const) {
      const res = await signIn(email, password);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: STAFF_MESSAGES.signInFailed, code: 'STAFF_SIGN_IN_FAILED' });
      expect(res.headers.getSetCookie()).toEqual([]);
      const { entries } = await auditOf({ action: 'staff.sign_in_failed', actor: email });
      expect(entries[0]).toMatchObject({ actorEmail: email, action: 'staff.sign_in_failed', ip: expect.any(String) });
    }
    const stored = await api.ctx.db.execute(
      sql`select count(*)::int as n from audit_events where before::text like '%not the password%' or after::text like '%not the password%'`,
    );
    expect(stored.rows[0]).toEqual({ n: 0 });
    const { entries } = await auditOf({ action: 'staff.signed_in', actor: member.email });
    expect(entries).toHaveLength(1);
  });

  it('limits failed sign-ins per account from one address (even the right password waits there) and per address; other addresses go on', async () => {
    const limited = await startTestApi({ LOGIN_FAILURES_PER_15_MIN: '3', LOGIN_ADDRESS_FAILURES_PER_15_MIN: '3', TRUST_PROXY: 'true' });
    try {
      const member = await signInAs(limited, 'support');
      const signInFrom = (address: string, body: { email: string; password: string }) =>
        limited.request('/api/admin/session', { method: 'POST', body, headers: { 'x-forwarded-for': address } });
      const from = (address: string, password: string) => signInFrom(address, { email: member.email, password });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await from('203.0.113.1', `wrong-${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const right = await from('203.0.113.1', STAFF_TEST_PASSWORD);
      expect(right.status).toBe(429);
      expect(await right.json()).toMatchObject({ message: STAFF_MESSAGES.tooManySignIns });
      // Another address is not shut out by the first one's guessing.
      expect((await from('203.0.113.99', STAFF_TEST_PASSWORD)).status).toBe(200);

      const guesses: number[] = [];
      for (let i = 0; i < 4; i++) {
        guesses.push((await signInFrom('198.51.100.7', { email: `guess-${i}@staff.test`, password: 'x' })).status);
      }
      expect(guesses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('limits invitation checks and password reset requests per address, with a message of their own', async () => {
    const limited = await startTestApi({ TRUST_PROXY: 'true' });
    try {
      const statuses: number[] = [];
      let last: Response | null = null;
      for (let i = 0; i < 21; i++) {
        last = await limited.request('/api/admin/password-reset', {
          method: 'POST',
          body: { email: `nobody-${i}@staff.test` },
          headers: { 'x-forwarded-for': '192.0.2.44' },
        });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 20).every((s) => s < 300)).toBe(true);
      expect(statuses[20]).toBe(429);
      expect(await last!.json()).toMatchObject({ message: STAFF_MESSAGES.tooManyTokenRequests });
      // The same budget covers invitation checks.
      const check = await limited.request('/api/admin/invitations/check', {
        method: 'POST',
        body: { token: 'x'.repeat(43) },
        headers: { 'x-forwarded-for': '192.0.2.44' },
      });
      expect(check.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('answers 400 with a message for a malformed sign-in', async () => {
    const res = await signIn('not-an-email', 'x');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: STAFF_MESSAGES.emailInvalid });
  });
});

describe('invitations', () => {
  it('an owner invites; the emailed link checks, creates the account once, signs it in, and the audit shows each step', async () => {
    const email = `invited-${randomUUID().slice(0, 8)}@staff.test`;
    const sent = await owner.request('/api/admin/staff/invitations', { method: 'POST', body: { email, role: 'manager' } });
    expect(sent.status).toBe(201);
    expect(await sent.json()).toMatchObject({ email, role: 'manager' });
    const again = await owner.request('/api/admin/staff/invitations', { method: 'POST', body: { email, role: 'support' } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'STAFF_INVITATION_PENDING' });

    // The outbox row names the invitation's row, nothing more: the token is made as the email is sent.
    const [row] = await linkRows(api.ctx.db, 'staff.invited', email);
    expect(row!.payload).toEqual({ tokenId: row!.tokenId });
    const token = await tokenFor('staff.invited', email);
    const stored = await api.ctx.db.execute(sql`select token_hash from staff_tokens where email = ${email}`);
    expect(JSON.stringify(stored.rows)).not.toContain(token);

    const check = await api.request('/api/admin/invitations/check', { method: 'POST', body: { token } });
    expect(await check.json()).toEqual({ email, role: 'manager' });

    const short = await api.request('/api/admin/invitations/accept', {
      method: 'POST',
      body: { token, name: 'Mia Manager', password: 'short' },
    });
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ message: STAFF_MESSAGES.passwordTooShort });

    const accepted = await api.request('/api/admin/invitations/accept', {
      method: 'POST',
      body: { token, name: 'Mia Manager', password: 'a long enough password' },
    });
    expect(accepted.status).toBe(200);
    const me = await api.request('/api/admin/me', { headers: { cookie: sessionCookie(accepted) } });
    expect(await me.json()).toMatchObject({ email, name: 'Mia Manager', role: 'manager' });

    const reused = await api.request('/api/admin/invitations/accept', {
      method: 'POST',
      body: { token, name: 'Someone', password: 'another long password' },
    });
    expect(reused.status).toBe(410);
    expect(await reused.json()).toMatchObject({ code: 'STAFF_INVITATION_USED', message: STAFF_MESSAGES.invitationUsed });

    const invited = await auditOf({ action: 'staff.invited', entityId: email });
    expect(invited.entries[0]).toMatchObject({
      actorEmail: owner.email,
      actorRole: 'owner',
      before: null,
      after: { email, role: 'manager' },
    });
    const joined = await auditOf({ action: 'staff.invitation_accepted', actor: email });
    expect(joined.entries[0]).toMatchObject({ after: { email, name: 'Mia Manager', role: 'manager' } });

    const dup = await owner.request('/api/admin/staff/invitations', { method: 'POST', body: { email, role: 'support' } });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toMatchObject({ code: 'STAFF_EXISTS' });
  });

  it('an expired invitation says so; an unknown token is not found', async () => {
    const email = `late-${randomUUID().slice(0, 8)}@staff.test`;
    await owner.request('/api/admin/staff/invitations', { method: 'POST', body: { email, role: 'support' } });
    const token = await tokenFor('staff.invited', email);
    await api.ctx.db.execute(sql`update staff_tokens set expires_at = now() - interval '1 minute' where email = ${email}`);
    const res = await api.request('/api/admin/invitations/accept', {
      method: 'POST',
      body: { token, name: 'Late', password: 'a long enough password' },
    });
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ code: 'STAFF_INVITATION_EXPIRED', message: STAFF_MESSAGES.invitationExpired });
    const unknown = await api.request('/api/admin/invitations/check', { method: 'POST', body: { token: 'x'.repeat(43) } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: STAFF_MESSAGES.invitationInvalid });
  });
});

describe('roles and disabling', () => {
  it('changing a role takes effect on the next call; disabling ends every session at once and refuses sign-in', async () => {
    const member = await signInAs(api, 'manager');
    expect((await member.request('/api/promo-codes/list', { method: 'POST', body: {} })).status).toBe(200);

    const demoted = await owner.request(`/api/admin/staff/${member.id}`, { method: 'PATCH', body: { role: 'support' } });
    expect(staffMemberSchema.parse(await demoted.json())).toMatchObject({ role: 'support', status: 'active' });
    expect((await member.request('/api/promo-codes/list', { method: 'POST', body: {} })).status).toBe(403);

    const disabled = await owner.request(`/api/admin/staff/${member.id}`, { method: 'PATCH', body: { disabled: true } });
    expect(await disabled.json()).toMatchObject({ status: 'disabled' });
    expect((await member.request('/api/admin/me')).status).toBe(401);
    const again = await signIn(member.email, STAFF_TEST_PASSWORD);
    expect(again.status).toBe(403);
    expect(await again.json()).toEqual({ message: STAFF_MESSAGES.accountDisabled, code: 'STAFF_ACCOUNT_DISABLED' });

    const list = staffListSchema.parse(await (await owner.request('/api/admin/staff')).json());
    expect(list.staff.find((s) => s.id === member.id)).toMatchObject({ role: 'support', status: 'disabled' });

    const history = await auditOf({ entityType: 'staff', entityId: member.id });
    expect(history.entries.map((e) => e.action)).toEqual(expect.arrayContaining(['staff.role_changed', 'staff.disabled']));
    expect(history.entries.find((e) => e.action === 'staff.role_changed')).toMatchObject({
      before: { role: 'manager' },
      after: { role: 'support' },
      actorEmail: owner.email,
    });
  });

  it('keeps at least one active owner (a database of its own, where the owners are known)', async () => {
    await withFreshDatabase(async (fresh) => {
      const first = await signInAs(fresh, 'owner');
      for (const change of [{ role: 'manager' }, { disabled: true }]) {
        const res = await first.request(`/api/admin/staff/${first.id}`, { method: 'PATCH', body: change });
        expect(res.status).toBe(409);
        expect(await res.json()).toEqual({ code: 'STAFF_LAST_OWNER', message: STAFF_MESSAGES.lastOwner });
      }
      const second = await signInAs(fresh, 'owner');
      expect((await first.request(`/api/admin/staff/${first.id}`, { method: 'PATCH', body: { role: 'manager' } })).status).toBe(200);
      const alone = await second.request(`/api/admin/staff/${second.id}`, { method: 'PATCH', body: { disabled: true } });
      expect(alone.status).toBe(409);
    });
  });

  it('answers 404 for an unknown staff id and 400 for a change of nothing', async () => {
    expect((await owner.request(`/api/admin/staff/${randomUUID()}`, { method: 'PATCH', body: { role: 'support' } })).status).toBe(404);
    expect((await owner.request('/api/admin/staff/not-a-uuid', { method: 'PATCH', body: { role: 'support' } })).status).toBe(404);
    const nothing = await owner.request(`/api/admin/staff/${owner.id}`, { method: 'PATCH', body: {} });
    expect(nothing.status).toBe(400);
    expect(await nothing.json()).toMatchObject({ message: STAFF_MESSAGES.changeNothing });
  });
});

describe('password reset', () => {
  it('answers the same for any email; the link sets a new password once and ends every session', async () => {
    const member = await signInAs(api, 'fulfilment');
    const unknown = await api.request('/api/admin/password-reset', {
      method: 'POST',
      body: { email: `nobody-${randomUUID().slice(0, 6)}@staff.test` },
    });
    const known = await api.request('/api/admin/password-reset', { method: 'POST', body: { email: member.email } });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(await unknown.json()).toEqual(await known.json());

    const [row] = await linkRows(api.ctx.db, 'staff.password-reset-requested', member.email);
    expect(row!.payload).toEqual({ tokenId: row!.tokenId });
    const token = await tokenFor('staff.password-reset-requested', member.email);
    const done = await api.request('/api/admin/password-reset/confirm', {
      method: 'POST',
      body: { token, password: 'a brand new password' },
    });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ message: STAFF_MESSAGES.passwordChanged });
    expect((await member.request('/api/admin/me')).status).toBe(401);
    expect((await signIn(member.email, STAFF_TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(member.email, 'a brand new password')).status).toBe(200);

    const reused = await api.request('/api/admin/password-reset/confirm', {
      method: 'POST',
      body: { token, password: 'yet another password' },
    });
    expect(reused.status).toBe(410);
    expect(await reused.json()).toMatchObject({ code: 'STAFF_RESET_INVALID' });
    expect((await auditOf({ action: 'staff.password_reset', entityId: member.id })).entries).toHaveLength(1);
  });

  it('spends every open reset link of the account with the one used: links emailed earlier no longer work', async () => {
    const member = await signInAs(api, 'support');
    const other = await signInAs(api, 'support');
    for (let i = 0; i < 3; i++) await api.request('/api/admin/password-reset', { method: 'POST', body: { email: member.email } });
    await api.request('/api/admin/password-reset', { method: 'POST', body: { email: other.email } });
    const [first, second, third] = await emailedTokens(api.ctx.db, 'staff.password-reset-requested', member.email, 3);
    const theirs = await tokenFor('staff.password-reset-requested', other.email);

    expect(
      (await api.request('/api/admin/password-reset/confirm', { method: 'POST', body: { token: second, password: 'the chosen password' } }))
        .status,
    ).toBe(200);
    for (const token of [first, third]) {
      const res = await api.request('/api/admin/password-reset/confirm', {
        method: 'POST',
        body: { token, password: 'someone else entirely' },
      });
      expect(res.status).toBe(410);
      expect(await res.json()).toEqual({ code: 'STAFF_RESET_INVALID', message: STAFF_MESSAGES.resetInvalid });
    }
    const open = await api.ctx.db.execute(sql`select 1 from staff_tokens where staff_id = ${member.id} and used_at is null`);
    expect(open.rows).toHaveLength(0);
    expect((await signIn(member.email, 'the chosen password')).status).toBe(200);
    // Another account's link is not touched.
    expect(
      (
        await api.request('/api/admin/password-reset/confirm', {
          method: 'POST',
          body: { token: theirs, password: 'their own new password' },
        })
      ).status,
    ).toBe(200);
  });

  it('answers a reset request for a known and an unknown address in the same time (no account enumeration by timing)', async () => {
    const timedApi = await startTestApi({ TRUST_PROXY: 'true' }); // budgets of its own; each request from an address of its own
    try {
      const known: string[] = [];
      for (let i = 0; i < 20; i++) known.push((await signInAs(timedApi, 'support')).email);
      // The links' table locked for 200 ms from each request's start: an answer that waited for the work would wait for the lock.
      const times = await timeBothWays(
        20,
        (which, i, signal) =>
          fetch(`${timedApi.url}/api/admin/password-reset`, {
            method: 'POST',
            signal,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${i}.${which === 'known' ? 1 : 2}` },
            body: JSON.stringify({ email: which === 'known' ? known[i] : `nobody-${randomUUID().slice(0, 8)}@staff.test` }),
          }),
        { db: api.ctx.db, table: 'staff_tokens' },
      );
      expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(20);
      expect(times.statuses).toEqual(Array(40).fill(202));
      // The work was done once the table was free: every known address got its link.
      await timedApi.services.afterAnswer.settled();
      const links = await api.ctx.db.$client.query(`select email from staff_tokens where purpose = 'password_reset' and email = any($1)`, [
        known,
      ]);
      expect(links.rows).toHaveLength(20);
    } finally {
      await timedApi.close();
    }
  }, 90_000);
});

describe('the audit trail', () => {
  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    for (const statement of [sql`update audit_events set action = 'x'`, sql`delete from audit_events`, sql`truncate audit_events`]) {
      await expect(api.ctx.db.execute(statement)).rejects.toMatchObject({
        cause: expect.objectContaining({ message: expect.stringContaining('append-only') }),
      });
    }
  });

  it('filters by date and downloads as CSV with staff words', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const page = await auditOf({ actor: owner.email, from: today, to: today, limit: '5' });
    expect(page.total).toBeGreaterThan(0);
    expect(page.entries.length).toBeLessThanOrEqual(5);
    const bad = await owner.request('/api/admin/audit?from=2026-02-31x');
    expect(bad.status).toBe(400);
    const order = await owner.request('/api/admin/audit?from=2026-05-02&to=2026-05-01');
    expect(await order.json()).toMatchObject({ message: 'The "from" date must be on or before the "to" date.' });

    const csv = await owner.request(`/api/admin/audit.csv?${new URLSearchParams({ actor: owner.email })}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="nh-audit-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).toBe('Time,Staff,Role,Action,Record,Record id,Before,After,Address,User agent,Request id');
    expect(lines.some((l) => l.includes('Signed in') && l.includes('Owner'))).toBe(true);
  });
});

describe('the first owner at release', () => {
  it('is created from ADMIN_EMAIL and ADMIN_PASSWORD while no staff exists, and only then; production requires both', async () => {
    const url = new URL(inject('databaseUrl'));
    url.pathname = `/nh_first_owner_${randomUUID().slice(0, 8)}`;
    await ensureDatabase(url.toString());
    await applyMigrations(url.toString());
    const db = createDb({ url: url.toString(), max: 2 });
    try {
      await expect(ensureFirstOwner(db, { NODE_ENV: 'production' })).rejects.toThrow('set ADMIN_EMAIL and ADMIN_PASSWORD');
      await expect(
        ensureFirstOwner(db, { NODE_ENV: 'production', ADMIN_EMAIL: 'boss@shop.test', ADMIN_PASSWORD: 'short' }),
      ).rejects.toThrow('at least 12 characters');
      expect(
        await ensureFirstOwner(db, { NODE_ENV: 'production', ADMIN_EMAIL: 'Boss@Shop.test', ADMIN_PASSWORD: 'a long release password' }),
      ).toEqual({ kind: 'created', email: 'boss@shop.test' });
      expect(
        await ensureFirstOwner(db, { NODE_ENV: 'production', ADMIN_EMAIL: 'other@shop.test', ADMIN_PASSWORD: 'another long password' }),
      ).toEqual({ kind: 'exists' });
      const owners = await db.execute<{ email: string; role: string }>(sql`select email, role from staff`);
      expect(owners.rows).toEqual([{ email: 'boss@shop.test', role: 'owner' }]);
    } finally {
      await db.$client.end();
      await dropDatabase(url.toString());
    }
  });

  it('falls back to the demo owner outside production', () => {
    expect(DEV_OWNER).toMatchObject({ email: 'owner@nurturehome.test', password: 'nurture-admin' });
  });
});
