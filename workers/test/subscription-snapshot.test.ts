/**
 * The plans' daily snapshot (issue 23): the maintenance job records each active and paused plan's state
 * and monthly-normalised amount once per UTC day (a second run of the day writes nothing), and the MRR
 * movement between two days is read from two snapshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@nh/server/observability/logger';
import { mrrMovement, mrrNow } from '@nh/server/queries/subscription-snapshots';
import { createSubscriptionSnapshotProcessor, subscriptionSnapshotJob } from '../src/maintenance/subscription-snapshot';
import { SCHEDULES } from '../src/schedules';
import { createTestDatabase, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase('snapshot');
});
afterAll(() => tdb?.drop());

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);
const log = createLogger('snapshot-test', 'silent');
const run = (day: string) => createSubscriptionSnapshotProcessor({ db: tdb.db, log, now: () => new Date(`${day}T00:07:00Z`) })();

async function plan(amount: string, o: { interval?: string; every?: number; status?: string } = {}): Promise<string> {
  const [row] = await q<{ id: string }>(
    `insert into subscriptions (customer_email, customer_name, items, amount, interval, interval_count, status, next_billing_date)
     values ('snap@example.com', 'Snap', '[]', $1, $2, $3, $4, now() + interval '5 days') returning id`,
    [amount, o.interval ?? 'monthly', o.every ?? 1, o.status ?? 'active'],
  );
  return row!.id;
}
const snapshot = (day: string) =>
  q<{ subscription_id: string; status: string; mrr_cents: string }>(`select subscription_id, status, mrr_cents::text from subscription_snapshots where day = $1 order by subscription_snapshots.mrr_cents desc, subscription_id`, [day]);

describe('the daily subscription snapshot', () => {
  it('is scheduled hourly on the maintenance queue', () => {
    expect(SCHEDULES).toContainEqual(expect.objectContaining({ id: 'maintenance-subscription-snapshot', name: 'subscription-snapshot', queue: 'maintenance', pattern: '7 * * * *' }));
    expect(subscriptionSnapshotJob.queue).toBe('maintenance');
  });

  let monthly: string, everyTwo: string, quarterly: string, paused: string, cancelled: string;
  it('records active and paused plans once a day, MRR monthly-normalised and rounded per plan; a second run writes nothing', async () => {
    monthly = await plan('30.00');
    everyTwo = await plan('25.01', { every: 2 }); // 1250.5 cents a month: rounds to 1251
    quarterly = await plan('10.00', { interval: 'quarterly' }); // 333.33…: 333
    paused = await plan('20.00', { status: 'paused' });
    cancelled = await plan('50.00', { status: 'cancelled' });

    expect(await run('2026-03-01')).toEqual({ day: '2026-03-01', written: 4 });
    const first = await snapshot('2026-03-01');
    expect(first).toEqual([
      { subscription_id: monthly, status: 'active', mrr_cents: '3000' },
      { subscription_id: everyTwo, status: 'active', mrr_cents: '1251' },
      { subscription_id: quarterly, status: 'active', mrr_cents: '333' },
      { subscription_id: paused, status: 'paused', mrr_cents: '0' },
    ]);
    expect(first.map((r) => r.subscription_id)).not.toContain(cancelled);
    expect(await mrrNow(tdb.db.$client)).toEqual({ mrrCents: 4584, activePlans: 3 });

    // Later the same day: plans changed and a new one made, but the day's snapshot stands.
    await q(`update subscriptions set amount = 99 where id = $1`, [monthly]);
    const later = await plan('10.00');
    expect(await run('2026-03-01')).toEqual({ day: '2026-03-01', written: 0 });
    expect(await snapshot('2026-03-01')).toEqual(first);
    await q(`update subscriptions set amount = 30 where id = $1`, [monthly]);
    await q(`delete from subscriptions where id = $1`, [later]);
  });

  it('reads the movement between two days: new, expansion, contraction, churned, reactivated', async () => {
    await q(`update subscriptions set amount = 45 where id = $1`, [monthly]); // expansion +1500
    await q(`update subscriptions set amount = 20 where id = $1`, [everyTwo]); // contraction 1251 -> 1000
    await q(`update subscriptions set status = 'cancelled', cancelled_at = now() where id = $1`, [quarterly]); // churned -333
    await q(`update subscriptions set status = 'active' where id = $1`, [paused]); // reactivated +2000
    await q(`update subscriptions set status = 'active' where id = $1`, [cancelled]); // back from cancelled: reactivated +5000
    const fresh = await plan('12.00'); // new +1200
    expect(await run('2026-03-02')).toEqual({ day: '2026-03-02', written: 5 });
    expect((await snapshot('2026-03-02')).map((r) => r.subscription_id)).toContain(fresh);

    const rows = await mrrMovement(tdb.db.$client, '2026-03-01', '2026-03-02');
    const byKind = Object.fromEntries(rows.map((r) => [r.kind, { plans: r.plans, cents: r.cents }]));
    expect(byKind).toEqual({
      new: { plans: 1, cents: 1200 },
      expansion: { plans: 1, cents: 1500 },
      contraction: { plans: 1, cents: -251 },
      churned: { plans: 1, cents: -333 },
      reactivated: { plans: 2, cents: 7000 },
    });
  });
});
