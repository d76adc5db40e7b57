/**
 * The plans' daily snapshot (issue 23): the maintenance job records each active and paused plan's state
 * and monthly-normalised amount once per UTC day, with the day's MRR movement since the previous snapshot
 * day in the same transaction (a second run of the day writes nothing, two at once write it once); the
 * movement over several days is the sum of the days'. A day an older release snapshotted without its
 * movement gets it at the next write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@nh/server/observability/logger';
import { mrrMovement, mrrNow, writeSubscriptionSnapshot } from '@nh/server/queries/subscription-snapshots';
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
/** A day's stored movement rows by kind. */
async function movements(day: string): Promise<Record<string, { plans: number; cents: number }>> {
  const rows = await q<{ kind: string; plans: number; cents: number }>(`select kind, plans, cents::float8 as cents from subscription_movements where day = $1 order by kind`, [day]);
  return Object.fromEntries(rows.map((r) => [r.kind, { plans: r.plans, cents: r.cents }]));
}
const snapshot = (day: string) =>
  q<{ subscription_id: string; status: string; mrr_cents: string }>(`select subscription_id, status, mrr_cents::text from subscription_snapshots where day = $1 order by subscription_snapshots.mrr_cents desc, subscription_id`, [day]);

describe('the daily subscription snapshot', () => {
  it('is scheduled hourly on the maintenance queue', () => {
    expect(SCHEDULES).toContainEqual(expect.objectContaining({ id: 'maintenance-subscription-snapshot', name: 'subscription-snapshot', queue: 'maintenance', pattern: '7 * * * *' }));
    expect(subscriptionSnapshotJob.queue).toBe('maintenance');
  });

  let monthly: string, everyTwo: string, quarterly: string, paused: string, cancelled: string;
  let fresh2 = (): string => '';
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
    fresh2 = () => fresh;
    expect(await run('2026-03-02')).toEqual({ day: '2026-03-02', written: 5 });
    expect((await snapshot('2026-03-02')).map((r) => r.subscription_id)).toContain(fresh);

    const day = await movements('2026-03-02');
    expect(day).toEqual({
      mrr: { plans: 5, cents: 4500 + 1000 + 2000 + 5000 + 1200 },
      new: { plans: 1, cents: 1200 },
      expansion: { plans: 1, cents: 1500 },
      contraction: { plans: 1, cents: -251 },
      churned: { plans: 1, cents: -333 },
      reactivated: { plans: 2, cents: 7000 },
    });
    expect(await movements('2026-03-01')).toEqual({ mrr: { plans: 3, cents: 4584 } }); // the first day: nothing to compare with
    const sums = await mrrMovement(tdb.db.$client, '2026-03-01', '2026-03-02');
    expect(sums).toEqual({
      start: { plans: 3, cents: 4584 },
      end: { plans: 5, cents: 13700 },
      kinds: { new: day.new, expansion: day.expansion, contraction: day.contraction, churned: day.churned, reactivated: day.reactivated },
    });
    expect(4584 + 1200 + 1500 - 251 - 333 + 7000).toBe(13700);
  });

  it('sums the days: a plan that churns and comes back counts as churned and reactivated; no change, no row', async () => {
    await q(`update subscriptions set status = 'cancelled' where id = $1`, [monthly]);
    await run('2026-03-03');
    await q(`update subscriptions set status = 'active' where id = $1`, [monthly]);
    await run('2026-03-04');
    expect(await movements('2026-03-03')).toEqual({ mrr: { plans: 4, cents: 13700 - 4500 }, churned: { plans: 1, cents: -4500 } });
    expect(await movements('2026-03-04')).toEqual({ mrr: { plans: 5, cents: 13700 }, reactivated: { plans: 1, cents: 4500 } });
    expect(await run('2026-03-05')).toEqual({ day: '2026-03-05', written: 5 });
    expect(await movements('2026-03-05')).toEqual({ mrr: { plans: 5, cents: 13700 } });
    const sums = await mrrMovement(tdb.db.$client, '2026-03-02', '2026-03-05');
    expect(sums.kinds.churned).toEqual({ plans: 1, cents: -4500 });
    expect(sums.kinds.reactivated).toEqual({ plans: 1, cents: 4500 });
    expect(sums.start.cents).toBe(sums.end.cents);
  });

  it('two runs at once write the day once', async () => {
    await q(`update subscriptions set amount = 50 where id = $1`, [monthly]); // expansion +500
    const both = await Promise.all([run('2026-03-06'), run('2026-03-06'), writeSubscriptionSnapshot(tdb.db, '2026-03-06')]);
    expect(both.map((r) => (typeof r === 'number' ? r : r.written)).sort()).toEqual([0, 0, 5]);
    expect(await q(`select count(*)::int as n from subscription_snapshots where day = '2026-03-06'`)).toEqual([{ n: 5 }]);
    expect(await movements('2026-03-06')).toEqual({ mrr: { plans: 5, cents: 14200 }, expansion: { plans: 1, cents: 500 } });
  });

  it('gives a day an older release snapshotted without movement its movement at the next write', async () => {
    // As the release before subscription_movements wrote it: snapshot rows only.
    await q(`update subscriptions set status = 'paused' where id = $1`, [fresh2()]);
    await q(
      `insert into subscription_snapshots (day, subscription_id, status, mrr_cents)
       select '2026-03-07', id, status, case when status = 'active' then round(amount * 100 / case when interval = 'quarterly' then 3 else interval_count end) else 0 end
       from subscriptions where status in ('active', 'paused')`,
    );
    expect(await movements('2026-03-07')).toEqual({});
    expect(await run('2026-03-08')).toEqual({ day: '2026-03-08', written: 5 });
    expect(await movements('2026-03-07')).toEqual({ mrr: { plans: 4, cents: 14200 - 1200 }, churned: { plans: 1, cents: -1200 } });
    expect(await movements('2026-03-08')).toEqual({ mrr: { plans: 4, cents: 13000 } });
  });
});
