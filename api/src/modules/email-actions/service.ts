/**
 * One-click actions from emails (issue 22): GET and POST /api/email-actions/{token}, no sign-in needed;
 * the token in the path is the credential (only its SHA-256 is stored: @nh/server email-actions queries).
 * The view changes nothing (link scanners and previews follow links with GET/HEAD). Confirming goes
 * through the very service the signed-in shopper uses (skipDelivery, moveDelivery, shipNow,
 * changeFrequency, cancel: each changeLockedPlan on the plan row), with a ChangeSource that judges the
 * locked plan first (the link's delivery must still be the plan's next: else 410 stale, nothing written),
 * spends the link in the change's own transaction and records the change as the customer's "via email link".
 * docs/decisions/subscriptions.md ("One-click actions from emails").
 */
import { createHash } from 'node:crypto';
import {
  EMAIL_ACTION_DELAY_DAYS,
  EMAIL_ACTION_MESSAGES as MSG,
  EMAIL_ACTIONS,
  emailActionLabel,
  type EmailAction,
  type EmailActionRequest,
  type EmailActionResult,
  type EmailActionView,
} from '@nh/shared/contracts/email-actions';
import { billingPeriodOf, cadenceWords, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { formatUtcDay } from '@nh/shared/days';
import { formatCents, toCents } from '@nh/shared/money';
import type { Db } from '@nh/server/db/client';
import type { SubscriptionRow } from '@nh/server/db/schema';
import { findEmailActionToken, type EmailActionTokenWithPlan } from '@nh/server/queries/subscriptions/email-actions';
import { hashSingleUseToken, spendSingleUseLink } from '@nh/server/queries/single-use-tokens';
import { AppError } from '../../lib/errors';
import { shipNow } from '../subscriptions/add-ons';
import type { ChangeSource } from '../subscriptions/change-source';
import { changeFrequency, moveDelivery, skipDelivery } from '../subscriptions/changes';
import { cancel } from '../subscriptions/service';

/** A token as a link carries it (base64url, 43 characters); anything else is not a link of ours. */
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;
const DAY_MS = 86_400_000;

const stale = () => new AppError('EMAIL_ACTION_STALE', MSG.stale);

/** The day the plan delivers next (a plan paused for a number of deliveries: the day it resumes). */
function deliveryPeriod(row: Pick<EmailActionTokenWithPlan, 'status' | 'next_billing_date' | 'resumes_on' | 'failed_attempts'>): string {
  return row.status === 'paused' && row.resumes_on && row.failed_attempts === 0 ? row.resumes_on : billingPeriodOf(row.next_billing_date);
}

/** The link's row and plan while it can act: unknown 404, used 410, stale (plan ended, delivery charged, skipped or moved) 410. */
async function openToken(db: Db, token: string): Promise<EmailActionTokenWithPlan & { action: EmailAction }> {
  const row = TOKEN.test(token) ? await findEmailActionToken(db.$client, hashSingleUseToken(token)) : null;
  if (!row || !row.user_id || !(EMAIL_ACTIONS as readonly string[]).includes(row.action))
    throw new AppError('EMAIL_ACTION_INVALID', MSG.invalid);
  if (row.used_at) throw new AppError('EMAIL_ACTION_USED', MSG.used);
  if (row.status === 'cancelled' || row.status === 'expired') throw stale();
  if (row.expires_at.getTime() <= Date.now() || deliveryPeriod(row) !== row.billing_period) throw stale();
  return row as EmailActionTokenWithPlan & { action: EmailAction };
}

/** The day a "delay two weeks" moves the delivery to. */
const delayedDay = (period: string) =>
  new Date(Date.parse(`${period}T00:00:00.000Z`) + EMAIL_ACTION_DELAY_DAYS * DAY_MS).toISOString().slice(0, 10);

const dayWords = (period: string) => formatUtcDay(new Date(`${period}T00:00:00.000Z`));

/** What confirming does, in a sentence (the page shows it above the button). */
function effectOf(row: EmailActionTokenWithPlan, action: EmailAction): string {
  const day = dayWords(row.billing_period);
  switch (action) {
    case 'skip':
      return `Your delivery of ${day} will be skipped: nothing is sent or charged for it, and your plan carries on with the delivery after.`;
    case 'delay':
      return `Your delivery of ${day} moves two weeks later, to ${dayWords(delayedDay(row.billing_period))}, and is charged that day instead.`;
    case 'ship-now':
      return `We charge ${formatCents(toCents(row.amount))} (plus any one-time items) to your saved card now and ship this delivery straight away instead of on ${day}.`;
    case 'cadence':
      return `Your plan will deliver ${cadenceWords('monthly', row.interval_count).toLowerCase()} instead of ${cadenceWords(row.plan_interval, row.plan_interval_count).toLowerCase()}; the next delivery date is worked out from your last one.`;
    case 'cancel':
      return 'Your subscription is cancelled at once: no more deliveries and no more charges. A delivery already charged still ships.';
  }
}

/** GET /api/email-actions/{token}: what the link would do. Changes nothing. */
export async function viewEmailAction(db: Db, token: string): Promise<EmailActionView> {
  const row = await openToken(db, token);
  return {
    action: row.action,
    label: emailActionLabel(row.action, row.interval_count),
    effect: effectOf(row, row.action),
    productNames: row.items.map((i) => (i.quantity > 1 ? `${i.productName} × ${i.quantity}` : i.productName)),
    amount: row.amount,
    interval: row.plan_interval,
    intervalCount: row.plan_interval_count,
    status: row.status,
    deliveryDate: row.next_billing_date.toISOString(),
    newIntervalCount: row.action === 'cadence' ? row.interval_count : null,
  };
}

/** The ship-now's idempotency key of a link: derived on the server from the link's row, so a double confirm charges once. */
const shipNowKeyOf = (tokenId: string) => createHash('sha256').update(`email-action:${tokenId}`).digest('hex');

/** POST /api/email-actions/{token}: does the link's action as the plan's customer would on My Subscriptions. */
export async function performEmailAction(
  db: Db,
  offered: readonly number[],
  token: string,
  input: EmailActionRequest,
): Promise<EmailActionResult> {
  const row = await openToken(db, token);
  const userId = row.user_id!;
  const id = row.subscription_id;
  const source: ChangeSource = {
    via: 'email-link',
    // Judged again under the plan's lock: a renewal or another change since the read above makes the link stale.
    check: (plan: SubscriptionRow) => {
      if (plan.status === 'cancelled' || plan.status === 'expired') throw stale();
      if (
        deliveryPeriod({
          status: plan.status,
          next_billing_date: plan.nextBillingDate,
          resumes_on: plan.resumesOn,
          failed_attempts: plan.failedAttempts,
        }) !== row.billing_period
      )
        throw stale();
    },
    spend: async (tx) => {
      if (!(await spendSingleUseLink(tx, 'email_action_tokens', row.id))) throw new AppError('EMAIL_ACTION_USED', MSG.used);
    },
  };
  const done = (view: SubscriptionView, words: string): EmailActionResult => ({
    action: row.action,
    done: words,
    status: view.status,
    nextBillingDate: view.nextBillingDate,
  });
  const day = dayWords(row.billing_period);
  switch (row.action) {
    case 'skip':
      return done(await skipDelivery(db, userId, id, row.billing_period, source), `Your delivery of ${day} is skipped.`);
    case 'delay': {
      const to = delayedDay(row.billing_period);
      return done(await moveDelivery(db, userId, id, to, source), `Your delivery moved to ${dayWords(to)}.`);
    }
    case 'ship-now':
      return done(
        await shipNow(db, userId, id, shipNowKeyOf(row.id), source),
        'Your delivery is being charged and will ship straight away.',
      );
    case 'cadence':
      return done(
        await changeFrequency(db, userId, id, row.interval_count, offered, source),
        `Your plan now delivers ${cadenceWords('monthly', row.interval_count).toLowerCase()}.`,
      );
    case 'cancel':
      return done(
        await cancel(
          db,
          userId,
          id,
          { ...(input.reason ? { reason: input.reason } : {}), ...(input.comment ? { comment: input.comment } : {}) },
          source,
        ),
        'Your subscription is cancelled.',
      );
  }
}
