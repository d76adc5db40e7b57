/**
 * The shopper's plans (the API's My Subscriptions): the page view of one plan or of all the user's, and
 * resuming a paused plan with a new card. Cancelling and the other changes are plan changes (changes.ts).
 *
 * Hand-tuned SQL through the pool: the page view and resume are single statements with named prepared
 * statements.
 */
import type pg from 'pg';
import type { SkippedPeriod } from '@nh/shared/contracts/subscriptions';
import type { SubscriptionRow } from '../../db/schema';
import type { StoredPaymentProfile } from '../../payments/gateway';
import { OUTBOX_CHANNEL, outboxInsert, outboxNotify, outboxParam } from '../outbox';
import { paymentInFlightSql } from '../payment-in-flight';
import { DAY_MS, PLAN_CARD_COLUMNS, PLAN_CARD_JOIN, TODAY_SQL } from './plan';
import { CADENCE_HISTORY_COLUMNS, CADENCE_HISTORY_JOIN, LAST_PAUSE_COLUMNS, LAST_PAUSE_JOIN, type CadenceHistoryRow } from './plan-history';
import { ONE_TIME_ITEMS_JOIN, SHIP_NOW_JOIN, type ShipNowRow } from './ship-now';
import type { OneTimeItem } from '@nh/shared/contracts/ship-now-add-ons';

/** A plan as the page view reads it (snake_case, as the statement answers), its column types from the schema. */
export interface SubscriptionViewRow extends CadenceHistoryRow {
  id: SubscriptionRow['id'];
  status: SubscriptionRow['status'];
  created_at: SubscriptionRow['createdAt'];
  items: SubscriptionRow['items'];
  /** numeric as text (`amount::text`). */
  amount: string;
  /** Consent on record (issue 22): the price agreed or notified (numeric as text), its first day, the price before it. */
  agreed_amount: string | null;
  agreed_amount_from: string | null;
  prior_agreed_amount: string | null;
  discount_percent: SubscriptionRow['discountPercent'];
  interval: SubscriptionRow['interval'];
  interval_count: SubscriptionRow['intervalCount'];
  next_billing_date: SubscriptionRow['nextBillingDate'];
  cancelled_at: SubscriptionRow['cancelledAt'];
  failed_attempts: SubscriptionRow['failedAttempts'];
  card_type: string | null;
  card_last_four: string | null;
  has_stored_card: boolean;
  /** yyyy-MM-dd, UTC, by the database's clock. */
  today: string;
  skipped_periods: SkippedPeriod[];
  /** The period's charge is pending with the payment service's answer held or lost: staff check it (payment-in-flight.ts). */
  period_charge_unsettled: boolean;
  shipping_address: SubscriptionRow['shippingAddress'];
  /** yyyy-MM-dd: a plan paused for a number of deliveries resumes that day (null: open-ended, or not paused). */
  resumes_on: SubscriptionRow['resumesOn'];
  /** Who paused the plan last (plan-history.ts LAST_PAUSE_JOIN): staff with their reason, or its shopper. */
  paused_by: 'staff' | 'customer' | null;
  pause_reason: string | null;
  /** One-time add-ons with today's prices (ship-now.ts ONE_TIME_ITEMS_JOIN). */
  one_time_items: OneTimeItem[];
  /** The latest ship-now asked within a day (ship-now.ts SHIP_NOW_JOIN), null when none. */
  ship_now: ShipNowRow | null;
}

/**
 * The page view's columns of `s`, with its card (PLAN_CARD_COLUMNS), its skipped periods, oldest first,
 * as one JSON array (`skipped`), and today (UTC, the database's clock) for the days its next delivery
 * may move to.
 */
const VIEW_COLUMNS = `s.id, s.status, s.created_at, s.items, s.amount::text as amount,
  s.agreed_amount::text as agreed_amount, to_char(s.agreed_amount_from, 'YYYY-MM-DD') as agreed_amount_from, s.prior_agreed_amount::text as prior_agreed_amount, s.discount_percent, s.interval, s.interval_count,
  s.next_billing_date, s.cancelled_at, s.failed_attempts, s.shipping_address, ${PLAN_CARD_COLUMNS},
  (s.authnet_customer_profile_id is not null and s.authnet_payment_profile_id is not null) as has_stored_card,
  ${TODAY_SQL} as today, skipped.skipped_periods,
  exists (select 1 from payment_transactions p where p.subscription_id = s.id and p.kind = 'charge'
    and p.billing_period = to_char(s.next_billing_date at time zone 'UTC', 'YYYY-MM-DD') and p.status = 'pending' and not ${paymentInFlightSql('p')}) as period_charge_unsettled,
  to_char(s.resumes_on, 'YYYY-MM-DD') as resumes_on, ${LAST_PAUSE_COLUMNS}, ${CADENCE_HISTORY_COLUMNS}, one_time.one_time_items, ship_now.ship_now`;
