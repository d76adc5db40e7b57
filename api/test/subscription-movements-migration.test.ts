/**
 * Migration subscription_movements (issue 23): the snapshot days kept before it get their MRR and daily
 * movement (the same function the snapshot writer calls), each day against the one before it, so the
 * subscriptions report's sum of days covers them. Run on a database of its own, migrated to just before,
 * then to the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mrrMovement } from '@nh/server/queries/subscription-snapshots';
import type { Db } from '@nh/server/db/client';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from './support/database-before-migration';

let before: DatabaseBeforeMigration;
let db: Db;

beforeAll(async () => {
  before = await databaseBeforeMigration('subscription_movements');
  db = before.db;
});
afterAll(() => before?.drop());

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => db.$client.query<T>(text, values).then((r) => r.rows);

/** A day's snapshot as the release before this migration wrote it (monthly plans only here). */
const oldSnapshot = (day: string) =>
  q(`insert into subscription_snapshots (day, subscription_id, status, mrr_cents)
     select $1, id, status, case when status = 'active' then round(amount * 100) else 0 end from subscriptions where status in ('active', 'paused')`, [day]);

describe('migration subscription_movements', () => {
  it('backfills each kept snapshot day: its MRR and its movement against the day before', async () => {
    const plan = async (amount: string) =>
      (await q<{ id: string }>(`insert into subscriptions (customer_email, customer_name, items, amount, next_billing_date) values ('m@example.com', 'M', '[]', $1, now()) returning id`, [amount]))[0]!.id;
    const a = await plan('30.00');
    const b = await plan('20.00');
    await oldSnapshot('2026-03-01');
    await q(`update subscriptions set amount = 35 where id = $1`, [a]); // expansion +500
    await q(`update subscriptions set status = 'cancelled' where id = $1`, [b]); // churned -2000
    await oldSnapshot('2026-03-02');
    await q(`update subscriptions set status = 'active' where id = $1`, [b]); // reactivated +2000
    await oldSnapshot('2026-03-04');

    await before.migrateToEnd();

    const rows = await q<{ day: string; kind: string; plans: number; cents: string }>(
      `select to_char(day, 'YYYY-MM-DD') as day, kind, plans, cents::text from subscription_movements order by day, kind`,
    );
    expect(rows).toEqual([
      { day: '2026-03-01', kind: 'mrr', plans: 2, cents: '5000' },
      { day: '2026-03-02', kind: 'churned', plans: 1, cents: '-2000' },
      { day: '2026-03-02', kind: 'expansion', plans: 1, cents: '500' },
      { day: '2026-03-02', kind: 'mrr', plans: 1, cents: '3500' },
      { day: '2026-03-04', kind: 'mrr', plans: 2, cents: '5500' },
      { day: '2026-03-04', kind: 'reactivated', plans: 1, cents: '2000' },
    ]);
    const sums = await mrrMovement(db.$client, '2026-03-01', '2026-03-04');
    expect(sums.start.cents + Object.values(sums.kinds).reduce((n, k) => n + k.cents, 0)).toBe(sums.end.cents);
    // The backfill ran once: writing again changes nothing.
    expect(await q(`select write_subscription_movements('2026-03-04') as n`)).toEqual([{ n: 0 }]);
  });
});
