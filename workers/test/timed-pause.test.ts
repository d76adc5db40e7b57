/**
 * The end of a timed pause (pause for 1, 2 or 3 deliveries): the daily sweep's first step resumes each
 * plan whose day has come on its saved card, through the plan-change sequence: the dates before that day
 * skipped (plan-paused), the next billing date that day (so the same sweep's renew jobs charge it), the
 * change in the plan's history and the shopper's confirmation in the outbox. Plans whose day has not come,
 * or whose payment needs attention, are left as they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPeriodOf, nextBillingDate } from '@nh/shared/contracts/subscriptions';
import { createLogger } from '@nh/server/observability/logger';
import { dueSubscriptionPages, findSubscriptionsToRemind } from '@nh/server/queries/subscriptions/renewals';
import { resumeTimedPauses } from '../src/renewals/auto-resume';
import { createTestDatabase, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase('timedpause');
});
afterAll(() => tdb?.drop());

const DAY_MS = 86_400_000;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);
const log = createLogger('timed-pause-test', 'silent');

/** A paused monthly plan whose next billing date is `next` and that resumes on `resumesOn`. */
async function pausedPlan(next: Date, resumesOn: string | null, o: { failedAttempts?: number } = {}): Promise<string> {
  const items = [{ productId: 1, productName: 'Test Cleaner', quantity: 1, price: '10.00', variantSku: null, sku: null, itemNumber: null }];
  const [row] = await q<{ id: string }>(
    `insert into subscriptions (customer_email, customer_name, items, amount, next_billing_date, status, resumes_on, failed_attempts, authnet_customer_profile_id, authnet_payment_profile_id)
     values ('timed@example.com', 'Ada Lovelace', $1, '9.15', $2, 'paused', $3, $4, '111', '222') returning id`,
    [JSON.stringify(items), next, resumesOn, o.failedAttempts ?? 0],
  );
  return row!.id;
}
const plan = (id: string) =>
  q<{ status: string; resumes_on: string | null; next_billing_date: Date }>(`select status, to_char(resumes_on, 'YYYY-MM-DD') as resumes_on, next_billing_date from subscriptions where id = $1`, [id]).then((r) => r[0]!);

describe('timed pauses end in the daily sweep', () => {
  it('resumes a plan whose day has come: the dates before it skipped, billed that day, recorded and confirmed', async () => {
    // Paused for 2 deliveries two months ago: its day to resume is today.
    const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + 14 * 3_600_000);
    let first = today;
    for (let i = 0; i < 2; i++) first = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() - 1, Math.min(today.getUTCDate(), 28), 14));
    const skipped = [first, nextBillingDate(first)];
    const resumeDate = nextBillingDate(skipped[1]!);
    const id = await pausedPlan(first, billingPeriodOf(resumeDate));
    expect(resumeDate.getTime()).toBeLessThan(Date.now() + DAY_MS);

    expect(await resumeTimedPauses(tdb.db, log)).toContain(id);
    expect(await plan(id)).toEqual({ status: 'active', resumes_on: null, next_billing_date: resumeDate });
    expect(await q(`select billing_period, reason from subscription_skipped_periods where subscription_id = $1 order by billing_period`, [id])).toEqual(
      skipped.map((d) => ({ billing_period: billingPeriodOf(d), reason: 'plan-paused' })),
    );
    const [history] = await q<{ actor: string; kind: string; after: Record<string, unknown> }>(`select actor, kind, after from subscription_changes where subscription_id = $1`, [id]);
    expect(history).toMatchObject({ actor: 'plan', kind: 'resumed', after: { status: 'active', nextBillingDate: resumeDate.toISOString() } });
    const outbox = await q<{ payload: Record<string, unknown> }>(`select payload from outbox where topic = 'subscription.changed' and payload->>'subscriptionId' = $1`, [id]);
    expect(outbox.map((o) => o.payload)).toEqual([
      expect.objectContaining({ change: { kind: 'resumed', skippedWhilePaused: 2, automatic: true }, status: 'active', nextBillingDate: resumeDate.toISOString(), amount: 915 }),
    ]);
    // Due now: the sweep's renew jobs (added right after) include it.
    const due: string[] = [];
    for await (const page of dueSubscriptionPages(tdb.db.$client)) due.push(...page.map((s) => s.id));
    expect(due).toContain(id);

    // A second sweep changes nothing more.
    expect(await resumeTimedPauses(tdb.db, log)).not.toContain(id);
    expect(await q(`select 1 from subscription_changes where subscription_id = $1`, [id])).toHaveLength(1);
  });

  it('reminds a timed pause 3 days before the day it resumes, as a renewal: that day, at the plan\'s time of day', async () => {
    const lastDue = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - 25 * DAY_MS + 15 * 3_600_000);
    const resumeDay = billingPeriodOf(new Date(Date.now() + 3 * DAY_MS));
    const resuming = await pausedPlan(lastDue, resumeDay);
    const openEnded = await pausedPlan(new Date(Date.now() + 3 * DAY_MS), null);
    const reminded = await findSubscriptionsToRemind(tdb.db.$client);
    expect(reminded.find((r) => r.id === resuming)?.nextBillingDate).toEqual(new Date(`${resumeDay}T15:00:00.000Z`));
    expect(reminded.map((r) => r.id)).not.toContain(openEnded);
  });

  it('leaves a plan whose day has not come, an open-ended pause, and one whose payment is failing', async () => {
    const soon = new Date(Date.now() + 5 * DAY_MS);
    const notYet = await pausedPlan(soon, billingPeriodOf(nextBillingDate(soon)));
    const openEnded = await pausedPlan(new Date(Date.now() - 40 * DAY_MS), null);
    const failing = await pausedPlan(new Date(Date.now() - 40 * DAY_MS), billingPeriodOf(new Date(Date.now() - 10 * DAY_MS)), { failedAttempts: 2 });
    const resumed = await resumeTimedPauses(tdb.db, log);
    for (const id of [notYet, openEnded, failing]) {
      expect(resumed).not.toContain(id);
      expect((await plan(id)).status).toBe('paused');
    }
    expect(await q(`select 1 from subscription_changes where subscription_id = any($1)`, [[notYet, openEnded, failing]])).toEqual([]);
  });
});
