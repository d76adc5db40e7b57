/**
 * The stored card's expiry: looked up with the payment gateway after a card is stored for a plan, and
 * kept on the plan (subscriptions.card_expires_on, the last day of the card's expiry month) for the
 * at-risk list and the sweep's card heads-up (docs/decisions/subscriptions.md, "Card expiry").
 *
 * Never on the shopper's path: subscribing and resuming write the outbox rows they always wrote
 * (`subscription.created` with the plan, `subscription.resumed` with its new card, in the statement
 * that stores the profile ids), and the relay turns those rows into this job as well. So the checkout's
 * and the resume's answers wait for no extra gateway call, and the lookup survives a crash (the outbox
 * row, then the job). A lookup the provider could not answer is retried with the renew job's attempts
 * and backoff; one that still fails, a provider that did not say, and the plans that ran before
 * expiries were kept are looked up again by the daily renewal sweep (CARD_EXPIRY_LOOKUPS_PER_SWEEP a
 * day, soonest billing first, behind every renew job). Until then the expiry is null: not at risk for it.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { cardExpiresOn, type PaymentGateway } from '@nh/server/payments';
import { jobId } from '@nh/server/jobs/contract';
import { findPlanCard, recordCardExpiry } from '@nh/server/queries/subscriptions/card-expiry';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { defineJob } from '../jobs/define';

/** At most this many plans with a card and no known expiry are looked up by one sweep (soonest billing first). */
export const CARD_EXPIRY_LOOKUPS_PER_SWEEP = 200;

/** The sweep's lookups wait behind every job without a priority (renew jobs, relayed lookups): BullMQ runs those first. */
export const CARD_EXPIRY_SWEEP_PRIORITY = 10;

export type CardExpiryResult = { outcome: 'recorded'; cardExpiresOn: string } | { outcome: 'skipped'; reason: string };

export const CARD_EXPIRY_MESSAGES = {
  notConfigured: 'card payments are not configured',
  notFound: 'subscription not found',
  noCard: 'there is no stored card for this subscription',
  ended: 'the subscription has ended',
  known: 'the expiry of this card is known already',
  notSaid: 'the payment service did not say when the card expires',
  otherCard: 'the plan has another card now',
} as const;

/**
 * Looks the plan's stored card's expiry up and records it, while that card is still the plan's.
 * Throws when the gateway could not be asked (the job is retried).
 */
export async function lookUpCardExpiry({ db, gateway, log }: { db: Db; gateway: PaymentGateway | null; log: Logger }, subscriptionId: string): Promise<CardExpiryResult> {
  const skipped = (reason: string): CardExpiryResult => ({ outcome: 'skipped', reason });
  if (!gateway) return skipped(CARD_EXPIRY_MESSAGES.notConfigured);
  const plan = await findPlanCard(db.$client, subscriptionId);
  if (!plan) return skipped(CARD_EXPIRY_MESSAGES.notFound);
  if (!plan.profile) return skipped(CARD_EXPIRY_MESSAGES.noCard);
  if (plan.status === 'cancelled' || plan.status === 'expired') return skipped(CARD_EXPIRY_MESSAGES.ended);
  // A new card (a resume) forgets the old card's expiry, so a known one is this card's.
  if (plan.cardExpiresOn) return skipped(CARD_EXPIRY_MESSAGES.known);

  const expiry = await gateway.storedCardExpiry(plan.profile);
  if (!expiry) {
    log.warn({ subscriptionId }, 'card expiry lookup: the payment service did not say; the sweep asks again another day');
    return skipped(CARD_EXPIRY_MESSAGES.notSaid);
  }
  const expiresOn = cardExpiresOn(expiry);
  if (!(await recordCardExpiry(db.$client, subscriptionId, plan.profile, expiresOn))) return skipped(CARD_EXPIRY_MESSAGES.otherCard);
  log.info({ subscriptionId, cardExpiresOn: expiresOn }, 'card expiry recorded');
  return { outcome: 'recorded', cardExpiresOn: expiresOn };
}

export const recordCardExpiryJob = defineJob({
  name: 'record-card-expiry',
  queue: 'renewals',
  payload: z.object({ subscriptionId: z.string().uuid() }),
  // As the renew job: a provider that did not answer is asked again a little later.
  options: (config) => ({ attempts: config.RENEWAL_JOB_ATTEMPTS, backoff: { type: 'exponential', delay: config.RENEWAL_JOB_BACKOFF_MS } }),
  // A card was stored for the plan: at checkout (the plan is created with it), by a resume with a new card,
  // or by a change on My Subscriptions (a new card forgets the old one's expiry; any other change finds
  // the expiry known and asks nothing).
  topics: {
    [OUTBOX_TOPICS.subscriptionCreated]: ({ subscriptionId }) => ({ subscriptionId }),
    [OUTBOX_TOPICS.subscriptionResumed]: ({ subscriptionId }) => ({ subscriptionId }),
    [OUTBOX_TOPICS.subscriptionChanged]: ({ subscriptionId }) => ({ subscriptionId }),
  },
  /** The sweep's lookup: one per plan and UTC day (a second sweep that day adds nothing). */
  jobId: (subscriptionId: string, day: string) => jobId('card-expiry', subscriptionId, day),
  handler: ({ db, gateway, log }) =>
    async function recordExpiry(job, { subscriptionId }): Promise<CardExpiryResult> {
      const jobLog = log.child({ jobId: job.id, queue: 'renewals', job: job.name, subscriptionId });
      return lookUpCardExpiry({ db, gateway, log: jobLog }, subscriptionId);
    },
});
