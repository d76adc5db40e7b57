/**
 * The renewal write path's SQL. Before the charge, one transaction (the subscription row locked FOR
 * UPDATE) decides and writes the period's payment row, the order and its stock; after the charge, one
 * statement records the outcome, so the payment row, the order, the stock, the subscription and the
 * outbox row never disagree.
 */
import type pg from 'pg';
import { centsToDecimal, toCents, type Cents } from '@nh/shared';
import { OUTBOX_CHANNEL, outboxInsert, outboxNotify, outboxParam, restockCtes, type Address, type LineItem, type OrderRow, type StockLine, type SubscriptionRow } from '@nh/server';
import type { SkippedPeriodReason, SubscriptionInterval, SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import type { ChargeResult, StoredPaymentProfile } from '@nh/server/payments/index';
import { DUE_BEFORE_SQL, DUE_SQL, REMINDER_DAY_SQL, type DunningStep } from './rules';

type Queryable = pg.Pool | pg.PoolClient;

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
    id: string;
    status: SubscriptionStatus;
    user_id: string | null;
    customer_email: string;
    customer_name: string;
    items: LineItem[];
    interval: SubscriptionInterval;
    interval_count: number;
    amount: string;
    next_billing_date: Date;
    shipping_address: Address | null;
    failed_attempts: number;
    authnet_customer_profile_id: string | null;
    authnet_payment_profile_id: string | null;
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

export type PaymentStatus = 'pending' | 'approved' | 'declined' | 'error' | 'refunded';

export async function findPeriodPayment(client: pg.PoolClient, subscriptionId: string, period: string): Promise<{ id: string; status: PaymentStatus } | null> {
  const { rows } = await client.query<{ id: string; status: PaymentStatus }>(
    'select id, status from payment_transactions where subscription_id = $1 and billing_period = $2',
    [subscriptionId, period],
  );
  return rows[0] ?? null;
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

/** A renewal's order as inserted (pending), its columns as the schema has them. */
export type RenewalOrder = Pick<OrderRow, 'storeCode' | 'userId' | 'customerEmail' | 'customerName' | 'shippingAddress' | 'items' | 'subtotal' | 'discount' | 'shipping' | 'tax' | 'total'> & {
  subscriptionId: string;
};

export async function insertPendingOrder(client: pg.PoolClient, o: RenewalOrder): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `insert into orders (store_code, user_id, customer_email, customer_name, shipping_address, items, subtotal, discount, shipping, tax, total, status, subscription_id)
     values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, 'pending', $12) returning id`,
    [
      o.storeCode,
      o.userId,
      o.customerEmail,
      o.customerName,
      JSON.stringify(o.shippingAddress),
      JSON.stringify(o.items),
      ...[o.subtotal, o.discount, o.shipping, o.tax, o.total].map(centsToDecimal),
      o.subscriptionId,
    ],
  );
  return rows[0]!.id;
}

/** One product's quantity in an order (lines of the same product added up). */
// Taking stock is the one rule of @nh/server (stock.ts), shared with the checkout.
export { takeStock, type StockLine, type StockShortfall } from '@nh/server';

export interface PeriodPayment {
  subscriptionId: string;
  period: string;
  orderId: string | null;
  invoiceNumber: string;
  amount: Cents;
  status: 'pending' | 'error';
  message: string | null;
  environment: string;
}

/**
 * The period's one payment row, written before any charge: a new row, or the row of an earlier failed
 * attempt made current again. Answers null when the row is approved or pending (never overwritten).
 */
export async function upsertPeriodPayment(client: pg.PoolClient, p: PeriodPayment): Promise<string | null> {
  const { rows } = await client.query<{ id: string }>(
    `insert into payment_transactions (order_id, subscription_id, invoice_number, billing_period, amount, status, response_message, environment)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (subscription_id, billing_period) do update set
       order_id = excluded.order_id, invoice_number = excluded.invoice_number, amount = excluded.amount, status = excluded.status,
       response_message = excluded.response_message, environment = excluded.environment,
       authnet_transaction_id = null, response_code = null, card_type = null, card_last_four = null
     where payment_transactions.status in ('declined', 'error')
     returning id`,
    [p.orderId, p.subscriptionId, p.invoiceNumber, p.period, centsToDecimal(p.amount), p.status, p.message, p.environment],
  );
  return rows[0]?.id ?? null;
}

