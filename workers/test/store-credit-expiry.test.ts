/**
 * Store credit expiry (issue 23; docs/decisions/store-credit.md, "Expiry"): goodwill grants carry an
 * expiry, refunds to credit never expire; the daily maintenance job writes an `expire` row for what is
 * left of a grant whose expiry has come, spends take the credit that expires first, the balance never
 * goes below zero, and an expiry racing a spend of the same account expires or spends each cent once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@nh/server/observability/logger';
import { creditBalance, creditHistory, moveCredit, spendCreditUpTo, type CreditMovement } from '@nh/server/queries/store-credit';
import { expireDueCredit } from '@nh/server/queries/store-credit-expiry';
import { replayCreditLots } from '@nh/server/queries/store-credit-lots';
import * as tables from '@nh/server/db/schema';
import { createStoreCreditExpiryProcessor, storeCreditExpiryJob } from '../src/maintenance/store-credit-expiry';
import { SCHEDULES } from '../src/schedules';
import { createTestDatabase, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase('creditexpiry');
});
afterAll(() => tdb?.drop());

const log = createLogger('credit-expiry-test', 'silent');
const DAY = 86_400_000;
const now = new Date();
const run = (at = now) => createStoreCreditExpiryProcessor({ db: tdb.db, log, now: () => at })();

let n = 0;
async function account(): Promise<string> {
  n++;
  const [user] = await tdb.db.insert(tables.users).values({ email: `expiry${n}-${Date.now()}@example.com`, firstName: 'Kim' }).returning({ id: tables.users.id });
  return user!.id;
}
const move = (userId: string, m: Partial<CreditMovement> & Pick<CreditMovement, 'kind' | 'amount'>) =>
  moveCredit(tdb.db.$client, { userId, reason: null, staffId: null, orderId: null, subscriptionId: null, reference: null, ...m });
const grant = (userId: string, amount: number, expiresAt: Date | null) => move(userId, { kind: 'grant', amount, reason: 'Goodwill', expiresAt });
const refund = (userId: string, amount: number) => move(userId, { kind: 'refund', amount });
const balance = (userId: string) => creditBalance(tdb.db.$client, userId);

describe('store credit expiry', () => {
  it('runs daily on the maintenance queue under a fixed scheduler id', () => {
    expect(SCHEDULES).toContainEqual(expect.objectContaining({ id: 'maintenance-store-credit-expiry', name: 'store-credit-expiry', queue: 'maintenance', pattern: '23 4 * * *' }));
    expect(storeCreditExpiryJob.queue).toBe('maintenance');
  });

  it('the lots: spends take the credit that expires first; a reverse gives it back to the lot it came from', () => {
    const soon = new Date(now.getTime() + DAY);
    const later = new Date(now.getTime() + 10 * DAY);
    const lots = replayCreditLots([
      { id: 1, kind: 'refund', amount: 500, orderId: null, reference: null, expiresAt: null },
      { id: 2, kind: 'grant', amount: 300, orderId: null, reference: null, expiresAt: later },
      { id: 3, kind: 'grant', amount: 200, orderId: null, reference: null, expiresAt: soon },
      { id: 4, kind: 'spend', amount: -400, orderId: 'o1', reference: null, expiresAt: null },
      { id: 5, kind: 'reverse', amount: 150, orderId: 'o1', reference: null, expiresAt: null },
    ]);
    // The spend took 200 (soon) then 200 of 300 (later); the reverse gives back 150 of the spend, first to the lot it took first.
    expect(lots.map((l) => [l.entryId, l.remaining])).toEqual([
      [1, 500],
      [2, 100],
      [3, 150],
    ]);
  });

  it('expires what is left of a grant whose day has come, never a refund to credit, and only once', async () => {
    const userId = await account();
    const g = await grant(userId, 1000, new Date(now.getTime() - DAY));
    await refund(userId, 500);
    await grant(userId, 700, new Date(now.getTime() + 30 * DAY));
    await move(userId, { kind: 'spend', amount: 300 });
    expect(await balance(userId)).toBe(1900);

    expect(await run()).toMatchObject({ accounts: 1, expired: 700 });
    expect(await balance(userId)).toBe(1200);
    const [last] = await creditHistory(tdb.db.$client, userId, 1);
    expect(last).toMatchObject({ kind: 'expire', amount: -700, balanceAfter: 1200 });

    // The next day's run, and the same run again: nothing left to expire.
    expect(await run()).toMatchObject({ expired: 0 });
    expect(await run(new Date(now.getTime() + DAY))).toMatchObject({ expired: 0 });
    expect(await balance(userId)).toBe(1200);

    // The later grant expires in its turn; the refund's 500 stays for good.
    expect(await run(new Date(now.getTime() + 31 * DAY))).toMatchObject({ expired: 700 });
    expect(await balance(userId)).toBe(500);
    expect(await run(new Date(now.getTime() + 3650 * DAY))).toMatchObject({ expired: 0 });
    expect(g.replayed).toBe(false);
  });

  it('a grant spent in full before its day leaves nothing to expire; the balance is never negative', async () => {
    const userId = await account();
    await grant(userId, 400, new Date(now.getTime() - DAY));
    await move(userId, { kind: 'spend', amount: 400 });
    expect(await run()).toMatchObject({ expired: 0 });
    expect(await balance(userId)).toBe(0);
  });

  it('an expiry racing spends of the same account: each cent is spent or expired once, never below zero', async () => {
    for (let round = 0; round < 8; round++) {
      const userId = await account();
      await grant(userId, 1000, new Date(now.getTime() - DAY));
      await refund(userId, 500);
      // "Credit before the card" for $12 and the expiry at once, and an exact spend of $4 beside them.
      const [spentUpTo, expired, exact] = await Promise.all([
        spendCreditUpTo(tdb.db.$client, { userId, max: 1200, orderId: null, subscriptionId: null, reference: `race:${userId}:up-to` }),
        expireDueCredit(tdb.db.$client, userId, now),
        move(userId, { kind: 'spend', amount: 400, reference: `race:${userId}:exact` }).then(
          () => 400,
          (e: { code?: string }) => {
            if (e.code !== 'NH409') throw e;
            return 0;
          },
        ),
      ]);
      const left = await balance(userId);
      expect(left).toBeGreaterThanOrEqual(0);
      expect(spentUpTo + expired + exact + left).toBe(1500);
      // Whatever the order, the goodwill was either used or expired, never both: the refund's 500 never expires.
      expect(expired).toBeLessThanOrEqual(1000);
      const history = await creditHistory(tdb.db.$client, userId);
      expect(history.every((e) => e.balanceAfter >= 0)).toBe(true);
      expect(history.filter((e) => e.kind === 'expire').reduce((s, e) => s - e.amount, 0)).toBe(expired);
    }
  });
});
