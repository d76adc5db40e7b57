/**
 * Staff giving store credit (issue 23): POST /api/admin/customers/{id}/credit on the real API.
 * Managers any amount, support up to SUPPORT_CREDIT_LIMIT, audited with the person, once per
 * Idempotency-Key (a second click or tab answers the first grant), a guest's id refused with what to do;
 * the shopper then reads the balance and history in words at GET /api/account/credit.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/harness';
import { json, signUpShopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
let support: StaffClient;
let fulfilment: StaffClient;
beforeAll(async () => {
  api = await startTestApi({ SUPPORT_CREDIT_LIMIT: '20' });
  manager = await signInAs(api, 'manager');
  support = await signInAs(api, 'support');
  fulfilment = await signInAs(api, 'fulfilment');
});
afterAll(async () => {
  await api.close();
});

const grant = (staff: StaffClient, customerId: string, body: unknown, key: string | null = randomUUID()) =>
  staff.request(`/api/admin/customers/${customerId}/credit`, { method: 'POST', body, headers: key ? { 'idempotency-key': key } : {} });

describe('POST /api/admin/customers/{id}/credit', () => {
  it('a manager gives credit: 201 with the balance, audited with the person, and the shopper sees it in words', async () => {
    const shopper = await signUpShopper(api, 'credit-grant');
    const body = await json(await grant(manager, shopper.id, { amount: '35.00', reason: 'Refill arrived leaking' }), 201);
    expect(body).toMatchObject({ balance: '35.00', entry: { kind: 'grant', label: 'Credit given', amount: '35.00', balanceAfter: '35.00', reason: 'Refill arrived leaking', staffName: 'Test manager' } });
    // A goodwill grant expires after STORE_CREDIT_EXPIRY_DAYS (365 by default).
    const { expiresAt } = body.entry as { expiresAt: string };
    const days = (Date.parse(expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThan(365.1);

    const { rows } = await api.ctx.db.$client.query('select actor_email, action, entity_type, entity_id, before, after from audit_events where entity_id = $1', [shopper.id]);
    expect(rows).toEqual([
      {
        actor_email: manager.email,
        action: 'customer.credit_granted',
        entity_type: 'customer',
        entity_id: shopper.id,
        before: { balance: '0.00' },
        after: { balance: '35.00', amount: '35.00', reason: 'Refill arrived leaking', email: shopper.email, expiresAt },
      },
    ]);

    const mine = await json(await shopper.call('/api/account/credit'), 200);
    expect(mine).toMatchObject({ balance: '35.00', entries: [{ label: 'Credit given', amount: '35.00', balanceAfter: '35.00' }] });
    // The staff's reason and name stay in the back office.
    expect(JSON.stringify(mine)).not.toContain('leaking');
    expect(JSON.stringify(mine)).not.toContain('manager');
  });

  it('the same key sent twice at once (a double click, a second tab) gives once and answers the first grant', async () => {
    const shopper = await signUpShopper(api, 'credit-twice');
    const key = randomUUID();
    const answers = await Promise.all([0, 1, 2].map(() => grant(manager, shopper.id, { amount: '10.00', reason: 'Late delivery' }, key)));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    const view = await json(await manager.request(`/api/admin/customers/${shopper.id}/credit`), 200);
    expect(view).toMatchObject({ balance: '10.00' });
    expect(view.entries).toHaveLength(1);
    const { rows } = await api.ctx.db.$client.query('select count(*)::int as n from audit_events where entity_id = $1', [shopper.id]);
    expect(rows[0].n).toBe(1);
    // The same key for another amount is refused.
    const reused = await json(await grant(manager, shopper.id, { amount: '99.00', reason: 'Late delivery' }, key), 422);
    expect(reused).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('support gives up to the configured limit; above it is refused with what to do', async () => {
    const shopper = await signUpShopper(api, 'credit-support');
    await json(await grant(support, shopper.id, { amount: '20.00', reason: 'Sorry for the wait' }), 201);
    const over = await json(await grant(support, shopper.id, { amount: '20.01', reason: 'Sorry for the wait' }), 403);
    expect(over).toEqual({ code: 'CREDIT_OVER_LIMIT', message: 'Your role can give at most $20.00 of credit at a time. Ask a manager to give more.', limit: '20.00' });
    await json(await grant(manager, shopper.id, { amount: '250.00', reason: 'Goodwill' }), 201);
    const view = await json(await support.request(`/api/admin/customers/${shopper.id}/credit`), 200);
    expect(view.balance).toBe('270.00');
  });

  it('fulfilment may not give credit', async () => {
    const shopper = await signUpShopper(api, 'credit-fulfil');
    expect((await grant(fulfilment, shopper.id, { amount: '1.00', reason: 'x' })).status).toBe(403);
  });

  it('a guest (no account) is refused with what to do, never a 500', async () => {
    for (const id of [randomUUID(), 'guest:someone@example.com', 'not-a-uuid']) {
      const res = await json(await grant(manager, encodeURIComponent(id), { amount: '5.00', reason: 'Goodwill' }), 409);
      expect(res).toMatchObject({ code: 'CREDIT_NO_ACCOUNT', message: expect.stringContaining('send them a sign-in code first') });
    }
  });

  it('refuses bad input with messages a person can act on', async () => {
    const shopper = await signUpShopper(api, 'credit-bad');
    for (const [body, message] of [
      [{ amount: '-5', reason: 'x' }, 'The amount must be written like 12.50, with at most 2 decimals'],
      [{ amount: '0.00', reason: 'x' }, 'The amount must be at least 0.01'],
      [{ amount: '1.234', reason: 'x' }, 'The amount must be written like 12.50, with at most 2 decimals'],
      [{ amount: '10001', reason: 'x' }, 'The amount must be at most 10000.00'],
      [{ amount: '5.00', reason: '  ' }, 'Please give a reason for the credit (the customer does not see it)'],
      [{ reason: 'x' }, 'Please enter the amount of credit to give'],
    ] as const) {
      const res = await json(await grant(manager, shopper.id, body), 400);
      expect(JSON.stringify(res)).toContain(message);
    }
    expect((await json(await grant(manager, shopper.id, { amount: '5.00', reason: 'x' }, null), 400)).code).toBe('IDEMPOTENCY_KEY_MISSING');
    expect((await json(await shopper.call('/api/account/credit'), 200)).balance).toBe('0.00');
  });

  it('GET /api/account/credit needs a signed-in shopper', async () => {
    expect((await api.request('/api/account/credit')).status).toBe(401);
  });
});
