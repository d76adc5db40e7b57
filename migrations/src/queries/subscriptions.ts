/**
 * The subscriptions aggregate: the shopper's own plans (the API's My Subscriptions: list, resume with
 * a new card; cancelling is a plan change, changeLockedPlan) and the renewals' reads and writes on the
 * plan row (the workers' sweep and renewal job). The renewal's payment rows and its one-statement
 * outcomes are in payments.ts, its pending order in orders.ts.
 *
 * Hand-tuned SQL through the pool: the page view and resume are single statements with named prepared
 * statements; the renewal's statements run under the plan's row lock. The clock is the database's (the
 * sweep and the job agree whichever host runs them).
 *
 * The back office (api admin/subscriptions): the plan table, a plan's billing history, the at-risk list
 * (with the renewal sweep's heads-up, which shares its "items unavailable" rule), and the plan row
 * locked FOR UPDATE for a staff action — the same lock the renewal takes, so the two never both apply.
 *
 * The stored card's expiry (card_expires_on): written by the workers after a card is stored (never on
 * the checkout's or the resume's path), only while that card is still the plan's; read by the at-risk
 * list and the sweep's card heads-up.
 */
import { and, asc, count, desc, eq, gte, ilike, isNotNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import { toCents } from '@nh/shared/money';
import type { AtRiskReason, UnavailableItem } from '@nh/shared/contracts/admin-subscriptions';
import { billingPeriodOf, INTERVAL_MONTHS, RENEWAL_REMINDER_DAYS, type SkippedPeriod, type SkippedPeriodReason, type SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import type { DbOrTx } from '../db/client';
import { orders, paymentTransactions, subscriptions, subscriptionSkippedPeriods, type SubscriptionRow } from '../db/schema';
import type { StoredPaymentProfile } from '../payments/gateway';
import { OUTBOX_CHANNEL, outboxInsert, outboxNotify, outboxParam } from './outbox';
import { paymentInFlightSql } from './payment-in-flight';
import { escapeLike } from './search';

type Queryable = pg.Pool | pg.PoolClient;

// ---- The renewal clock (SQL, so the database's clock decides) ----

/** Today (yyyy-MM-dd, UTC) by the database's clock: the day every plan rule and screen reads. */
export const TODAY_SQL = `to_char(now() at time zone 'UTC', 'YYYY-MM-DD')`;

/**
 * A billing date is a day: a subscription is due on its billing day (UTC), whatever the time of day it
 * was created, so the 06:00 sweep charges on the date the customer was shown and not a day late. SQL,
 * because the database's clock decides (the sweep and the job agree whichever host runs them).
 */
export const DUE_BEFORE_SQL = `(date_trunc('day', now(), 'UTC') + interval '1 day')`;

/** One interval in SQL months, from the row's `interval` and `interval_count` (INTERVAL_MONTHS). */
const INTERVAL_MONTHS_SQL = `((case "interval" ${Object.entries(INTERVAL_MONTHS)
  .map(([name, months]) => `when '${name}' then ${months}`)
  .join(' ')} end) * interval_count)`;

/**
 * More than one period behind: the billing date after next_billing_date is due too. One step of
 * Postgres month arithmetic on the UTC wall time clamps to the month's end exactly as nextBillingDate.
 */
const BEHIND_SQL = `((next_billing_date at time zone 'UTC') + make_interval(months => ${INTERVAL_MONTHS_SQL})) at time zone 'UTC' < ${DUE_BEFORE_SQL}`;

/**
 * Due for a renewal job: the billing day has come and either no retry is waiting or the plan is more
 * than one period behind (a retry of a period long gone waits for nothing: the catch-up charges the
 * current period). retry_at is always after next_billing_date, so the first test keeps the
 * (status, next_billing_date) index usable.
 */
export const DUE_SQL = `(next_billing_date < ${DUE_BEFORE_SQL} and (retry_at is null or retry_at < ${DUE_BEFORE_SQL} or ${BEHIND_SQL}))`;

/**
 * The UTC day RENEWAL_REMINDER_DAYS ahead, as [start, end) in SQL: a plan billed on that day gets its
 * renewal reminder from today's sweep. Same clock as DUE_BEFORE_SQL.
 */
export const REMINDER_DAY_SQL = {
  from: `(date_trunc('day', now(), 'UTC') + interval '${RENEWAL_REMINDER_DAYS} days')`,
  to: `(date_trunc('day', now(), 'UTC') + interval '${RENEWAL_REMINDER_DAYS + 1} days')`,
};

/** What a failed attempt does to the plan (the workers' rules.ts decides it: dunningStep, pauseNow). */
export type DunningStep =
  /** Try again at the start of the UTC day `retryInDays` days from today (the sweep of that day picks it up). */
  | { failedAttempts: number; retryInDays: number; pause: false }
  /** Retries used up: paused, and the customer is told. */
  | { failedAttempts: number; retryInDays: null; pause: true };

// ---- The shopper's plans (API: My Subscriptions) ----

/** A plan as the page view reads it (snake_case, as the statement answers), its column types from the schema. */
export interface SubscriptionViewRow {
  id: SubscriptionRow['id'];
  status: SubscriptionRow['status'];
  created_at: SubscriptionRow['createdAt'];
  items: SubscriptionRow['items'];
  /** numeric as text (`amount::text`). */
  amount: string;
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
}

/**
 * A plan's card, the one rule My Subscriptions, the back office and the emails follow: the card stored
 * on the plan (the one the shopper last gave on My Subscriptions: subscriptions.card_type,
 * card_last_four, migration 0015), else the card of its latest approved payment (a plan still on the
 * card it was bought with). Columns over `s` and its lateral join `card`.
 */
const PLAN_CARD_COLUMNS = `case when s.card_last_four is not null then s.card_type else card.card_type end as card_type, coalesce(s.card_last_four, card.card_last_four) as card_last_four`;
const PLAN_CARD_JOIN = `left join lateral (
    select p.card_type, p.card_last_four from payment_transactions p
    where p.subscription_id = s.id and p.status = 'approved' order by p.created_at desc limit 1) card on true`;

/** What a person is shown of a plan's card: brand and last four (both null while none is known). */
export interface PlanCardBrand {
  cardType: string | null;
  cardLastFour: string | null;
}

/** The plan's card by the rule above, as staff and emails name it (both null for an unknown plan). */
export async function findPlanCardBrand(db: Queryable, subscriptionId: string): Promise<PlanCardBrand> {
  const { rows } = await db.query<{ card_type: string | null; card_last_four: string | null }>({
    name: 'subscriptions_plan_card_brand',
    text: `select ${PLAN_CARD_COLUMNS} from subscriptions s ${PLAN_CARD_JOIN} where s.id = $1`,
    values: [subscriptionId],
  });
  return { cardType: rows[0]?.card_type ?? null, cardLastFour: rows[0]?.card_last_four ?? null };
}

/**
 * The page view's columns of `s`, with its card (PLAN_CARD_COLUMNS), its skipped periods, oldest first,
 * as one JSON array (`skipped`), and today (UTC, the database's clock) for the days its next delivery
 * may move to.
 */
const VIEW_COLUMNS = `s.id, s.status, s.created_at, s.items, s.amount::text as amount, s.discount_percent, s.interval, s.interval_count,
  s.next_billing_date, s.cancelled_at, s.failed_attempts, ${PLAN_CARD_COLUMNS},
  (s.authnet_customer_profile_id is not null and s.authnet_payment_profile_id is not null) as has_stored_card,
  ${TODAY_SQL} as today, skipped.skipped_periods,
  exists (select 1 from payment_transactions p where p.subscription_id = s.id and p.kind = 'charge'
    and p.billing_period = to_char(s.next_billing_date at time zone 'UTC', 'YYYY-MM-DD') and p.status = 'pending' and not ${paymentInFlightSql('p')}) as period_charge_unsettled`;
const VIEW_JOINS = `${PLAN_CARD_JOIN}
  cross join lateral (
    select coalesce(json_agg(json_build_object('period', k.billing_period, 'reason', k.reason) order by k.billing_period), '[]') as skipped_periods
    from subscription_skipped_periods k where k.subscription_id = s.id) skipped`;

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

const DAY_MS = 86_400_000;

export type ResumeOutcome = { kind: 'resumed'; row: SubscriptionViewRow } | { kind: 'not-paused' } | { kind: 'changed' } | { kind: 'not-found' };

/**
 * Resumes the user's paused plan with a new card as one statement: the new profile ids (the old card's
 * expiry forgotten: the workers look the new one up), active again
 * with a clean dunning slate (failed attempts 0, no retry time), the billing date left on the unpaid
 * period, and the `subscription.resumed` outbox row (its NOTIFY wakes the relay, which adds the
 * renewal at once). Conditional on the row as it is then: still the user's, still paused, still on
 * the billing period read before the card was stored (its due date within that UTC day). When nothing
 * was updated, the row as read tells why.
 */
export async function resumeSubscription(db: pg.Pool, r: Resumption): Promise<ResumeOutcome> {
  const payload = outboxParam([{ topic: 'subscription.resumed', payload: { subscriptionId: r.id, period: r.period } }]);
  const periodStart = new Date(`${r.period}T00:00:00.000Z`);
  const { rows } = await db.query<SubscriptionViewRow & { resumed: boolean }>({
    name: 'subscriptions_resume',
    text: `with upd as (
        update subscriptions set authnet_customer_profile_id = $3, authnet_payment_profile_id = $4, card_expires_on = null, card_type = $9, card_last_four = $10, status = 'active',
          failed_attempts = 0, retry_at = null, updated_at = now()
        where id = $1 and user_id = $2 and status = 'paused' and next_billing_date >= $5 and next_billing_date < $6 returning *),
      ob as (${outboxInsert('$7', 'exists (select 1 from upd)')})
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

// ---- Renewals (workers: the daily sweep and the renewal job, the plan row locked FOR UPDATE) ----

/** The subscription row the renewal locks, its columns as the schema has them, and what the lock read beside it. */
export interface LockedSubscription
  extends Pick<
    SubscriptionRow,
    'id' | 'status' | 'userId' | 'customerEmail' | 'customerName' | 'items' | 'interval' | 'intervalCount' | 'amount' | 'nextBillingDate' | 'shippingAddress' | 'failedAttempts'
  > {
  profile: StoredPaymentProfile | null;
  /** Due on or before today (UTC), counting a pending retry time (DUE_SQL). */
  due: boolean;
  /** The start of tomorrow (UTC) by the database's clock: billing dates before it are due. */
  dueBefore: Date;
}

/** Every active subscription due today or earlier, its retry time (dunning) included (DUE_SQL). */
export async function findDueSubscriptions(db: Queryable): Promise<Array<{ id: string; nextBillingDate: Date; failedAttempts: number }>> {
  const { rows } = await db.query<{ id: string; next_billing_date: Date; failed_attempts: number }>(
    `select id, next_billing_date, failed_attempts from subscriptions
     where status = 'active' and ${DUE_SQL}
     order by next_billing_date, id`,
  );
  return rows.map((r) => ({ id: r.id, nextBillingDate: r.next_billing_date, failedAttempts: r.failed_attempts }));
}

/** Every active subscription billed on the reminder day (RENEWAL_REMINDER_DAYS ahead, UTC). */
export async function findSubscriptionsToRemind(db: Queryable): Promise<Array<{ id: string; nextBillingDate: Date }>> {
  const { rows } = await db.query<{ id: string; next_billing_date: Date }>(
    `select id, next_billing_date from subscriptions
     where status = 'active' and next_billing_date >= ${REMINDER_DAY_SQL.from} and next_billing_date < ${REMINDER_DAY_SQL.to}
     order by next_billing_date, id`,
  );
  return rows.map((r) => ({ id: r.id, nextBillingDate: r.next_billing_date }));
}

export async function lockSubscription(client: pg.PoolClient, id: string): Promise<LockedSubscription | null> {
  const { rows } = await client.query<{
    id: SubscriptionRow['id'];
    status: SubscriptionRow['status'];
    user_id: SubscriptionRow['userId'];
    customer_email: SubscriptionRow['customerEmail'];
    customer_name: SubscriptionRow['customerName'];
    items: SubscriptionRow['items'];
    interval: SubscriptionRow['interval'];
    interval_count: SubscriptionRow['intervalCount'];
    /** numeric as text (`amount::text`), converted to cents below. */
    amount: string;
    next_billing_date: SubscriptionRow['nextBillingDate'];
    shipping_address: SubscriptionRow['shippingAddress'];
    failed_attempts: SubscriptionRow['failedAttempts'];
    authnet_customer_profile_id: SubscriptionRow['authnetCustomerProfileId'];
    authnet_payment_profile_id: SubscriptionRow['authnetPaymentProfileId'];
    due: boolean;
    due_before: Date;
  }>(
    `select id, status, user_id, customer_email, customer_name, items, interval, interval_count, amount::text, next_billing_date,
       shipping_address, failed_attempts, authnet_customer_profile_id, authnet_payment_profile_id,
       ${DUE_SQL} as due, ${DUE_BEFORE_SQL} as due_before
     from subscriptions where id = $1 for update`,
    [id],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    status: r.status,
    userId: r.user_id,
    customerEmail: r.customer_email,
    customerName: r.customer_name,
    items: r.items,
    interval: r.interval,
    intervalCount: r.interval_count,
    amount: toCents(r.amount),
    nextBillingDate: r.next_billing_date,
    shippingAddress: r.shipping_address,
    failedAttempts: r.failed_attempts,
    profile:
      r.authnet_customer_profile_id && r.authnet_payment_profile_id
        ? { customerProfileId: r.authnet_customer_profile_id, paymentProfileId: r.authnet_payment_profile_id }
        : null,
    due: r.due,
    dueBefore: r.due_before,
  };
}

/** The period is paid: the subscription moves on to its next billing date with a clean dunning slate. */
export async function advanceSubscription(client: pg.PoolClient, id: string, next: Date): Promise<void> {
  await client.query('update subscriptions set next_billing_date = $2, failed_attempts = 0, retry_at = null, updated_at = now() where id = $1', [id, next]);
}

/**
 * The catch-up of a plan more than one period behind, in the renewal's transaction: the periods passed
 * over recorded as skipped (a repeat records nothing twice), and the plan moved on to the current
 * period with a fresh dunning slate (a retry of a period long gone does not carry over).
 */
export async function skipPeriods(client: pg.PoolClient, subscriptionId: string, periods: string[], reason: SkippedPeriodReason, current: Date): Promise<void> {
  await client.query(
    `with skipped as (
        insert into subscription_skipped_periods (subscription_id, billing_period, reason)
        select $1, period, $3 from unnest($2::text[]) as p(period) on conflict do nothing)
     update subscriptions set next_billing_date = $4, failed_attempts = 0, retry_at = null, updated_at = now() where id = $1`,
    [subscriptionId, periods, reason, current],
  );
}

/** The subscription after a failed attempt (one dunning step), as a CTE body; $1 is the subscription. */
export const FAILED_SUBSCRIPTION = `update subscriptions set
    failed_attempts = $2,
    retry_at = case when $3::int is null then null else date_trunc('day', now(), 'UTC') + $3::int * interval '1 day' end,
    status = case when $4::boolean and status = 'active' then 'paused'::subscription_status else status end,
    updated_at = now()
  where id = $1`;

/**
 * The end of a dunning statement whose `sub` CTE took the step: the `subscription.paused` outbox row
 * (with its NOTIFY) when the step paused the plan, and the plan's status after it. $4 is the step's
 * pause flag, $5 the outbox payload, $6 the relay's channel.
 */
const PAUSED = `$4::boolean and exists (select 1 from sub where status = 'paused')`;
export const PAUSED_OUTBOX_THEN_STATUS = `ob as (${outboxInsert('$5', PAUSED)})
     select (select status from sub) as status, ${outboxNotify('$5', '$6', '$4::boolean')}`;

export const pausedPayload = (subscriptionId: string, period: string) => outboxParam([{ topic: 'subscription.paused', payload: { subscriptionId, period } }]);

/**
 * A failed attempt inside the pre-charge transaction (nothing was charged): dunning step, and the
 * `subscription.paused` outbox row when it pauses. Answers the subscription's status after it.
 */
export async function recordFailedAttempt(client: pg.PoolClient, subscriptionId: string, period: string, step: DunningStep): Promise<SubscriptionRow['status']> {
  const { rows } = await client.query<{ status: SubscriptionRow['status'] }>(
    `with sub as (${FAILED_SUBSCRIPTION} returning status),
      ${PAUSED_OUTBOX_THEN_STATUS}`,
    [subscriptionId, step.failedAttempts, step.retryInDays, step.pause, pausedPayload(subscriptionId, period), OUTBOX_CHANNEL],
  );
  return rows[0]!.status;
}


// ---- The back office (API admin/subscriptions; the renewal sweep's heads-up) ----

/**
 * The items of plan `s` its next delivery could not have (the renewal's stock rule: the product exists,
 * is active and has the quantity, quantities of one product added up), as a JSON array in
 * `unavailable.items`, null when every item can be delivered. A lateral join to put after `subscriptions s`.
 */
const UNAVAILABLE_JOIN = `left join lateral (
    select json_agg(json_build_object('productId', w.product_id, 'productName', coalesce(p.name, w.name),
        'problem', case when p.id is null then 'removed' when p.status = 'inactive' then 'inactive' else 'out-of-stock' end,
        'wanted', w.qty, 'available', coalesce(p.inventory, 0)) order by w.product_id) as items
    from (select (i->>'productId')::int as product_id, min(i->>'productName') as name, sum((i->>'quantity')::int)::int as qty
          from jsonb_array_elements(s.items) i group by 1) w
    left join products p on p.id = w.product_id
    where p.id is null or p.status <> 'active' or p.inventory < w.qty) unavailable on true`;

export interface AdminSubscriptionFilter {
  /** Part of the customer's name or email, or the start of the plan id. */
  search?: string;
  status?: SubscriptionStatus;
  /** UTC days (yyyy-MM-dd), both ends included. */
  dueFrom?: string;
  dueTo?: string;
  minFailedAttempts?: number;
  limit: number;
  offset: number;
}

const ID_PREFIX = /^[0-9a-f-]{1,36}$/i;

/** A plan id prefix as a range of the primary key (`1a2b` is 1a2b0000-… to 1a2bffff-…). */
function planIdPrefix(search: string): SQL | undefined {
  if (!ID_PREFIX.test(search)) return undefined;
  const hex = search.toLowerCase().replace(/-/g, '');
  if (hex.length === 0 || hex.length > 32) return undefined;
  const asUuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return and(gte(subscriptions.id, asUuid(hex.padEnd(32, '0'))), lte(subscriptions.id, asUuid(hex.padEnd(32, 'f'))));
}

function adminSubscriptionWhere(q: Omit<AdminSubscriptionFilter, 'limit' | 'offset'>): SQL | undefined {
  const search = q.search?.trim();
  return and(
    search ? or(ilike(sql`${subscriptions.customerName} || ' ' || ${subscriptions.customerEmail}`, `%${escapeLike(search)}%`), planIdPrefix(search)) : undefined,
    q.status ? eq(subscriptions.status, q.status) : undefined,
    q.dueFrom ? gte(subscriptions.nextBillingDate, new Date(`${q.dueFrom}T00:00:00Z`)) : undefined,
    q.dueTo ? lt(subscriptions.nextBillingDate, new Date(Date.parse(`${q.dueTo}T00:00:00Z`) + DAY_MS)) : undefined,
    q.minFailedAttempts !== undefined && q.minFailedAttempts > 0 ? gte(subscriptions.failedAttempts, q.minFailedAttempts) : undefined,
  );
}

/** One page of plans, soonest next billing date first, and how many match. */
export async function listAdminSubscriptions(db: DbOrTx, q: AdminSubscriptionFilter): Promise<{ rows: SubscriptionRow[]; total: number }> {
  const where = adminSubscriptionWhere(q);
  const [rows, [counted]] = await Promise.all([
    db.select().from(subscriptions).where(where).orderBy(asc(subscriptions.nextBillingDate), asc(subscriptions.id)).limit(q.limit).offset(q.offset),
    db.select({ n: count() }).from(subscriptions).where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/** What the back office shows of a plan's billing: each period's charge row, its skipped periods, every order it made. */
export interface PlanBilling {
  charges: Array<{
    period: string;
    status: (typeof paymentTransactions.$inferSelect)['status'];
    amount: number;
    orderId: string | null;
    message: string | null;
    cardType: string | null;
    cardLastFour: string | null;
    at: Date;
  }>;
  skipped: Array<{ period: string; reason: SkippedPeriodReason; at: Date }>;
  orders: Array<{ id: string; status: string; total: number; createdAt: Date }>;
}

/**
 * A plan's billing: the charge rows (one per period; refunds and voids are their own rows, not read
 * here), the skipped periods, and every order of the plan (a failed attempt's cancelled order too),
 * newest first (by the orders (subscription_id) index, migration 0012).
 */
export async function planBilling(db: DbOrTx, subscriptionId: string): Promise<PlanBilling> {
  const p = paymentTransactions;
  const [charges, skipped, planOrders] = await Promise.all([
    db
      .select({
        period: sql<string>`${p.billingPeriod}`,
        status: p.status,
        amount: p.amount,
        orderId: p.orderId,
        message: p.responseMessage,
        cardType: p.cardType,
        cardLastFour: p.cardLastFour,
        at: p.createdAt,
      })
      .from(p)
      .where(and(eq(p.subscriptionId, subscriptionId), eq(p.kind, 'charge'), isNotNull(p.billingPeriod)))
      .orderBy(desc(p.billingPeriod)),
    db
      .select({ period: subscriptionSkippedPeriods.billingPeriod, reason: sql<SkippedPeriodReason>`${subscriptionSkippedPeriods.reason}`, at: subscriptionSkippedPeriods.createdAt })
      .from(subscriptionSkippedPeriods)
      .where(eq(subscriptionSkippedPeriods.subscriptionId, subscriptionId))
      .orderBy(desc(subscriptionSkippedPeriods.billingPeriod)),
    db
      .select({ id: orders.id, status: orders.status, total: orders.total, createdAt: orders.createdAt })
      .from(orders)
      .where(eq(orders.subscriptionId, subscriptionId))
      .orderBy(desc(orders.createdAt), desc(orders.id)),
  ]);
  return { charges, skipped, orders: planOrders };
}

export async function findPlan(db: DbOrTx, id: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row ?? null;
}

/** The UTC day (start) by the database's clock, the renewals' clock. */
export async function databaseToday(db: DbOrTx): Promise<Date> {
  const { rows } = await db.execute<{ day: string }>(sql`select ${sql.raw(TODAY_SQL)} as day`);
  return new Date(`${rows[0]!.day}T00:00:00.000Z`);
}

/** A plan locked for a change (staff or its shopper), with what the change's rules read beside it. */
export interface LockedPlan {
  row: SubscriptionRow;
  /** Start of today (UTC) by the database's clock. */
  today: Date;
  /**
   * The charge row of the period the plan is on (its next billing date), if any: its status and the
   * payment service's words. Pending without words: the renewal's charge is in flight; pending with them:
   * its answer was held for review or lost, and staff check it (payment-in-flight.ts).
   */
  periodCharge: PeriodCharge | null;
}

/** A period's charge row as the plan rules read it. */
export type PeriodCharge = Pick<typeof paymentTransactions.$inferSelect, 'status' | 'responseMessage'>;

/**
 * Locks the plan row FOR UPDATE in the caller's transaction — the renewal's lock (lockSubscription): a
 * renewal that holds it is waited for, and one that comes later waits for the change and then judges
 * the row as the change left it (status, next billing date, period, card, items). With `ownerId`, only
 * that user's plan (a shopper's change): anyone else's is not found.
 */
export async function lockPlanForChange(tx: DbOrTx, id: string, ownerId?: string): Promise<LockedPlan | null> {
  const [found] = await tx
    .select({ row: subscriptions, today: sql<string>`${sql.raw(TODAY_SQL)}` })
    .from(subscriptions)
    .where(ownerId === undefined ? eq(subscriptions.id, id) : and(eq(subscriptions.id, id), eq(subscriptions.userId, ownerId)))
    .for('update');
  if (!found) return null;
  const [charge] = await tx
    .select({ status: paymentTransactions.status, responseMessage: paymentTransactions.responseMessage })
    .from(paymentTransactions)
    .where(and(eq(paymentTransactions.subscriptionId, id), eq(paymentTransactions.billingPeriod, billingPeriodOf(found.row.nextBillingDate)), eq(paymentTransactions.kind, 'charge')));
  return { row: found.row, today: new Date(`${found.today}T00:00:00.000Z`), periodCharge: charge ?? null };
}

export type PlanChange = Partial<
  Pick<SubscriptionRow, 'status' | 'nextBillingDate' | 'failedAttempts' | 'retryAt' | 'cancelledAt' | 'authnetCustomerProfileId' | 'authnetPaymentProfileId' | 'cardExpiresOn' | 'cardType' | 'cardLastFour' | 'items' | 'amount'>
>;

/** A change to the plan row (locked by lockPlanForChange in the same transaction). */
export async function updatePlan(tx: DbOrTx, id: string, change: PlanChange): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ ...change, updatedAt: sql`now()` })
    .where(eq(subscriptions.id, id));
}

/** What a change decided for the locked plan: the row's new values and any billing periods it skips. */
export interface PlanChangeDecision {
  change: PlanChange;
  skip?: { periods: string[]; reason: SkippedPeriodReason };
}

/**
 * The one sequence of a change to a plan, by staff or its shopper, in the caller's transaction: the plan
 * locked (lockPlanForChange), `decide` judges it (throws to refuse: nothing written; null: nothing to
 * change, nothing recorded), then the skipped periods, the row's change and the caller's own `record`
 * (staff: audit and outbox rows; the shopper: the outbox row) with the row as it now is. Answers false
 * when there is no such plan (or not the owner's).
 */
export async function changeLockedPlan<D extends PlanChangeDecision>(
  tx: DbOrTx,
  id: string,
  ownerId: string | undefined,
  decide: (plan: LockedPlan) => D | null | Promise<D | null>,
  record: (decision: D, after: SubscriptionRow) => Promise<unknown>,
): Promise<boolean> {
  const plan = await lockPlanForChange(tx, id, ownerId);
  if (!plan) return false;
  const decision = await decide(plan);
  if (!decision) return true;
  if (decision.skip) await recordSkippedPeriods(tx, id, decision.skip.periods, decision.skip.reason);
  await updatePlan(tx, id, decision.change);
  await record(decision, { ...plan.row, ...decision.change });
  return true;
}

/** Why a period of the plan was skipped, or null when it was not. */
export async function skippedPeriodReason(tx: DbOrTx, subscriptionId: string, period: string): Promise<SkippedPeriodReason | null> {
  const [row] = await tx
    .select({ reason: subscriptionSkippedPeriods.reason })
    .from(subscriptionSkippedPeriods)
    .where(and(eq(subscriptionSkippedPeriods.subscriptionId, subscriptionId), eq(subscriptionSkippedPeriods.billingPeriod, period)));
  return (row?.reason as SkippedPeriodReason | undefined) ?? null;
}

/** Records billing periods as skipped (never charged later); a period recorded before is left as it is. */
export async function recordSkippedPeriods(tx: DbOrTx, subscriptionId: string, periods: readonly string[], reason: SkippedPeriodReason): Promise<void> {
  if (periods.length === 0) return;
  await tx
    .insert(subscriptionSkippedPeriods)
    .values(periods.map((billingPeriod) => ({ subscriptionId, billingPeriod, reason })))
    .onConflictDoNothing();
}

/** An active plan at risk: its row (snake_case, as the statement answers) and why. */
export interface AtRiskRow {
  id: string;
  customer_name: string;
  customer_email: string;
  status: SubscriptionRow['status'];
  items: SubscriptionRow['items'];
  /** numeric as text. */
  amount: string;
  interval: SubscriptionRow['interval'];
  interval_count: number;
  next_billing_date: Date;
  failed_attempts: number;
  retry_at: Date | null;
  created_at: Date;
  cancelled_at: Date | null;
  unavailable_items: UnavailableItem[] | null;
  last_payment_message: string | null;
  /** yyyy-MM-dd: the last day the stored card is good, when known. */
  card_expires_on: string | null;
  /** The stored card expires before the UTC day of the next billing date. */
  card_expiring: boolean;
}

/**
 * The stored card of plan `s` expires before its next billing date: the card is good through
 * card_expires_on (the last day of its month), the billing date is a UTC day. False while not known.
 */
const CARD_EXPIRING_SQL = `coalesce(s.card_expires_on < (s.next_billing_date at time zone 'UTC')::date, false)`;

const AT_RISK_WHERE = `s.status = 'active' and (unavailable.items is not null or s.failed_attempts > 0 or ${CARD_EXPIRING_SQL})
  and ($1::text is null or ($1 = 'item-unavailable' and unavailable.items is not null) or ($1 = 'dunning' and s.failed_attempts > 0)
    or ($1 = 'card-expiring' and ${CARD_EXPIRING_SQL}))`;

/**
 * The at-risk list: active plans whose items the next delivery could not have (out of stock, no longer
 * sold, removed), that are in dunning (failed attempts > 0) or whose stored card expires before the next
 * billing date, soonest billing first, and how many.
 */
export async function findAtRiskSubscriptions(db: pg.Pool, q: { reason?: AtRiskReason; limit: number; offset: number }): Promise<{ rows: AtRiskRow[]; total: number }> {
  const reason = q.reason ?? null;
  const [page, counted] = await Promise.all([
    db.query<AtRiskRow>({
      name: 'subscriptions_at_risk',
      text: `select s.id, s.customer_name, s.customer_email, s.status, s.items, s.amount::text as amount, s.interval, s.interval_count,
          s.next_billing_date, s.failed_attempts, s.retry_at, s.created_at, s.cancelled_at, unavailable.items as unavailable_items,
          s.card_expires_on::text as card_expires_on, ${CARD_EXPIRING_SQL} as card_expiring,
          case when s.failed_attempts > 0 then (select p.response_message from payment_transactions p
            where p.subscription_id = s.id and p.kind = 'charge' and p.billing_period = to_char(s.next_billing_date at time zone 'UTC', 'YYYY-MM-DD')) end as last_payment_message
        from subscriptions s ${UNAVAILABLE_JOIN}
        where ${AT_RISK_WHERE}
        order by s.next_billing_date, s.id limit $2 offset $3`,
      values: [reason, q.limit, q.offset],
    }),
    db.query<{ n: number }>({ name: 'subscriptions_at_risk_count', text: `select count(*)::int as n from subscriptions s ${UNAVAILABLE_JOIN} where ${AT_RISK_WHERE}`, values: [reason] }),
  ]);
  return { rows: page.rows, total: counted.rows[0]?.n ?? 0 };
}

/**
 * The renewal sweep's heads-up: active plans billed on one of the next `days` UTC days (tomorrow to
 * `days` days ahead, by the database's clock) whose items the delivery could not have today.
 */
export async function findPlansWithUnavailableItemsSoon(db: Queryable, days: number): Promise<Array<{ id: string; nextBillingDate: Date }>> {
  const { rows } = await db.query<{ id: string; next_billing_date: Date }>(
    `select s.id, s.next_billing_date from subscriptions s ${UNAVAILABLE_JOIN}
     where s.status = 'active' and unavailable.items is not null
       and s.next_billing_date >= ${DUE_BEFORE_SQL} and s.next_billing_date < date_trunc('day', now(), 'UTC') + make_interval(days => $1::int + 1)
     order by s.next_billing_date, s.id`,
    [days],
  );
  return rows.map((r) => ({ id: r.id, nextBillingDate: r.next_billing_date }));
}

/** The items of one plan its next delivery could not have now (empty when all can be delivered). */
export async function unavailableItemsOf(db: Queryable, subscriptionId: string): Promise<UnavailableItem[]> {
  const { rows } = await db.query<{ items: UnavailableItem[] | null }>(`select unavailable.items from subscriptions s ${UNAVAILABLE_JOIN} where s.id = $1`, [subscriptionId]);
  return rows[0]?.items ?? [];
}

// ---- The stored card's expiry (workers: the lookup after a card is stored, the sweep's retries and card heads-up) ----

/** A plan's stored card as the expiry lookup and the card heads-up read it. */
export interface PlanCard {
  status: SubscriptionRow['status'];
  profile: StoredPaymentProfile | null;
  /** yyyy-MM-dd, or null while not known. */
  cardExpiresOn: string | null;
  nextBillingDate: Date;
}

export async function findPlanCard(db: Queryable, subscriptionId: string): Promise<PlanCard | null> {
  const { rows } = await db.query<{
    status: SubscriptionRow['status'];
    authnet_customer_profile_id: string | null;
    authnet_payment_profile_id: string | null;
    card_expires_on: string | null;
    next_billing_date: Date;
  }>(
    `select status, authnet_customer_profile_id, authnet_payment_profile_id, card_expires_on::text as card_expires_on, next_billing_date
     from subscriptions where id = $1`,
    [subscriptionId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    status: r.status,
    profile:
      r.authnet_customer_profile_id && r.authnet_payment_profile_id
        ? { customerProfileId: r.authnet_customer_profile_id, paymentProfileId: r.authnet_payment_profile_id }
        : null,
    cardExpiresOn: r.card_expires_on,
    nextBillingDate: r.next_billing_date,
  };
}

/**
 * Records the expiry (yyyy-MM-dd, the last day of the card's month) of the plan's stored card, only while
 * `profile` is still that card: a card looked up just before a resume gave the plan another one writes
 * nothing. Answers whether it was written.
 */
export async function recordCardExpiry(db: Queryable, subscriptionId: string, profile: StoredPaymentProfile, expiresOn: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `update subscriptions set card_expires_on = $4::date
     where id = $1 and authnet_customer_profile_id = $2 and authnet_payment_profile_id = $3`,
    [subscriptionId, profile.customerProfileId, profile.paymentProfileId, expiresOn],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Active plans with a stored card whose expiry is not known (a lookup that failed, a running plan from
 * before expiries were kept, a provider that did not say), soonest billing first, at most `limit`: the
 * renewal sweep looks them up again, a bounded number a day.
 */
export async function findPlansWithoutCardExpiry(db: Queryable, limit: number): Promise<Array<{ id: string; paymentProfileId: string }>> {
  const { rows } = await db.query<{ id: string; authnet_payment_profile_id: string }>(
    `select id, authnet_payment_profile_id from subscriptions
     where status = 'active' and card_expires_on is null and authnet_customer_profile_id is not null and authnet_payment_profile_id is not null
     order by next_billing_date, id limit $1`,
    [limit],
  );
  return rows.map((r) => ({ id: r.id, paymentProfileId: r.authnet_payment_profile_id }));
}

/**
 * The renewal sweep's card heads-up: active plans billed on one of the next `days` UTC days (tomorrow to
 * `days` days ahead, as the item heads-up) whose stored card expires before that billing date.
 */
export async function findPlansWithCardExpiringSoon(db: Queryable, days: number): Promise<Array<{ id: string; nextBillingDate: Date; paymentProfileId: string }>> {
  const { rows } = await db.query<{ id: string; next_billing_date: Date; authnet_payment_profile_id: string }>(
    `select s.id, s.next_billing_date, s.authnet_payment_profile_id from subscriptions s
     where s.status = 'active' and s.authnet_payment_profile_id is not null and ${CARD_EXPIRING_SQL}
       and s.next_billing_date >= ${DUE_BEFORE_SQL} and s.next_billing_date < date_trunc('day', now(), 'UTC') + make_interval(days => $1::int + 1)
     order by s.next_billing_date, s.id`,
    [days],
  );
  return rows.map((r) => ({ id: r.id, nextBillingDate: r.next_billing_date, paymentProfileId: r.authnet_payment_profile_id }));
}
