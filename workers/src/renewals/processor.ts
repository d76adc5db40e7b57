/**
 * renewals: the daily sweep (catch-up: everything due today or earlier, retries included) adds one
 * renew job per due subscription; each renew job charges one subscription for one billing period
 * (renew.ts). The job id (subscription, period, attempt) keeps a second sweep from adding a duplicate
 * while a retry after a decline is a job of its own; the period's payment row keeps a repeated job
 * from charging twice.
 *
 * The same sweep also adds one renewal-reminder email job per active plan billed RENEWAL_REMINDER_DAYS
 * from today (UTC day); its job id and the email_log row (subscription, period) keep it to one email.
 */
import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import type { PaymentGateway } from '@nh/server/payments/index';
import type { Db, Logger, Redis } from '@nh/server';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { JOB_NAMES, jobIds, jobPayloads } from '@nh/server/queues';
import type { WorkerConfig } from '../config';
import { jobOptions } from '../relay/routes';
import { recordSweep } from './missed-sweep';
import { findDueSubscriptions, findSubscriptionsToRemind } from './queries';
import { renewSubscription, RENEWAL_MESSAGES, type RenewResult } from './renew';

export interface RenewalDeps {
  db: Db;
  gateway: PaymentGateway | null;
  /** Where the sweep adds renew jobs (renewals) and renewal reminders (emails). */
  queues: { renewals: Queue; emails: Queue };
  /** Where a completed sweep leaves its marker (the renewals queue's Redis). */
  redis: Redis;
  config: WorkerConfig;
  log: Logger;
}

export interface SweepResult {
  due: number;
  /** Ids of the renew jobs asked for (an id that already exists is not added again). */
  jobs: string[];
  /** Ids of the renewal-reminder email jobs asked for (likewise). */
  reminders: string[];
}

export function createRenewalProcessor({ db, gateway, queues, redis, config, log }: RenewalDeps) {
  async function addRenewJobs(jobLog: Logger): Promise<Omit<SweepResult, 'reminders'>> {
    const due = await findDueSubscriptions(db.$client);
    if (!gateway) {
      jobLog.error({ due: due.length }, `renewal sweep: ${RENEWAL_MESSAGES.notConfigured}; no subscription renewed`);
      return { due: due.length, jobs: [] };
    }
    const jobs = due.map((s) => {
      const period = billingPeriodOf(s.nextBillingDate);
      return {
        name: JOB_NAMES.renewSubscription,
        data: { subscriptionId: s.id, period },
        opts: { ...jobOptions(JOB_NAMES.renewSubscription, config), jobId: jobIds.renewal(s.id, period, s.failedAttempts) },
      };
    });
    if (jobs.length > 0) await queues.renewals.addBulk(jobs);
    jobLog.info({ due: due.length }, 'renewal sweep: renew jobs added');
    return { due: due.length, jobs: jobs.map((j) => j.opts.jobId) };
  }

  /**
   * Reminders go out whether or not the gateway is configured: a reminder for a charge that a
   * misconfiguration then delays is harmless, a charge without the promised reminder is not.
   */
  async function addReminderJobs(jobLog: Logger): Promise<string[]> {
    const upcoming = await findSubscriptionsToRemind(db.$client);
    const jobs = upcoming.map((s) => {
      const period = billingPeriodOf(s.nextBillingDate);
      return {
        name: JOB_NAMES.renewalReminder,
        data: { subscriptionId: s.id, period },
        opts: { ...jobOptions(JOB_NAMES.renewalReminder, config), jobId: jobIds.renewalReminder(s.id, period) },
      };
    });
    if (jobs.length > 0) await queues.emails.addBulk(jobs);
    jobLog.info({ reminders: jobs.length }, 'renewal sweep: reminder jobs added');
    return jobs.map((j) => j.opts.jobId);
  }

  // Renew jobs first: a Redis failure while adding reminders must not hold up a charge that is due.
  // A sweep that renewed (payments configured) leaves its marker: a worker starting later knows it ran.
  async function sweep(jobLog: Logger): Promise<SweepResult> {
    const startedAt = new Date();
    const renewals = await addRenewJobs(jobLog);
    const result = { ...renewals, reminders: await addReminderJobs(jobLog) };
    if (gateway) await recordSweep({ queue: queues.renewals, redis }, startedAt);
    return result;
  }

  return async function renewals(job: Job): Promise<SweepResult | RenewResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'renewals', job: job.name });
    switch (job.name) {
      case JOB_NAMES.renewalSweep:
        return sweep(jobLog);
      case JOB_NAMES.renewSubscription: {
        const { subscriptionId, period, resumed } = jobPayloads[JOB_NAMES.renewSubscription].parse(job.data);
        const skipReason = resumed ? 'plan-paused' : 'renewals-late';
        return renewSubscription({ db, gateway, log: jobLog.child({ subscriptionId, period }) }, subscriptionId, period, skipReason);
      }
      default:
        throw new UnrecoverableError(`unknown renewals job ${job.name}`);
    }
  };
}
