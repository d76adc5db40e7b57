/**
 * The daily renewal sweep (catch-up: everything due today or earlier, retries included) adds one renew
 * job per due subscription (renew.ts charges it). The job id (subscription, period, attempt) keeps a
 * second sweep from adding a duplicate while a retry after a decline is a job of its own; the period's
 * payment row keeps a repeated job from charging twice.
 *
 * The same sweep also adds one renewal-reminder email job per active plan billed RENEWAL_REMINDER_DAYS
 * from today (UTC day); its job id and the email_log row (subscription, period) keep it to one email.
 * And a heads-up for each active plan billed in the next SUBSCRIPTION_HEADS_UP_DAYS days whose items are
 * out of stock or no longer sold (subscription-item-unavailable; likewise one per plan and period), and
 * for each active plan billed in those days whose stored card expires before its billing date
 * (subscription-card-expiring; one per plan and card). With payments configured it also looks up the
 * expiry of stored cards it does not know yet (record-card-expiry, a bounded number a day, behind the
 * renew jobs): lookups that failed after a card was stored, and plans from before expiries were kept.
 *
 * A sweep missed while no worker was running: the scheduled sweep (daily, RENEWAL_SWEEP_HOUR_UTC) only
 * runs while a worker consumes `renewals`, and a worker that starts later re-registers the schedule,
 * which moves it on to the next 06:00 UTC (upsertJobScheduler drops the overdue run). So each
 * completed sweep leaves a marker in Redis, and a worker starting up adds one sweep now when the last
 * completed sweep is older than the last scheduled time. The job id names that scheduled time, so
 * workers starting together add one sweep (and the sweep is idempotent anyway).
 */
import type { Queue } from 'bullmq';
import { z } from 'zod';
import type { PaymentGateway } from '@nh/server/payments';
import { dueSubscriptionPages, findPlansWithUnavailableItemsSoon, findSubscriptionsToRemind } from '@nh/server/queries/subscriptions/renewals';
import { findPlansWithCardExpiringSoon, findPlansWithoutCardExpiry } from '@nh/server/queries/subscriptions/card-expiry';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import type { RedisClient } from '@nh/server/runtime/redis';
import { jobId, jobRequest } from '@nh/server/jobs/contract';
import { billingPeriodOf, SUBSCRIPTION_HEADS_UP_DAYS } from '@nh/shared/contracts/subscriptions';
import type { WorkerConfig } from '../lib/config';
import { defineJob } from '../jobs/define';
import { email as renewalReminderJob } from '../emails/renewal-reminder';
import { email as subscriptionCardExpiringJob } from '../emails/subscription-card-expiring';
import { email as subscriptionItemUnavailableJob } from '../emails/subscription-item-unavailable';
import { CARD_EXPIRY_LOOKUPS_PER_SWEEP, CARD_EXPIRY_SWEEP_PRIORITY, recordCardExpiryJob } from './card-expiry';
import { renewSubscriptionJob, RENEWAL_MESSAGES } from './renew';
import { resumeTimedPauses } from './auto-resume';
import { sendPriceNotices } from './price-notices';

/** The daily renewal sweep's hour (UTC); a worker that was down then runs it at start (addMissedSweep). */
export const RENEWAL_SWEEP_HOUR_UTC = 6;

const DAY_MS = 86_400_000;
/**
 * The renew job ids a sweep's result (`jobs`) lists at most, the first ones added; `due` counts them all.
 * The result is kept in Redis with the job: it must not grow with the number of plans due.
 */
export const SWEEP_RESULT_JOB_IDS = 1000;
/** Among the renewals queue's keys: when the last completed sweep started (ms since the epoch). */
const MARKER = 'last-sweep-at';

/** The renewals queue and a Redis connection to its server. */
export interface SweepMarker {
  queue: Queue;
  redis: RedisClient;
}

/** Called by a sweep that completed (with card payments configured, so its renewals were added). */
export async function recordSweep({ queue, redis }: SweepMarker, startedAt: Date): Promise<void> {
  await redis.set(queue.toKey(MARKER), String(startedAt.getTime()));
}

export async function lastSweepAt({ queue, redis }: SweepMarker): Promise<Date | null> {
  const value = await redis.get(queue.toKey(MARKER));
  return value ? new Date(Number(value)) : null;
}

/** The latest scheduled sweep time at or before `now`. */
export function lastScheduledSweep(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), RENEWAL_SWEEP_HOUR_UTC);
  return new Date(today <= now.getTime() ? today : today - DAY_MS);
}

