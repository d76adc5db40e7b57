/**
 * The payments aggregate. The statements that record a charge's outcome on an order, one statement (one
 * atomic commit) each: used by the API's checkout write path (api/src/modules/checkout) right after the
 * charge, and by the workers' payment reconciliation (workers/src/maintenance/reconcile-payments.ts)
 * for an order whose outcome was never known. Both act only while the order is still `pending`, so a
 * retried statement, or a second writer, never doubles a payment row, an outbox row or a stock release.
 * (The renewals' payment rows are subscriptions/renewal-payments.ts.)
 * Last, the reconciliation's reads: the orders whose outcome is unknown, and its claim of one of them.
 */
import type pg from 'pg';
import { centsToDecimal, toCents, type Cents } from '@nh/shared/money';
import type { SubscriptionInterval } from '@nh/shared/contracts/subscriptions';
import type { Address, LineItem, OrderRow } from '../db/schema';
import { OUTBOX_CHANNEL, outboxInsert, outboxNotify, outboxParam, type OutboxRecord } from './outbox';
import { restockCtes } from './stock';
import type { ChargeOutcome } from '../payments/gateway';

type Queryable = pg.Pool | pg.PoolClient;

const dec = (cents: Cents) => centsToDecimal(cents);

export interface PaymentRecord {
  orderId: string;
  /** The subscription the charge pays for, with the billing period (yyyy-MM-dd) it pays. */
  subscriptionId: string | null;
  billingPeriod: string | null;
  transactionId: string | null;
  invoiceNumber: string;
  amount: Cents;
  status: 'pending' | 'approved' | 'declined' | 'error';
  responseCode: string | null;
  responseMessage: string;
  cardType: string | null;
  lastFour: string | null;
  environment: string;
}

/** The payment row's status for a charge outcome: held for review or unknown stays pending. */
export const PAYMENT_STATUS_OF = { approved: 'approved', held: 'pending', unknown: 'pending', declined: 'declined', error: 'error' } as const satisfies Record<
  ChargeOutcome,
  PaymentRecord['status']
>;

/** The order's status after an accepted charge: paid ('processing'), or pending while held for review. */
export const acceptedOrderStatus = (outcome: ChargeOutcome): 'processing' | 'pending' => (outcome === 'approved' ? 'processing' : 'pending');

export type { OutboxRecord } from './outbox';

/** The idempotency key's stored answer, written with the outcome (null: no key to answer, as for the reconciliation). */
export interface IdempotencyAnswer {
  scope: string;
  key: string;
  status: number;
  body: unknown;
}

/** A Subscribe & Save plan started by an accepted first charge, written in the same statement. */
export interface NewSubscription {
  id: string;
  userId: string;
  customerProfileId: string | null;
  paymentProfileId: string | null;
  customerEmail: string;
  customerName: string;
  items: LineItem[];
  interval: SubscriptionInterval;
  intervalCount: number;
  /** What each period charges. */
  amount: Cents;
  discountPercent: number;
  nextBillingDate: Date;
  shippingAddress: Address;
  /** Consent on record (issue 22): what the shopper agreed to, written beside the plan. */
  consent: NewConsent;
}

/** The consent given at subscribe (the plan's cadence, price and address are the subscription's). */
export interface NewConsent {
  termsVersion: string;
  /** The exact terms text shown, with the server's figures. */
  termsText: string;
  agreedAt: Date;
  userAgent: string | null;
  ipAddress: string | null;
}

/** The row as JSON with the table's column names (read back with jsonb_populate_record). */
const subscriptionRow = (s: NewSubscription) => ({
  id: s.id,
  user_id: s.userId,
  authnet_customer_profile_id: s.customerProfileId,
  authnet_payment_profile_id: s.paymentProfileId,
  customer_email: s.customerEmail,
  customer_name: s.customerName,
  items: s.items,
  interval: s.interval,
  interval_count: s.intervalCount,
  amount: dec(s.amount),
  discount_percent: s.discountPercent,
  next_billing_date: s.nextBillingDate.toISOString(),
  status: 'active',
  shipping_address: s.shippingAddress,
  agreed_amount: dec(s.amount),
});

