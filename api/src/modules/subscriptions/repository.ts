/**
 * The shopper's own subscriptions: the page view (GET /api/subscriptions), the cancel call and
 * resuming a paused plan. Every query is scoped to the signed-in user, so another user's subscription
 * reads as not found.
 */
import type pg from 'pg';
import type { SkippedPeriod, SubscriptionInterval, SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import { OUTBOX_CHANNEL, outboxInsert, outboxNotify, outboxParam, type Address, type LineItem } from '@nh/server';
import type { StoredPaymentProfile } from '@nh/server/payments/index';

export interface SubscriptionRow {
  id: string;
  status: SubscriptionStatus;
  created_at: Date;
  items: LineItem[];
  amount: string;
  discount_percent: number;
  interval: SubscriptionInterval;
  interval_count: number;
  next_billing_date: Date;
  cancelled_at: Date | null;
  card_type: string | null;
  card_last_four: string | null;
  skipped_periods: SkippedPeriod[];
}

/**
 * The page view's columns of `s`, with the card of its latest approved payment (`card`) and its
 * skipped periods, oldest first, as one JSON array (`skipped`).
 */
const VIEW_COLUMNS = `s.id, s.status, s.created_at, s.items, s.amount::text as amount, s.discount_percent, s.interval, s.interval_count,
  s.next_billing_date, s.cancelled_at, card.card_type, card.card_last_four, skipped.skipped_periods`;
const VIEW_JOINS = `left join lateral (
    select p.card_type, p.card_last_four from payment_transactions p
    where p.subscription_id = s.id and p.status = 'approved' order by p.created_at desc limit 1) card on true
  cross join lateral (
    select coalesce(json_agg(json_build_object('period', k.billing_period, 'reason', k.reason) order by k.billing_period), '[]') as skipped_periods
    from subscription_skipped_periods k where k.subscription_id = s.id) skipped`;

/** The user's subscriptions, newest first. */
export async function listSubscriptions(db: pg.Pool, userId: string): Promise<SubscriptionRow[]> {
  const { rows } = await db.query<SubscriptionRow>({
    name: 'subscriptions_list',
    text: `select ${VIEW_COLUMNS} from subscriptions s ${VIEW_JOINS} where s.user_id = $1 order by s.created_at desc, s.id desc`,
    values: [userId],
  });
  return rows;
}

export type CancelOutcome = { kind: 'cancelled'; row: SubscriptionRow } | { kind: 'ended' } | { kind: 'not-found' };

/**
 * Cancels the user's subscription while it is active or paused, as one conditional update: a renewal
 * holding the row waits us out (or we wait for it), and the status is judged on the row as it is
 * then, never on an earlier read. When nothing was updated, the row as read tells "ended" from
 * "not found" (not the user's, or no such id).
 */
export async function cancelSubscription(db: pg.Pool, id: string, userId: string): Promise<CancelOutcome> {
  const { rows } = await db.query<SubscriptionRow & { cancelled: boolean }>({
    name: 'subscriptions_cancel',
    text: `with upd as (
        update subscriptions set status = 'cancelled', cancelled_at = now(), updated_at = now()
        where id = $1 and user_id = $2 and status in ('active', 'paused') returning *)
      select true as cancelled, ${VIEW_COLUMNS} from upd s ${VIEW_JOINS}
      union all
      select false, ${VIEW_COLUMNS} from subscriptions s ${VIEW_JOINS} where s.id = $1 and s.user_id = $2 and not exists (select 1 from upd)`,
    values: [id, userId],
  });
  const row = rows[0];
  if (!row) return { kind: 'not-found' };
  return row.cancelled ? { kind: 'cancelled', row } : { kind: 'ended' };
}

/** What resuming needs of a plan before it stores a card: who to bill, and the due date it stays on. */
export interface PlanToResume {
  status: SubscriptionStatus;
  customer_name: string;
  customer_email: string;
  shipping_address: Address | null;
  items: LineItem[];
  next_billing_date: Date;
}

export async function findPlanToResume(db: pg.Pool, id: string, userId: string): Promise<PlanToResume | null> {
  const { rows } = await db.query<PlanToResume>({
    name: 'subscriptions_find_to_resume',
    text: 'select status, customer_name, customer_email, shipping_address, items, next_billing_date from subscriptions where id = $1 and user_id = $2',
    values: [id, userId],
  });
  return rows[0] ?? null;
}

export interface Resumption {
  id: string;
  userId: string;
  /** The new card's stored profile. */
  profile: StoredPaymentProfile;
  /** The billing period (yyyy-MM-dd, UTC) of the due date read before the card was stored: the unpaid one. */
  period: string;
}

const DAY_MS = 86_400_000;

export type ResumeOutcome = { kind: 'resumed'; row: SubscriptionRow } | { kind: 'not-paused' } | { kind: 'changed' } | { kind: 'not-found' };

/**
 * Resumes the user's paused plan with a new card as one statement: the new profile ids, active again
 * with a clean dunning slate (failed attempts 0, no retry time), the billing date left on the unpaid
 * period, and the `subscription.resumed` outbox row (its NOTIFY wakes the relay, which adds the
 * renewal at once). Conditional on the row as it is then: still the user's, still paused, still on
 * the billing period read before the card was stored (its due date within that UTC day). When nothing
 * was updated, the row as read tells why.
 */
export async function resumeSubscription(db: pg.Pool, r: Resumption): Promise<ResumeOutcome> {
  const payload = outboxParam([{ topic: 'subscription.resumed', payload: { subscriptionId: r.id, period: r.period } }]);
  const periodStart = new Date(`${r.period}T00:00:00.000Z`);
  const { rows } = await db.query<SubscriptionRow & { resumed: boolean }>({
    name: 'subscriptions_resume',
    text: `with upd as (
        update subscriptions set authnet_customer_profile_id = $3, authnet_payment_profile_id = $4, status = 'active',
          failed_attempts = 0, retry_at = null, updated_at = now()
        where id = $1 and user_id = $2 and status = 'paused' and next_billing_date >= $5 and next_billing_date < $6 returning *),
      ob as (${outboxInsert('$7', 'exists (select 1 from upd)')})
      select true as resumed, ${VIEW_COLUMNS}, ${outboxNotify('$7', '$8')} as notified from upd s ${VIEW_JOINS}
      union all
      select false, ${VIEW_COLUMNS}, null from subscriptions s ${VIEW_JOINS} where s.id = $1 and s.user_id = $2 and not exists (select 1 from upd)`,
    values: [r.id, r.userId, r.profile.customerProfileId, r.profile.paymentProfileId, periodStart, new Date(periodStart.getTime() + DAY_MS), payload, OUTBOX_CHANNEL],
  });
  const row = rows[0];
  if (!row) return { kind: 'not-found' };
  if (row.resumed) return { kind: 'resumed', row };
  return row.status === 'paused' ? { kind: 'changed' } : { kind: 'not-paused' };
}
