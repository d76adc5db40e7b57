/**
 * maintenance: the plans' daily snapshot (issue 23). Every hour; the first run of each UTC day records
 * every active and paused plan's state and monthly-normalised amount for that day, later runs of the day
 * write nothing (the day already has its snapshot), so a worker that was down at midnight still records
 * the day at its next run. The day's MRR movement since the previous snapshot day is written with it, in
 * its transaction; the report sums the range's days (@nh/server/queries/subscription-snapshots).
 */
import { z } from 'zod';
import { writeSubscriptionSnapshot } from '@nh/server/queries/subscription-snapshots';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { defineJob } from '../jobs/define';

export interface SnapshotResult {
  day: string;
  /** Plans recorded by this run (0 when the day had its snapshot already). */
  written: number;
}

export function createSubscriptionSnapshotProcessor({ db, log, now = () => new Date() }: { db: Db; log: Logger; now?: () => Date }) {
  return async (): Promise<SnapshotResult> => {
    const day = now().toISOString().slice(0, 10);
    const written = await writeSubscriptionSnapshot(db, day);
    if (written > 0) log.info({ day, written }, 'subscription snapshot written');
    return { day, written };
  };
}

export const subscriptionSnapshotJob = defineJob({
  name: 'subscription-snapshot',
  queue: 'maintenance',
  payload: z.object({}).passthrough(),
  schedule: { id: 'maintenance-subscription-snapshot', pattern: '7 * * * *' },
  handler: ({ db, log }) => createSubscriptionSnapshotProcessor({ db, log }),
});
