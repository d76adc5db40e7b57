/**
 * The store-credit ledger (issue 23) on the real database: movements, the balance never below zero
 * (also with 10 spends at once), references that make a movement happen once, the ledger append-only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBalance, creditHistory, CREDIT_INSUFFICIENT, moveCredit, spendCreditUpTo } from '@nh/server/queries/store-credit';
import { startTestApi, type TestApi } from './support/harness';
import { signUpShopper } from './support/shopper';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const grant = (userId: string, amount: number, reference: string | null = null) =>
  moveCredit(api.ctx.db.$client, { userId, kind: 'grant', amount, reason: 'Leaking refill', staffId: null, orderId: null, subscriptionId: null, reference });
const spend = (userId: string, amount: number, reference: string | null = null) =>
  moveCredit(api.ctx.db.$client, { userId, kind: 'spend', amount, reason: null, staffId: null, orderId: null, subscriptionId: null, reference });

describe('store credit ledger', () => {
  it('records grants and spends with the balance after each, newest first', async () => {
    const { id } = await signUpShopper(api, 'ledger');
    expect(await creditBalance(api.ctx.db.$client, id)).toBe(0);
    await grant(id, 1500);
    const spent = await spend(id, 499);
    expect(spent).toMatchObject({ amount: -499, balanceAfter: 1001, replayed: false });
    expect(await creditBalance(api.ctx.db.$client, id)).toBe(1001);
    const history = await creditHistory(api.ctx.db.$client, id);
    expect(history.map((e) => [e.kind, e.amount, e.balanceAfter])).toEqual([
      ['spend', -499, 1001],
      ['grant', 1500, 1500],
    ]);
  });

  it('refuses a spend beyond the balance and moves nothing', async () => {
    const { id } = await signUpShopper(api, 'ledger-short');
    await grant(id, 300);
    await expect(spend(id, 301)).rejects.toMatchObject({ code: CREDIT_INSUFFICIENT });
    expect(await creditBalance(api.ctx.db.$client, id)).toBe(300);
    expect(await creditHistory(api.ctx.db.$client, id)).toHaveLength(1);
  });

  it('never goes below zero with 10 concurrent spends (each of 40% of the balance: exactly 2 succeed)', async () => {
    const { id } = await signUpShopper(api, 'ledger-race');
    await grant(id, 1000);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => spend(id, 400)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: CREDIT_INSUFFICIENT });
    expect(await creditBalance(api.ctx.db.$client, id)).toBe(200);
    const history = await creditHistory(api.ctx.db.$client, id);
    expect(history.reduce((sum, e) => sum + e.amount, 0)).toBe(200);
    expect(history.every((e) => e.balanceAfter >= 0)).toBe(true);
  });

  it('spends up to what there is, 10 at once, never more than the balance', async () => {
    const { id } = await signUpShopper(api, 'ledger-upto');
    await grant(id, 1000);
    const spent = await Promise.all(Array.from({ length: 10 }, (_, i) => spendCreditUpTo(api.ctx.db.$client, { userId: id, max: 350, orderId: null, subscriptionId: null, reference: `test:${id}:${i}` })));
    expect(spent.reduce((a, b) => a + b, 0)).toBe(1000);
    expect([...spent].sort((a, b) => b - a)).toEqual([350, 350, 300, 0, 0, 0, 0, 0, 0, 0]);
    expect(await creditBalance(api.ctx.db.$client, id)).toBe(0);
  });

  it('moves money once per reference, also when the same movement is sent 5 times at once', async () => {
    const { id } = await signUpShopper(api, 'ledger-ref');
    const results = await Promise.all(Array.from({ length: 5 }, () => grant(id, 700, `test:grant:${id}`)));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    expect(await creditBalance(api.ctx.db.$client, id)).toBe(700);
    const again = await spendCreditUpTo(api.ctx.db.$client, { userId: id, max: 500, orderId: null, subscriptionId: null, reference: `test:spend:${id}` });
    const retried = await spendCreditUpTo(api.ctx.db.$client, { userId: id, max: 500, orderId: null, subscriptionId: null, reference: `test:spend:${id}` });
    expect([again, retried]).toEqual([500, 500]);
    expect(await creditBalance(api.ctx.db.$client, id)).toBe(200);
  });

  it('keeps the ledger append-only', async () => {
    const { id } = await signUpShopper(api, 'ledger-ro');
    await grant(id, 100);
    await expect(api.ctx.db.$client.query('update store_credit_entries set amount_cents = 100000 where user_id = $1', [id])).rejects.toMatchObject({ code: 'NH403' });
    await expect(api.ctx.db.$client.query('delete from store_credit_entries where user_id = $1', [id])).rejects.toMatchObject({ code: 'NH403' });
    await expect(api.ctx.db.$client.query('update store_credit_balances set balance_cents = -1 where user_id = $1', [id])).rejects.toMatchObject({ code: '23514' });
  });
});
