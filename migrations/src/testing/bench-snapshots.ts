/**
 * bench:admin's subscription history (issue 23): the plans' daily snapshot for each of the last `days`
 * days, written the way the maintenance job writes it (writeSubscriptionSnapshot: the day's snapshot and
 * its movement in one transaction), oldest first, after a day's worth of changes to the bench plans
 * (about 0.3% cancelled, 0.1% paused, 0.3% back, 0.5% raised or lowered, 0.1% made anew), so each day has
 * movement of every kind. The plans' count stays as seeded (bench-customers re-seeds on another count).
 * A day already written is skipped with its changes, so a second bench run changes nothing.
 */
import type { Db } from '../db/client';
import { snapshotDayDone, writeSubscriptionSnapshot } from '../queries/subscription-snapshots';

/** Answers the days written. */
export async function seedBenchSnapshots(db: Db, days: number, dayOf: (daysAgo: number) => string): Promise<number> {
  let written = 0;
  for (let ago = days - 1; ago >= 0; ago--) {
    const day = dayOf(ago);
    if (await snapshotDayDone(db.$client, day)) continue;
    // A plan's draw for the day: 0 to 999, the same on a rerun of the same day.
    const draw = `(abs(hashtext(id::text || $1)) % 1000)`;
    await db.$client.query(
      `update subscriptions set
         status = case
           when status = 'active' and ${draw} < 3 then 'cancelled'
           when status = 'active' and ${draw} < 4 then 'paused'
           when status <> 'active' and ${draw} < 4 then 'active'
           else status end::subscription_status,
         amount = case when status = 'active' and ${draw} between 10 and 14 then greatest(5, amount + (${draw} - 12)) else amount end,
         created_at = case when status <> 'active' and ${draw} < 1 then clock_timestamp() else created_at end
       where ${draw} < 15`,
      [day],
    );
    await writeSubscriptionSnapshot(db, day);
    written++;
  }
  return written;
}
