/**
 * Cookies in production (issue 24, item 6; docs/decisions/production-safety.md "Secure cookies"): every
 * cookie the API sets is Secure in production (at an https SHOP_SITE_URL) whatever TRUST_PROXY says; behind a TLS-terminating proxy
 * (`X-Forwarded-Proto: https`) the shopper's session cookie is set with or without TRUST_PROXY; a
 * plain-HTTP request gets no session cookie, and the process says why once. Outside production cookies
 * are Secure only over https (a developer's http://localhost keeps working).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/harness';
import { captureLog } from './support/log-capture';
import { STAFF_TEST_PASSWORD } from './support/staff';
import { insertStaff } from '@nh/server/queries/staff';
import { hashPassword } from '@nh/server/passwords';

const PRODUCTION = {
  NODE_ENV: 'production',
  SESSION_SECRET: 's'.repeat(40),
  SIGN_IN_CODE_PEPPER: 'p'.repeat(40),
  SHOP_SITE_URL: 'https://shop.example.com',
  LOG_LEVEL: 'info',
};

const started: TestApi[] = [];
afterAll(() => Promise.all(started.map((a) => a.close())));

async function apiWith(env: Record<string, string>, log = captureLog()) {
  const api = await startTestApi(env, { log: log.log });
  started.push(api);
  return { api, lines: log.lines };
}

/** The Set-Cookie line of cookie `name`, or undefined. */
const setCookie = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

const register = (api: TestApi, headers: Record<string, string>) =>
  api.request('/api/register', { body: { firstName: 'Ada', lastName: 'Lovelace', email: `secure.${randomUUID().slice(0, 8)}@example.com`, password: 'correct horse battery' }, headers });

async function staffSignIn(api: TestApi, headers: Record<string, string>) {
  const email = `secure-${randomUUID().slice(0, 8)}@staff.test`;
  await insertStaff(api.ctx.db, { email, name: 'Secure Owner', role: 'owner', passwordHash: await hashPassword(STAFF_TEST_PASSWORD) });
  return api.request('/api/admin/session', { body: { email, password: STAFF_TEST_PASSWORD }, headers });
}

const HTTPS = { 'x-forwarded-proto': 'https' };

describe('cookies in production', () => {
  for (const trustProxy of ['false', 'true']) {
    it(`are all Secure behind a TLS-terminating proxy (TRUST_PROXY=${trustProxy})`, async () => {
      const { api, lines } = await apiWith({ ...PRODUCTION, TRUST_PROXY: trustProxy });
      const shopper = await register(api, HTTPS);
      expect(shopper.status).toBe(201);
      expect(setCookie(shopper, 'nh.sid')).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);

      const staff = await staffSignIn(api, HTTPS);
      expect(staff.status).toBe(200);
      expect(setCookie(staff, 'nh.staff')).toMatch(/; HttpOnly; Secure; SameSite=Strict$/);
      expect(setCookie(staff, 'nh.known')).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
      expect(lines.filter((l) => String(l.msg).includes('plain HTTP'))).toEqual([]);
    });
  }

  it('over plain HTTP the session cookie is not set (a browser would drop it) and the process warns once', async () => {
    const { api, lines } = await apiWith(PRODUCTION);
    const first = await register(api, {});
    expect(first.status).toBe(201);
    expect(setCookie(first, 'nh.sid')).toBeUndefined();
    await register(api, {});
    const staff = await staffSignIn(api, {});
    // Set, but Secure: no browser keeps it from an http:// page.
    expect(setCookie(staff, 'nh.staff')).toContain('; Secure');
    const warnings = lines.filter((l) => String(l.msg).includes('plain HTTP'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, msg: expect.stringContaining('X-Forwarded-Proto') });
  });
});

describe('a production shop at an http:// address (the compose demo at http://localhost:5000)', () => {
  it('sets its cookies over http, Secure only over https, and does not warn', async () => {
    const { api, lines } = await apiWith({ ...PRODUCTION, SHOP_SITE_URL: 'http://localhost:5000' });
    const plain = await register(api, {});
    expect(setCookie(plain, 'nh.sid')).toMatch(/; HttpOnly; SameSite=Lax$/);
    expect(setCookie(await staffSignIn(api, {}), 'nh.staff')).not.toContain('Secure');
    expect(lines.filter((l) => String(l.msg).includes('plain HTTP'))).toEqual([]);
  });
});

describe('cookies outside production', () => {
  it('are not Secure over http (a developer at http://localhost), and are over https', async () => {
    const { api, lines } = await apiWith({ TRUST_PROXY: 'true', LOG_LEVEL: 'info' });
    const plain = await register(api, {});
    expect(setCookie(plain, 'nh.sid')).not.toContain('Secure');
    expect(setCookie(await staffSignIn(api, {}), 'nh.staff')).not.toContain('Secure');
    // Behind a trusted https proxy (req.secure): Secure.
    expect(setCookie(await register(api, HTTPS), 'nh.sid')).toContain('; Secure');
    expect(setCookie(await staffSignIn(api, HTTPS), 'nh.staff')).toContain('; Secure');
    expect(lines.filter((l) => String(l.msg).includes('plain HTTP'))).toEqual([]);
  });
});
