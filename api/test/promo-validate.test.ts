import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('GET /api/promo-codes/validate/{code}', () => {
  it('accepts the demo percentage code, trimmed and upper-cased', async () => {
    const res = await api.request(`/api/promo-codes/validate/${encodeURIComponent(' welcome10 ')}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 'WELCOME10', discountType: 'percentage', discountValue: 10 });
  });

  it('accepts the demo fixed code (whole dollars)', async () => {
    const res = await api.request('/api/promo-codes/validate/save5');
    expect(await res.json()).toEqual({ code: 'SAVE5', discountType: 'fixed', discountValue: 5 });
  });

  it.each(['SPRING20', 'NOSUCHCODE', 'X'.repeat(60)])('refuses %s as invalid or expired', async (code) => {
    const res = await api.request(`/api/promo-codes/validate/${code}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'This promo code is invalid or expired', code: 'PROMO_NOT_FOUND' });
  });

  it('refuses a blank code', async () => {
    const res = await api.request('/api/promo-codes/validate/%20%20');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Please enter a promo code', code: 'VALIDATION_FAILED' });
  });
});