/** The subscription after a failed attempt (one dunning step), as a CTE body; $1 is the subscription. */
const FAILED_SUBSCRIPTION = `update subscriptions set
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
const PAUSED_OUTBOX_THEN_STATUS = `ob as (${outboxInsert('$5', PAUSED)})
     select (select status from sub) as status, ${outboxNotify('$5', '$6', '$4::boolean')}`;

const pausedPayload = (subscriptionId: string, period: string) => outboxParam([{ topic: 'subscription.paused', payload: { subscriptionId, period } }]);

/**
 * A failed attempt inside the pre-charge transaction (nothing was charged): dunning step, and the
 * `subscription.paused` outbox row when it pauses. Answers the subscription's status after it.
 */
export async function recordFailedAttempt(client: pg.PoolClient, subscriptionId: string, period: string, step: DunningStep): Promise<SubscriptionStatus> {
  const { rows } = await client.query<{ status: SubscriptionStatus }>(
    `with sub as (${FAILED_SUBSCRIPTION} returning status),
      ${PAUSED_OUTBOX_THEN_STATUS}`,
    [subscriptionId, step.failedAttempts, step.retryInDays, step.pause, pausedPayload(subscriptionId, period), OUTBOX_CHANNEL],
  );
  return rows[0]!.status;
}

export interface ChargeRecord {
  paymentId: string;
  orderId: string;
  subscriptionId: string;
  period: string;
  result: ChargeResult;
}

const chargeValues = (c: ChargeRecord) => [c.result.transactionId, c.result.responseCode, c.result.message, c.result.cardType, c.result.lastFour, c.result.environment];

/**
 * An approved renewal, as one statement: the payment row approved, the order paid ('processing') with
 * its `order.placed` outbox row (NetSuite sync and the confirmation email, as for any order), and the
 * subscription moved on to its next billing date. The pending payment row guards it: recorded once.
 */
export async function recordPaid(db: Queryable, c: ChargeRecord, next: Date): Promise<boolean> {
  const { rows } = await db.query<{ recorded: boolean }>(
    `with pay as (
        update payment_transactions set status = 'approved', authnet_transaction_id = $2, response_code = $3, response_message = $4,
          card_type = $5, card_last_four = $6, environment = $7
        where id = $1 and status = 'pending' returning id),
      ord as (
        update orders set status = 'processing', payment_transaction_id = $2, updated_at = now()
        where id = $8 and status = 'pending' and exists (select 1 from pay) returning id),
      sub as (
        update subscriptions set next_billing_date = $10, failed_attempts = 0, retry_at = null, updated_at = now()
        where id = $9 and exists (select 1 from pay)),
      ob as (${outboxInsert('$11', 'exists (select 1 from ord)')})
     select exists (select 1 from pay) as recorded, ${outboxNotify('$11', '$12')}`,
    [
      c.paymentId,
      ...chargeValues(c),
      c.orderId,
      c.subscriptionId,
      next,
      outboxParam([{ topic: 'order.placed', payload: { orderId: c.orderId } }]),
      OUTBOX_CHANNEL,
    ],
  );
  return rows[0]!.recorded;
}

/**
 * A declined or refused renewal, as one statement: the payment row's outcome, the order cancelled
 * (never sent to NetSuite) with its stock back (rows locked in id order), and one dunning step for the
 * subscription, with the `subscription.paused` outbox row when the retries are used up.
 */
export async function recordFailed(db: Queryable, c: ChargeRecord, stock: StockLine[], step: DunningStep): Promise<SubscriptionStatus | null> {
  const status = c.result.outcome === 'declined' ? 'declined' : 'error';
  const { rows } = await db.query<{ status: SubscriptionStatus | null }>(
    `with pay as (
        update payment_transactions set status = $7::payment_status, authnet_transaction_id = $8, response_code = $9, response_message = $10,
          card_type = $11, card_last_four = $12, environment = $13
        where id = $14 and status = 'pending' returning id),
      ord as (
        update orders set status = 'cancelled', netsuite_sync_status = 'not_applicable', updated_at = now()
        where id = $15 and status = 'pending' and exists (select 1 from pay) returning id),
      ${restockCtes('$16', '$17')},
      sub as (${FAILED_SUBSCRIPTION} and exists (select 1 from pay) returning status),
      ${PAUSED_OUTBOX_THEN_STATUS}`,
    [
      c.subscriptionId,
      step.failedAttempts,
      step.retryInDays,
      step.pause,
      pausedPayload(c.subscriptionId, c.period),
      OUTBOX_CHANNEL,
      status,
      ...chargeValues(c),
      c.paymentId,
      c.orderId,
      stock.map((l) => l.productId),
      stock.map((l) => l.quantity),
    ],
  );
  return rows[0]?.status ?? null;
}

/**
 * A charge whose outcome is not final (held for review, unknown, or a duplicate refusal that says an
 * earlier charge went through): what the gateway said is kept on the still-pending payment row, the
 * order keeps its stock, and the subscription waits for staff.
 */
export async function recordUnsettled(db: Queryable, c: ChargeRecord): Promise<void> {
  await db.query(
    `update payment_transactions set authnet_transaction_id = $2, response_code = $3, response_message = $4, card_type = $5, card_last_four = $6, environment = $7
     where id = $1 and status = 'pending'`,
    [c.paymentId, ...chargeValues(c)],
  );
}