/** The consent row as JSON with the table's column names. */
const consentRow = (s: NewSubscription) => ({
  subscription_id: s.id,
  terms_version: s.consent.termsVersion,
  terms_text: s.consent.termsText,
  amount_cents: s.amount,
  interval: s.interval,
  interval_count: s.intervalCount,
  agreed_at: s.consent.agreedAt.toISOString(),
  shipping_address: s.shippingAddress,
  user_agent: s.consent.userAgent,
  ip_address: s.consent.ipAddress,
});

/** Inserted only when `ord` (the order's move out of pending) happened, so a retried statement never doubles anything. */
const PAYMENT_INSERT = `insert into payment_transactions (order_id, authnet_transaction_id, invoice_number, amount, status, response_code, response_message, card_type, card_last_four, environment, subscription_id, billing_period)
        select $1::uuid, $2::text, $3::varchar, $4::numeric, $5::payment_status, $6::text, $7::text, $8::text, $9::varchar, $10::text, $11::uuid, $12::text where exists (select 1 from ord)`;

const paymentValues = (p: PaymentRecord) => [p.orderId, p.transactionId, p.invoiceNumber, dec(p.amount), p.status, p.responseCode, p.responseMessage, p.cardType, p.lastFour, p.environment, p.subscriptionId, p.billingPeriod];

/** scope, key, status, body; all null when there is no key (`scope = null` matches no row). */
const answerValues = (a: IdempotencyAnswer | null) => (a ? [a.scope, a.key, a.status, JSON.stringify(a.body)] : [null, null, null, null]);

/**
 * An accepted (or unknown) charge, as one statement and so one atomic commit: the payment row, the
 * order's next status (processing; pending while held for review or unknown), the new subscription
 * when the order starts one (the order and the payment row point at it) with its consent on record, the outbox rows with their
 * NOTIFY (the same contract as `recordOutbox`: validated payloads, the relay's channel), and the
 * idempotency answer. Foreign keys are checked at the statement's end, so the order may point at the
 * subscription inserted beside it.
 */
export async function recordAcceptedPayment(
  db: Queryable,
  p: PaymentRecord,
  orderStatus: 'processing' | 'pending',
  outbox: OutboxRecord[],
  answer: IdempotencyAnswer | null,
  subscription: NewSubscription | null = null,
): Promise<void> {
  const events = outboxParam(outbox);
  await db.query({
    name: 'order_record_accepted_payment',
    text: `with ord as (
        update orders set status = $13, payment_transaction_id = $2, subscription_id = ($14::jsonb->>'id')::uuid, updated_at = now()
        where id = $1 and status = 'pending' returning id),
      sub as (
        insert into subscriptions (id, user_id, authnet_customer_profile_id, authnet_payment_profile_id, customer_email, customer_name, items,
          interval, interval_count, amount, discount_percent, next_billing_date, status, shipping_address, agreed_amount)
        select r.id, r.user_id, r.authnet_customer_profile_id, r.authnet_payment_profile_id, r.customer_email, r.customer_name, r.items,
          r.interval, r.interval_count, r.amount, r.discount_percent, r.next_billing_date, r.status, r.shipping_address, r.agreed_amount
        from jsonb_populate_record(null::subscriptions, $14::jsonb) r where $14::jsonb is not null and exists (select 1 from ord)),
      consent as (
        insert into subscription_consents (subscription_id, terms_version, terms_text, amount_cents, interval, interval_count, agreed_at, shipping_address, user_agent, ip_address)
        select r.subscription_id, r.terms_version, r.terms_text, r.amount_cents, r.interval, r.interval_count, r.agreed_at, r.shipping_address, r.user_agent, r.ip_address
        from jsonb_populate_record(null::subscription_consents, $21::jsonb) r where $21::jsonb is not null and exists (select 1 from ord)),
      pay as (${PAYMENT_INSERT}),
      ob as (${outboxInsert('$15', 'exists (select 1 from ord)')}),
      idem as (update idempotency_keys set status_code = $18, response = $19, completed_at = now() where scope = $16 and key = $17)
      select ${outboxNotify('$15', '$20')}`,
    values: [
      ...paymentValues(p),
      orderStatus,
      subscription ? JSON.stringify(subscriptionRow(subscription)) : null,
      events,
      ...answerValues(answer),
      OUTBOX_CHANNEL,
      subscription ? JSON.stringify(consentRow(subscription)) : null,
    ],
  });
}

