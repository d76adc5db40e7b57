/** Renewals run by a test: one job through the runtime's own renewals queue, and the days they fall on. */
import { randomUUID } from 'node:crypto';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { renewSubscriptionJob, type RenewResult } from '../../src/renewals/renew';
import type { WorkerRuntime } from '../../src/runtime';
import { waitFor } from './setup';

/** Renews the plan for the period `due` falls in (a job id of its own) and answers the result; a failed job throws its reason. */
export async function renewNow(runtime: WorkerRuntime, subscriptionId: string, due: Date): Promise<RenewResult> {
  const job = await runtime.queues.renewals.add(renewSubscriptionJob.name, { subscriptionId, period: billingPeriodOf(due) }, { jobId: `test-${randomUUID()}` });
  await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), 15_000, `job ${job.id}`);
  const done = await runtime.queues.renewals.getJob(job.id!);
  if (done?.failedReason) throw new Error(done.failedReason);
  return done?.returnvalue as RenewResult;
}

/** Midnight UTC `days` from today, plus `hours`. */
export const utcDay = (days: number, hours = 0) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days) + hours * 3_600_000);
};
