import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPromoCodeSchema } from '@nh/shared/contracts/admin';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
/** A signed-in staff member whose role may use every route of this file. */
let staff: StaffClient;
beforeAll(async () => {
  api = await startTestApi();
  staff = await signInAs(api, 'manager');
});
afterAll(() => api.close());

const call = (method: string, path: string, body: Record<string, unknown> = {}) => staff.request(path, { method, body });
const unique = () => `ADM${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

describe('admin promo codes API', () => {
  it('lists every code, inactive ones included, for signed-in staff only', async () => {
    const res = await call('POST', '/api/promo-codes/list');
    expect(res.status).toBe(200);
    const list = adminPromoCodeSchema.array().parse(await res.json());
    expect(list).toEqual(
      expect.arrayContaining([
        { id: expect.any(Number), code: 'WELCOME10', discountType: 'percentage', discountValue: 10, isActive: true },
        { id: expect.any(Number), code: 'SAVE5', discountType: 'fixed', discountValue: 5, isActive: true },
        expect.objectContaining({ code: 'SPRING20', isActive: false }),
      ]),
    );
    const wrong = await api.request('/api/promo-codes/list', { method: 'POST', body: {} });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: 'Please sign in to the back office.', code: 'STAFF_SIGN_IN_REQUIRED' });
    expect((await api.request('/api/promo-codes/list', { method: 'POST', body: {} })).status).toBe(401);
  });

  it('creates a code trimmed and upper-cased, usable at checkout at once', async () => {
    const code = unique();
    const res = await call('POST', '/api/promo-codes', { code: `  ${code.toLowerCase()} `, discountType: 'percentage', discountValue: 25 });
    expect(res.status).toBe(201);
    expect(adminPromoCodeSchema.parse(await res.json())).toEqual({ id: expect.any(Number), code, discountType: 'percentage', discountValue: 25, isActive: true });
    const validate = await api.request(`/api/promo-codes/validate/${code}`);
    expect(await validate.json()).toEqual({ code, discountType: 'percentage', discountValue: 25 });
  });

  it('refuses a duplicate code (409), whatever its case', async () => {
    const res = await call('POST', '/api/promo-codes', { code: 'welcome10', discountType: 'fixed', discountValue: 3 });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'A promo code with this code already exists', code: 'PROMO_CODE_EXISTS' });
  });

  it.each([
    [{ code: '   ', discountType: 'fixed', discountValue: 5 }, 'Please enter a promo code'],
    [{ code: 'X'.repeat(51), discountType: 'fixed', discountValue: 5 }, 'Promo code must be at most 50 characters'],
    [{ code: 'OK1', discountType: 'bogo', discountValue: 5 }, 'Discount type must be percentage or fixed'],
    [{ code: 'OK1', discountType: 'fixed' }, 'Please enter a discount value'],
    [{ code: 'OK1', discountType: 'fixed', discountValue: '5' }, 'Please enter a discount value'],
    [{ code: 'OK1', discountType: 'fixed', discountValue: 2.5 }, 'Discount value must be a whole number'],
    [{ code: 'OK1', discountType: 'percentage', discountValue: 0 }, 'A percentage discount must be between 1 and 100'],
    [{ code: 'OK1', discountType: 'percentage', discountValue: 101 }, 'A percentage discount must be between 1 and 100'],
    [{ code: 'OK1', discountType: 'fixed', discountValue: 0 }, 'A fixed discount must be at least 1 dollar'],
    [{ code: 'OK1', discountType: 'fixed', discountValue: 10_001 }, 'A fixed discount must be at most 10000 dollars'],
  ])('answers 400 for %j', async (body, message) => {
    const res = await call('POST', '/api/promo-codes', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message });
  });

  it('toggles isActive back and forth; checkout follows', async () => {
    const code = unique();
    const created = adminPromoCodeSchema.parse(await (await call('POST', '/api/promo-codes', { code, discountType: 'fixed', discountValue: 7 })).json());
    const off = await call('PATCH', `/api/promo-codes/${created.id}/toggle`);
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ id: created.id, isActive: false });
    expect((await api.request(`/api/promo-codes/validate/${code}`)).status).toBe(404);
    const on = await call('PATCH', `/api/promo-codes/${created.id}/toggle`);
    expect(await on.json()).toMatchObject({ id: created.id, isActive: true });
    expect((await api.request(`/api/promo-codes/validate/${code}`)).status).toBe(200);
  });

  it('answers 404 for an unknown code id and 401 without a staff session', async () => {
    const res = await call('PATCH', '/api/promo-codes/999999/toggle');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Promo code not found', code: 'NOT_FOUND' });
    expect((await call('PATCH', '/api/promo-codes/abc/toggle')).status).toBe(400);
    expect((await api.request('/api/promo-codes/1/toggle', { method: 'PATCH', body: {} })).status).toBe(401);
  });
});
