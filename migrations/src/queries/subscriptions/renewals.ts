/**
 * The renewals' reads and writes on the plan row (the workers' daily sweep and renewal job): which plans
 * are due or get a reminder, the plan row locked FOR UPDATE for one renewal, the catch-up and the
 * dunning step, the renewal's order with its stock, and the sweep's heads-up about items the next
 * delivery could not have. The renewal's payment rows and its one-statement outcomes are in payments.ts,
 * its pending order's insert in orders.ts.
 *
 * Hand-tuned SQL through the pool; the renewal's statements run under the plan's row lock. The clock is
 * the database's (the sweep and the job agree whichever host runs them).
 */
import type pg from 'pg';
import { toCents } from '@nh/shared/money';
import { INTERVAL_MONTHS, RENEWAL_REMINDER_DAYS, type SkippedPeriodReason } from '@nh/shared/contracts/subscriptions';
import type { SubscriptionRow } from '../../db/schema';
import type { StoredPaymentProfile } from '../../payments/gateway';
import { insertPendingOrder, type RenewalOrder } from '../orders';
import { OUTBOX_CHANNEL, outboxInsert, outboxNotify, outboxParam } from '../outbox';
import { takeStock, type StockLine, type StockShortfall } from '../stock';
import { DUE_BEFORE_SQL, UNAVAILABLE_JOIN, type Queryable } from './plan';

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

/** A timed pause's billing date to resume on: its `resumes_on` day at the time of day of the plan's billing date (UTC). */
export const RESUME_BILLING_DATE_SQL = `((resumes_on + (next_billing_date at time zone 'UTC')::time) at time zone 'UTC')`;

/** What a failed attempt does to the plan (the workers' rules.ts decides it: dunningStep, pauseNow). */
export type DunningStep =
  /** Try again at the start of the UTC day `retryInDays` days from today (the sweep of that day picks it up). */
  | { failedAttempts: number; retryInDays: number; pause: false }
  /** Retries used up: paused, and the customer is told. */
  | { failedAttempts: number; retryInDays: null; pause: true };

/** The subscription row the renewal locks, its columns as the schema has them, and what the lock read beside it. */
export interface LockedSubscription
  extends Pick<
    SubscriptionRow,
    | 'id'
    | 'status'
    | 'userId'
    | 'customerEmail'
    | 'customerName'
    | 'items'
    | 'interval'
    | 'intervalCount'
    | 'amount'
    | 'nextBillingDate'
    | 'shippingAddress'
    | 'failedAttempts'
    | 'oneTimeItems'
    | 'nextDeliveryDiscountPercent'
    | 'agreedAmount'
    | 'agreedAmountFrom'
    | 'priorAgreedAmount'
  > {
  profile: StoredPaymentProfile | null;
  /** Due on or before today (UTC), counting a pending retry time (DUE_SQL). */
  due: boolean;
  /** The start of tomorrow (UTC) by the database's clock: billing dates before it are due. */
  dueBefore: Date;
}

/** A due plan as the sweep reads it. */
export interface DueSubscription {
  id: string;
  nextBillingDate: Date;
  failedAttempts: number;
  /** next_billing_date exactly as stored (microseconds; a Date keeps milliseconds): with the id, the keyset of the next page. */
  keyset: string;
}

/** How many due plans the sweep reads (and turns into renew jobs) at a time. */
export const DUE_PAGE_SIZE = 1000;

/**
 * One page of the active subscriptions due today or earlier, retry times (dunning) included (DUE_SQL),
 * in (next_billing_date, id) order after `after` (the last row of the page before; null for the first).
 * Keyset paging, so the sweep holds one page at a time however many plans are due (renewal day at
 * scale: docs/decisions/subscriptions.md, Benchmarks). The row comparison narrows the
 * (status, next_billing_date) index scan to `next_billing_date >= $1`; the id only breaks ties.
 */
export async function findDueSubscriptionsPage(db: Queryable, after: Pick<DueSubscription, 'id' | 'keyset'> | null, limit = DUE_PAGE_SIZE): Promise<DueSubscription[]> {
  // Two statements rather than one with `$1 is null or …`: a prepared statement's generic plan could not
  // use the row comparison as an index condition.
  const afterKeyset = after ? `and (next_billing_date, id) > ($2::timestamptz, $3::uuid)` : '';
  const { rows } = await db.query<{ id: string; next_billing_date: Date; failed_attempts: number; keyset: string }>({
    name: after ? 'subscriptions_due_page_after' : 'subscriptions_due_page_first',
    text: `select id, next_billing_date, failed_attempts, next_billing_date::text as keyset from subscriptions
     where status = 'active' and ${DUE_SQL} ${afterKeyset}
     order by next_billing_date, id
     limit $1`,
    values: after ? [limit, after.keyset, after.id] : [limit],
  });
  return rows.map((r) => ({ id: r.id, nextBillingDate: r.next_billing_date, failedAttempts: r.failed_attempts, keyset: r.keyset }));
}

