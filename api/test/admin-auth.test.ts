import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_TTL_MS, verifyPasswordResponseSchema } from '@nh/shared/contracts/admin';
import { issueAdminToken, verifyAdminToken } from '../src/lib/admin-auth';
import { startTestApi, type TestApi } from './support/harness';

const PASSWORD = 'nurture-admin';
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const verify = (password: unknown) => api.request('/api/admin/verify-password', { method: 'POST', body: { password } });

describe('admin password and tokens', () => {
  it('answers authenticated with a 12-hour token for the password', async () => {
    const res = await verify(PASSWORD);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = verifyPasswordResponseSchema.parse(await res.json());
    expect(body.authenticated).toBe(true);
    expect(body.token).toMatch(/^nha1\.\d+\.[A-Za-z0-9_-]+$/);
    expect(body.token).not.toContain(PASSWORD);
    const ttl = new Date(body.expiresAt!).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(ADMIN_TOKEN_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(ADMIN_TOKEN_TTL_MS);
  });

  it('answers 401 {authenticated: false} for a wrong password, and 400 for none', async () => {
    const res = await verify('wrong');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ authenticated: false, message: 'Invalid password', code: 'ADMIN_AUTH_FAILED' });
    const missing = await verify(undefined);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ message: 'Please enter the admin password' });
  });

  it('accepts its token in place of the password, on verify and on admin calls, without extending it', async () => {
    const { token, expiresAt } = verifyPasswordResponseSchema.parse(await (await verify(PASSWORD)).json());
    const again = verifyPasswordResponseSchema.parse(await (await verify(token)).json());
    expect(again).toEqual({ authenticated: true, token, expiresAt });
    const list = await api.request('/api/promo-codes/list', { method: 'POST', body: { password: token } });
    expect(list.status).toBe(200);
  });

  it('refuses expired, forged and tampered tokens', async () => {
    const expired = issueAdminToken(api.ctx, Date.now() - ADMIN_TOKEN_TTL_MS - 1000).token;
    const [prefix, expiry, mac] = issueAdminToken(api.ctx).token.split('.');
    const laterExpiry = `${prefix}.${Number(expiry) + 1}.${mac}`;
    const forgedMac = `${prefix}.${expiry}.${'A'.repeat(mac!.length)}`;
    const otherKey = await startTestApi({ ADMIN_PASSWORD: 'another-password' });
    const fromOtherKey = issueAdminToken(otherKey.ctx).token;
    await otherKey.close();
    for (const token of [expired, laterExpiry, forgedMac, fromOtherKey, 'nha1..', 'nha1.1.2.3']) {
      expect(verifyAdminToken(api.ctx, token)).toBeNull();
      const res = await api.request('/api/admin/products', { method: 'POST', body: { password: token } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Invalid password', code: 'ADMIN_AUTH_FAILED' });
    }
  });

  it('rate-limits wrong credentials across every admin endpoint (10 per 15 minutes), not good ones with bad input', async () => {
    const limited = await startTestApi();
    try {
      // Bad input after a good password is not a guess.
      for (let i = 0; i < 12; i++) {
        const res = await limited.request('/api/admin/orders/not-a-uuid', { method: 'POST', body: { password: PASSWORD, storeCode: 'NH' } });
        expect(res.status).toBe(404);
      }
      const paths = ['/api/admin/verify-password', '/api/promo-codes/list', '/api/admin/products', '/api/admin/orders', '/api/admin/orders/export'];
      for (let i = 0; i < 10; i++) {
        const res = await limited.request(paths[i % paths.length]!, { method: 'POST', body: { password: `guess-${i}` } });
        expect(res.status).toBe(401);
      }
      const blocked = await limited.request('/api/admin/verify-password', { method: 'POST', body: { password: PASSWORD } });
      expect(blocked.status).toBe(429);
      expect(await blocked.json()).toEqual({ message: 'Too many wrong admin passwords. Try again in 15 minutes.', code: 'RATE_LIMITED' });
    } finally {
      await limited.close();
    }
  });
});