/**
 * A charge that failed, as one statement: records the payment row, cancels the order (it never
 * becomes a paid order, nor is it sent to NetSuite), puts its stock back (rows locked in id order,
 * like the reservation), gives back a single-use promo code it spent, and stores the answer.
 */
export async function recordFailedPayment(db: Queryable, p: PaymentRecord, productIds: number[], quantities: number[], answer: IdempotencyAnswer | null): Promise<void> {
  await db.query({
    name: 'order_record_failed_payment',
    text: `with ord as (
        update orders set status = 'cancelled', netsuite_sync_status = 'not_applicable', updated_at = now()
        where id = $1 and status = 'pending' returning id),
      pay as (${PAYMENT_INSERT}),
      ${restockCtes('$13', '$14')},
      promo as (
        update promo_codes set redeemed_at = null, redeemed_order_id = null where redeemed_order_id = $1 and exists (select 1 from ord)),
      idem as (update idempotency_keys set status_code = $17, response = $18, completed_at = now() where scope = $15 and key = $16)
      select 1`,
    values: [...paymentValues(p), productIds, quantities, ...answerValues(answer)],
  });
}

/**
 * A charge row that answers the question, so the order is not ours to settle: any outcome but the
 * pending row of an unknown one (held for review is response code 4; a renewal's row has its period).
 * Only charges count: refunds and voids (kind refund, void) are the back office's, never a charge's outcome.
 */
const SETTLED_PAYMENT = `(p.kind = 'charge' and (p.status <> 'pending' or p.response_code = '4' or p.billing_period is not null))`;

const UNKNOWN_OUTCOME = `o.status = 'pending' and not exists (select 1 from payment_transactions p where p.order_id = o.id and ${SETTLED_PAYMENT})`;

/** A pending order whose charge outcome was never known, as the reconciliation settles it. */
export type UnknownOutcomeOrder = Pick<OrderRow, 'id' | 'total' | 'items' | 'creditApplied'>;

/**
 * Pending orders with an unknown charge outcome, oldest first: older than `afterMinutes` (no charge
 * can still be in flight) and younger than `lookupHours` (the gateway's lookup window), `limit` at most.
 */
export async function findUnknownOutcomes(db: Queryable, window: { afterMinutes: number; lookupHours: number; limit: number }): Promise<UnknownOutcomeOrder[]> {
  // `total`: what the card was asked for (the order's total less its store credit, issue 23).
  const { rows } = await db.query<{ id: string; total: string; items: LineItem[]; credit_applied: string }>(
    `select o.id, (o.total - o.credit_applied)::text as total, o.items, o.credit_applied::text as credit_applied from orders o
     where ${UNKNOWN_OUTCOME}
       and o.created_at < now() - make_interval(mins => $1) and o.created_at >= now() - make_interval(hours => $2)
     order by o.created_at limit $3`,
    [window.afterMinutes, window.lookupHours, window.limit],
  );
  return rows.map((r) => ({ id: r.id, total: toCents(r.total), items: r.items, creditApplied: toCents(r.credit_applied) }));
}

/** How many pending orders with an unknown charge outcome are older than the lookup window (for staff). */
export async function countUnknownOutcomesBeyond(db: Queryable, lookupHours: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from orders o where ${UNKNOWN_OUTCOME} and o.created_at < now() - make_interval(hours => $1)`,
    [lookupHours],
  );
  return rows[0]!.n;
}

/**
 * In the caller's transaction: locks the order while it is still pending, then (the lock ours, read
 * committed: a fresh snapshot, so an outcome written meanwhile is seen) checks that no charge row
 * answers it. Answers false when the order is settled; otherwise deletes the pending charge row of the
 * unknown outcome (replaced by the one recording what the gateway says) and answers true.
 */
export async function claimUnknownOutcome(client: pg.PoolClient, orderId: string): Promise<boolean> {
  const locked = await client.query(`select 1 from orders where id = $1 and status = 'pending' for update`, [orderId]);
  const settled = locked.rowCount ? await client.query(`select 1 from payment_transactions p where p.order_id = $1 and ${SETTLED_PAYMENT} limit 1`, [orderId]) : null;
  if (!settled || settled.rowCount) return false;
  await client.query(`delete from payment_transactions where order_id = $1 and kind = 'charge' and status = 'pending'`, [orderId]);
  return true;
}