export interface RenewalSweepDeps {
  db: Db;
  gateway: PaymentGateway | null;
  /** Where the sweep adds renew jobs (renewals) and renewal reminders (emails). */
  queues: { renewals: Queue; emails: Queue };
  /** Where a completed sweep leaves its marker (the renewals queue's Redis). */
  redis: RedisClient;
  config: WorkerConfig;
  log: Logger;
}

export interface SweepResult {
  /** Plans paused for a number of deliveries resumed because their day came (auto-resume.ts). */
  resumed: string[];
  due: number;
  /** Ids of the renew jobs asked for (an id that already exists is not added again). */
  jobs: string[];
  /** Ids of the renewal-reminder email jobs asked for (likewise). */
  reminders: string[];
  /** Ids of the heads-up email jobs asked for (an item unavailable a few days ahead; likewise). */
  headsUps: string[];
  /** Ids of the card heads-up email jobs asked for (the stored card expires before the billing date a few days ahead; likewise). */
  cardHeadsUps: string[];
  /** Ids of the card expiry lookups asked for (stored cards whose expiry is not known; none without payments). */
  cardLookups: string[];
}

export function createRenewalSweep({ db, gateway, queues, redis, config, log }: RenewalSweepDeps) {
  /**
   * A page of due plans at a time (keyset-paged), each page's renew jobs added before the next page is
   * read: the sweep's memory and each Redis round trip stay the same however many plans are due, and
   * the worker starts charging the first page while the sweep reads on.
   */
  async function addRenewJobs(jobLog: Logger): Promise<Pick<SweepResult, 'due' | 'jobs'>> {
    let due = 0;
    const listed: string[] = [];
    for await (const page of dueSubscriptionPages(db.$client)) {
      due += page.length;
      if (!gateway) continue;
      const jobs = page.map((s) => {
        const period = billingPeriodOf(s.nextBillingDate);
        return jobRequest(renewSubscriptionJob, { subscriptionId: s.id, period }, config, renewSubscriptionJob.jobId(s.id, period, s.failedAttempts));
      });
      await queues.renewals.addBulk(jobs);
      for (const job of jobs) if (listed.length < SWEEP_RESULT_JOB_IDS) listed.push(job.opts.jobId);
    }
    if (!gateway) {
      jobLog.error({ due }, `renewal sweep: ${RENEWAL_MESSAGES.notConfigured}; no subscription renewed`);
      return { due, jobs: [] };
    }
    jobLog.info({ due }, 'renewal sweep: renew jobs added');
    return { due, jobs: listed };
  }

  /**
   * Reminders go out whether or not the gateway is configured: a reminder for a charge that a
   * misconfiguration then delays is harmless, a charge without the promised reminder is not.
   */
  async function addReminderJobs(jobLog: Logger): Promise<string[]> {
    const upcoming = await findSubscriptionsToRemind(db.$client);
    const jobs = upcoming.map((s) => {
      const period = billingPeriodOf(s.nextBillingDate);
      return jobRequest(renewalReminderJob, { subscriptionId: s.id, period, cadences: config.PLAN_CADENCE_MONTHS }, config, renewalReminderJob.jobId(s.id, period));
    });
    if (jobs.length > 0) await queues.emails.addBulk(jobs);
    jobLog.info({ reminders: jobs.length }, 'renewal sweep: reminder jobs added');
    return jobs.map((j) => j.opts.jobId);
  }

  /**
   * Heads-ups: the plans billed in the next SUBSCRIPTION_HEADS_UP_DAYS days (tomorrow onwards) whose
   * items could not ship today. Each is found by the sweep of every day up to its billing date; the job
   * id and the email_log subject keep it to one email per plan and period, and the email re-checks
   * when it sends (items back, plan paused, date moved: nothing is sent).
   */
  async function addHeadsUpJobs(jobLog: Logger): Promise<string[]> {
    const atRisk = await findPlansWithUnavailableItemsSoon(db.$client, SUBSCRIPTION_HEADS_UP_DAYS);
    const jobs = atRisk.map((s) => {
      const period = billingPeriodOf(s.nextBillingDate);
      return jobRequest(subscriptionItemUnavailableJob, { subscriptionId: s.id, period }, config, subscriptionItemUnavailableJob.jobId(s.id, period));
    });
    if (jobs.length > 0) await queues.emails.addBulk(jobs);
    jobLog.info({ headsUps: jobs.length }, 'renewal sweep: heads-up jobs added');
    return jobs.map((j) => j.opts.jobId);
  }

  /**
   * Card heads-ups: the plans billed in the next SUBSCRIPTION_HEADS_UP_DAYS days (tomorrow onwards) whose
   * stored card expires before their billing date. One email per plan and card (job id and email_log
   * subject), re-checked when it sends (another card, a date the card is good for, plan paused: none).
   */
  async function addCardHeadsUpJobs(jobLog: Logger): Promise<string[]> {
    const expiring = await findPlansWithCardExpiringSoon(db.$client, SUBSCRIPTION_HEADS_UP_DAYS);
    const jobs = expiring.map((s) =>
      jobRequest(subscriptionCardExpiringJob, { subscriptionId: s.id, paymentProfileId: s.paymentProfileId }, config, subscriptionCardExpiringJob.jobId(s.id, s.paymentProfileId)),
    );
    if (jobs.length > 0) await queues.emails.addBulk(jobs);
    jobLog.info({ cardHeadsUps: jobs.length }, 'renewal sweep: card heads-up jobs added');
    return jobs.map((j) => j.opts.jobId);
  }

  /**
   * Stored cards whose expiry is not known (active plans, soonest billing first, at most
   * CARD_EXPIRY_LOOKUPS_PER_SWEEP): one lookup each per UTC day, with a priority, so every renew job
   * (none has one) runs first. Only with a gateway to ask.
   */
  async function addCardLookups(jobLog: Logger, startedAt: Date): Promise<string[]> {
    if (!gateway) return [];
    const unknown = await findPlansWithoutCardExpiry(db.$client, CARD_EXPIRY_LOOKUPS_PER_SWEEP);
    const day = startedAt.toISOString().slice(0, 10);
    const jobs = unknown.map((s) => {
      const request = jobRequest(recordCardExpiryJob, { subscriptionId: s.id }, config, recordCardExpiryJob.jobId(s.id, day));
      return { ...request, opts: { ...request.opts, priority: CARD_EXPIRY_SWEEP_PRIORITY } };
    });
    if (jobs.length > 0) await queues.renewals.addBulk(jobs);
    jobLog.info({ cardLookups: jobs.length }, 'renewal sweep: card expiry lookups added');
    return jobs.map((j) => j.opts.jobId);
  }

  // Renew jobs first: a Redis failure while adding reminders must not hold up a charge that is due.
  // A sweep that renewed (payments configured) leaves its marker: a worker starting later knows it ran.
  return async function renewalSweep(job: { id?: string; name: string }): Promise<SweepResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'renewals', job: job.name });
    const startedAt = new Date();
    // Timed pauses that end today first: their plans are due today, so the renew jobs below include them.
    const resumed = await resumeTimedPauses(db, jobLog);
    const renewals = await addRenewJobs(jobLog);
    const result = {
      resumed,
      ...renewals,
      reminders: await addReminderJobs(jobLog),
      headsUps: await addHeadsUpJobs(jobLog),
      cardHeadsUps: await addCardHeadsUpJobs(jobLog),
      cardLookups: await addCardLookups(jobLog, startedAt),
      // Consent on record (issue 22): a plan whose price rose is told before the first charge at it.
      // Counts only: a catalogue price change may notify every plan at once (the job's result stays small).
      priceNotices: await sendPriceNotices(db, jobLog).then(({ noticed, dropped }) => ({ noticed: noticed.length, dropped: dropped.length })),
    };
    if (gateway) await recordSweep({ queue: queues.renewals, redis }, startedAt);
    return result;
  };
}

export const renewalSweepJob = defineJob({
  name: 'renewal-sweep',
  queue: 'renewals',
  payload: z.object({}).passthrough(),
  /** Daily at 06:00 UTC; the sweep catches up on everything due on or before now. */
  schedule: { id: 'renewals-daily', pattern: `0 ${RENEWAL_SWEEP_HOUR_UTC} * * *` },
  /** The one sweep added at worker start for a scheduled run that was missed (named by its time, to the hour). */
  jobId: (scheduledAt: Date) => jobId('missed', 'renewals-daily', scheduledAt.toISOString().slice(0, 13)),
  handler: createRenewalSweep,
});

/** At worker start: one sweep now if the last scheduled one did not complete. Answers its job id, or null. */
export async function addMissedSweep(marker: SweepMarker, now = new Date()): Promise<string | null> {
  const scheduledAt = lastScheduledSweep(now);
  const last = await lastSweepAt(marker);
  if (last && last >= scheduledAt) return null;
  const job = await marker.queue.add(renewalSweepJob.name, {}, { jobId: renewalSweepJob.jobId(scheduledAt) });
  return job.id!;
}
