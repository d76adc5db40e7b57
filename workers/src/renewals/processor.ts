/**
 * renewals: the daily sweep finds every active subscription due on or before now.
 *
 * NOT IMPLEMENTED YET: renewal charging (one renew job per due subscription, a payment row unique per
 * subscription and billing period written before the charge, dunning) belongs to the subscriptions
 * issue. Until then the sweep only counts and logs what is due; it charges nobody and changes nothing.
 */
import type { Job } from 'bullmq';
import { and, count, eq, lte } from 'drizzle-orm';
import { tables, type Db, type Logger } from '@nh/shared/server';

export function createRenewalProcessor({ db, log }: { db: Db; log: Logger }) {
  return async function renewalSweep(job: Job): Promise<{ due: number; charged: 0 }> {
    const { subscriptions } = tables;
    const [row] = await db
      .select({ due: count() })
      .from(subscriptions)
      .where(and(eq(subscriptions.status, 'active'), lte(subscriptions.nextBillingDate, new Date())));
    const due = row?.due ?? 0;
    log.warn({ jobId: job.id, queue: 'renewals', due }, 'renewal sweep: subscriptions due; renewal charging is not implemented yet, none charged');
    return { due, charged: 0 };
  };
}
