/**
 * A renewal's payment rows: the period's row written before the charge (under the plan's row lock), and
 * the charge's outcome as one statement (payment row, order, stock, plan, outbox), so a retried job
 * never doubles a payment, a stock release or an email.
 */
import type pg from 'pg';
import { centsToDecimal, type Cents } from '@nh/shared/money';
import type { paymentTransactions, SubscriptionRow } from '../../db/schema';
import { OUTBOX_CHANNEL, outboxInsert, outboxNotify, outboxParam } from '../outbox';
import { restockCtes, type StockLine } from '../stock';
import { FAILED_SUBSCRIPTION, PAUSED_OUTBOX_THEN_STATUS, pausedPayload, type DunningStep } from './renewals';
import type { ChargeResult } from '../../payments/gateway';

type Queryable = pg.Pool | pg.PoolClient;

/** A payment row's status, as the schema has it. */
export type PaymentStatus = typeof paymentTransactions.$inferSelect.status;

/** A renewal period's one payment row, if any (unique per subscription and period). */
export async function findPeriodPayment(client: pg.PoolClient, subscriptionId: string, period: string): Promise<{ id: string; status: PaymentStatus } | null> {
  const { rows } = await client.query<{ id: string; status: PaymentStatus }>(
    `select id, status from payment_transactions where subscription_id = $1 and billing_period = $2 and kind = 'charge'`,
    [subscriptionId, period],
  );
  return rows[0] ?? null;
}

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
 * subscription moved on to its next billing date, without the one-time add-ons this delivery carried
 * (`shippedOneTimeIds`: a decline keeps them for the retry). The pending payment row guards it: recorded once.
 */
export async function recordPaid(db: Queryable, c: ChargeRecord, next: Date, shippedOneTimeIds: readonly string[] = []): Promise<boolean> {
  const { rows } = await db.query<{ recorded: boolean }>(
    `with pay as (
        update payment_transactions set status = 'approved', authnet_transaction_id = $2, response_code = $3, response_message = $4,
          card_type = $5, card_last_four = $6, environment = $7
        where id = $1 and status = 'pending' returning id),
      ord as (
        update orders set status = 'processing', payment_transaction_id = $2, updated_at = now()
        where id = $8 and status = 'pending' and exists (select 1 from pay) returning id),
      sub as (
        update subscriptions set next_billing_date = $10, failed_attempts = 0, retry_at = null, updated_at = now(),
          next_delivery_discount_percent = null, -- a save offer's discount is taken by this one approved renewal (issue 22)
          one_time_items = (select coalesce(jsonb_agg(o order by n), '[]'::jsonb) from jsonb_array_elements(one_time_items) with ordinality x(o, n)
            where not (o->>'id' = any($13::text[])))
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
      [...shippedOneTimeIds],
    ],
  );
  return rows[0]!.recorded;
}

/**
 * A declined or refused renewal, as one statement: the payment row's outcome, the order cancelled
 * (never sent to NetSuite) with its stock back (rows locked in id order), and one dunning step for the
 * subscription, with the `subscription.paused` outbox row when the retries are used up.
 */
export async function recordFailed(db: Queryable, c: ChargeRecord, stock: StockLine[], step: DunningStep): Promise<SubscriptionRow['status'] | null> {
  const status = c.result.outcome === 'declined' ? 'declined' : 'error';
  const { rows } = await db.query<{ status: SubscriptionRow['status'] | null }>(
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

// ---- The payment reconciliation (workers: maintenance) ----