const VIEW_JOINS = `${PLAN_CARD_JOIN}
  cross join lateral (
    select coalesce(json_agg(json_build_object('period', k.billing_period, 'reason', k.reason) order by k.billing_period), '[]') as skipped_periods
    from subscription_skipped_periods k where k.subscription_id = s.id) skipped
  ${LAST_PAUSE_JOIN}
  ${CADENCE_HISTORY_JOIN}
  ${ONE_TIME_ITEMS_JOIN}
  ${SHIP_NOW_JOIN}`;

/** One of the user's subscriptions as the page shows it (null: not theirs, or unknown). */
export async function findSubscriptionView(db: pg.Pool, id: string, userId: string): Promise<SubscriptionViewRow | null> {
  const { rows } = await db.query<SubscriptionViewRow>({
    name: 'subscriptions_view_one',
    text: `select ${VIEW_COLUMNS} from subscriptions s ${VIEW_JOINS} where s.id = $1 and s.user_id = $2`,
    values: [id, userId],
  });
  return rows[0] ?? null;
}

/** The user's subscriptions, newest first. */
export async function listSubscriptions(db: pg.Pool, userId: string): Promise<SubscriptionViewRow[]> {
  const { rows } = await db.query<SubscriptionViewRow>({
    name: 'subscriptions_list',
    text: `select ${VIEW_COLUMNS} from subscriptions s ${VIEW_JOINS} where s.user_id = $1 order by s.created_at desc, s.id desc`,
    values: [userId],
  });
  return rows;
}

/** What resuming needs of a plan before it stores a card: who to bill, and the due date it stays on. */
export interface PlanToResume {
  status: SubscriptionRow['status'];
  customer_name: SubscriptionRow['customerName'];
  customer_email: SubscriptionRow['customerEmail'];
  shipping_address: SubscriptionRow['shippingAddress'];
  items: SubscriptionRow['items'];
  next_billing_date: SubscriptionRow['nextBillingDate'];
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
  /** The new card's brand and last four, as the provider answered them (shown until a paid renewal shows it). */
  cardType: string | null;
  cardLastFour: string | null;
}


export type ResumeOutcome = { kind: 'resumed'; row: SubscriptionViewRow } | { kind: 'not-paused' } | { kind: 'changed' } | { kind: 'not-found' };

/**
 * Resumes the user's paused plan with a new card as one statement: the new profile ids (the old card's
 * expiry forgotten: the workers look the new one up), active again
 * with a clean dunning slate (failed attempts 0, no retry time), the billing date left on the unpaid
 * period, and the `subscription.resumed` outbox row (its NOTIFY wakes the relay, which adds the
 * renewal at once), and the change in the plan's history (subscription_changes, as the shopper's). Conditional on the row as it is then: still the user's, still paused, still on
 * the billing period read before the card was stored (its due date within that UTC day). When nothing
 * was updated, the row as read tells why.
 */
export async function resumeSubscription(db: pg.Pool, r: Resumption): Promise<ResumeOutcome> {
  const payload = outboxParam([{ topic: 'subscription.resumed', payload: { subscriptionId: r.id, period: r.period } }]);
  const periodStart = new Date(`${r.period}T00:00:00.000Z`);
  const { rows } = await db.query<SubscriptionViewRow & { resumed: boolean }>({
    name: 'subscriptions_resume',
    text: `with upd as (
        update subscriptions set authnet_customer_profile_id = $3, authnet_payment_profile_id = $4, card_expires_on = null, card_type = $9, card_last_four = $10, status = 'active', resumes_on = null,
          failed_attempts = 0, retry_at = null, updated_at = now()
        where id = $1 and user_id = $2 and status = 'paused' and next_billing_date >= $5 and next_billing_date < $6 returning *),
      ob as (${outboxInsert('$7', 'exists (select 1 from upd)')}),
      ch as (insert into subscription_changes (subscription_id, actor, kind, before, after)
        select id, 'customer', 'resumed', '{"status":"paused"}'::jsonb, jsonb_build_object('status', 'active', 'cardLastFour', $10::text) from upd)
      select true as resumed, ${VIEW_COLUMNS}, ${outboxNotify('$7', '$8')} as notified from upd s ${VIEW_JOINS}
      union all
      select false, ${VIEW_COLUMNS}, null from subscriptions s ${VIEW_JOINS} where s.id = $1 and s.user_id = $2 and not exists (select 1 from upd)`,
    values: [
      r.id,
      r.userId,
      r.profile.customerProfileId,
      r.profile.paymentProfileId,
      periodStart,
      new Date(periodStart.getTime() + DAY_MS),
      payload,
      OUTBOX_CHANNEL,
      r.cardLastFour ? r.cardType : null,
      r.cardLastFour,
    ],
  });
  const row = rows[0];
  if (!row) return { kind: 'not-found' };
  if (row.resumed) return { kind: 'resumed', row };
  return row.status === 'paused' ? { kind: 'changed' } : { kind: 'not-paused' };
}