/**
 * Every due subscription (DUE_SQL), a page at a time (findDueSubscriptionsPage). Each page is its own
 * statement: a plan renewed meanwhile has moved past today and is not met again; one moved on by a
 * catch-up may be met twice under two periods, and its renew job re-checks the period on the locked row.
 */
export async function* dueSubscriptionPages(db: Queryable, pageSize = DUE_PAGE_SIZE): AsyncGenerator<DueSubscription[]> {
  let after: DueSubscription | null = null;
  for (;;) {
    const page = await findDueSubscriptionsPage(db, after, pageSize);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!;
  }
}

/**
 * Every active subscription billed on the reminder day (RENEWAL_REMINDER_DAYS ahead, UTC), and every plan
 * paused for a number of deliveries that resumes that day (issue 21: the sweep resumes it and charges it
 * then, so it is reminded like any renewal), with the billing date it resumes on (its day, at the plan's
 * time of day).
 */
export async function findSubscriptionsToRemind(db: Queryable): Promise<Array<{ id: string; nextBillingDate: Date }>> {
  const { rows } = await db.query<{ id: string; next_billing_date: Date }>(
    `select id, next_billing_date from (
       select id, next_billing_date from subscriptions where status = 'active'
       union all
       select id, ${RESUME_BILLING_DATE_SQL} from subscriptions where status = 'paused' and resumes_on is not null and failed_attempts = 0
     ) s
     where next_billing_date >= ${REMINDER_DAY_SQL.from} and next_billing_date < ${REMINDER_DAY_SQL.to}
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
    one_time_items: SubscriptionRow['oneTimeItems'];
    next_delivery_discount_percent: SubscriptionRow['nextDeliveryDiscountPercent'];
    agreed_amount: string | null;
    agreed_amount_from: string | null;
    prior_agreed_amount: string | null;
    authnet_customer_profile_id: SubscriptionRow['authnetCustomerProfileId'];
    authnet_payment_profile_id: SubscriptionRow['authnetPaymentProfileId'];
    due: boolean;
    due_before: Date;
  }>(
    `select id, status, user_id, customer_email, customer_name, items, interval, interval_count, amount::text, next_billing_date,
       shipping_address, failed_attempts, one_time_items, next_delivery_discount_percent, authnet_customer_profile_id, authnet_payment_profile_id,
       agreed_amount::text, to_char(agreed_amount_from, 'YYYY-MM-DD') as agreed_amount_from, prior_agreed_amount::text,
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
    oneTimeItems: r.one_time_items,
    nextDeliveryDiscountPercent: r.next_delivery_discount_percent,
    agreedAmount: r.agreed_amount === null ? null : toCents(r.agreed_amount),
    agreedAmountFrom: r.agreed_amount_from,
    priorAgreedAmount: r.prior_agreed_amount === null ? null : toCents(r.prior_agreed_amount),
    profile:
      r.authnet_customer_profile_id && r.authnet_payment_profile_id
        ? { customerProfileId: r.authnet_customer_profile_id, paymentProfileId: r.authnet_payment_profile_id }
        : null,
    due: r.due,
    dueBefore: r.due_before,
  };
}

/**
 * The period is paid: the subscription moves on to its next billing date with a clean dunning slate, and
 * without the one-time add-ons the period's order shipped (its lines' `oneTimeLineId`, issue 21).
 */
export async function advanceSubscription(client: pg.PoolClient, id: string, next: Date, period: string): Promise<void> {
  await client.query(
    `update subscriptions set next_billing_date = $2, failed_attempts = 0, retry_at = null, updated_at = now(),
       one_time_items = (select coalesce(jsonb_agg(o order by n), '[]'::jsonb) from jsonb_array_elements(one_time_items) with ordinality x(o, n)
         where not exists (select 1 from payment_transactions p join orders ord on ord.id = p.order_id cross join jsonb_array_elements(ord.items) li
           where p.subscription_id = $1 and p.billing_period = $3 and p.kind = 'charge' and li->>'oneTimeLineId' = o->>'id'))
     where id = $1`,
    [id, next, period],
  );
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

/**
 * The renewal's pending order and its stock, in the renewal's transaction under a savepoint of their
 * own: when a line is short, both are undone (the transaction goes on to record the failed attempt) and
 * the shortfall is answered.
 */
export async function placeRenewalOrder(client: pg.PoolClient, order: RenewalOrder, stock: StockLine[]): Promise<{ orderId: string } | { short: StockShortfall[] }> {
  await client.query('savepoint renewal_order');
  const orderId = await insertPendingOrder(client, order);
  const short = await takeStock(client, stock);
  if (short.length > 0) {
    await client.query('rollback to savepoint renewal_order');
    return { short };
  }
  return { orderId };
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
