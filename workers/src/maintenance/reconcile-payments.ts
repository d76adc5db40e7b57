/**
 * maintenance: the payment reconciliation, every 10 minutes. A checkout whose charge outcome is unknown
 * (gateway timeout, dropped connection) leaves its order `pending` with its stock; so does an API
 * process that died between the reservation and recording the outcome (no payment row at all). Here
 * each such order is settled from the gateway's own record of its invoice number (`findCharge`):
 *
 * - approved or held for review → the API's statement for an accepted charge (payment row, order
 *   processing / still pending while held, outbox `order.placed` with its NOTIFY: NetSuite sync and
 *   the confirmation email);
 * - declined, refused, or no charge on record → the API's failed-payment statement (order cancelled,
 *   stock back, a single-use promo code given back, a payment row saying why);
 * - a lookup that fails → the order waits for the next run.
 *
 * Taken: `pending` orders older than PAYMENT_RECONCILE_AFTER_MINUTES (well past the API's gateway
 * timeout, so no charge for them can still be in flight) and younger than CHARGE_LOOKUP_HOURS (past
 * that, "no record" no longer proves "no charge": staff decide; the run counts them), with no payment
 * row or only the pending row of an unknown outcome. A row held for review (response code 4) is staff's,
 * and a renewal's period row (billing_period) is the renewals worker's: such orders are never taken.
 *
 * No gateway call holds a lock. The outcome is written in one transaction that locks the order row and
 * re-reads its payment rows first; the statements themselves act only on a `pending` order. So a late
 * API write and this job never both win: whichever commits second finds the order settled.
 */
import type { Job } from 'bullmq';
import { z } from 'zod';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import type { ErrorCode } from '@nh/shared/contracts/errors';
import { stockByProduct } from '@nh/shared';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { findCheckoutKeyAwaitingOutcome } from '@nh/server/queries/idempotency';
import {
  acceptedOrderStatus,
  claimUnknownOutcome,
  countUnknownOutcomesBeyond,
  findUnknownOutcomes,
  PAYMENT_STATUS_OF,
  recordAcceptedPayment,
  recordFailedPayment,
  type IdempotencyAnswer,
  type PaymentRecord,
  type UnknownOutcomeOrder,
} from '@nh/server/queries/payments';
import { inPoolTransaction, type PoolConnection } from '@nh/server/queries/transaction';
import { CHARGE_LOOKUP_HOURS, isAcceptedCharge, orderInvoiceNumber, type FoundCharge, type PaymentGateway } from '@nh/server/payments';
import { defineJob } from '../jobs/define';

/** Orders looked at per run (oldest first); the rest wait ten minutes. */
export const RECONCILE_BATCH = 100;

/** The payment row's message when the gateway has no charge for the order. */
export const NO_CHARGE_MESSAGE = 'No charge was made.';

export interface PaymentReconcileResult {
  /** Orders looked up at the gateway. */
  checked: number;
  /** Settled as paid (approved, or held for review). */
  paid: number;
  cancelled: number;
  /** Left for the next run (lookup failed) or found settled meanwhile. */
  left: number;
  /** Pending with an unknown outcome but older than the lookup window: for staff. */
  beyondWindow: number;
}

type Settlement = 'paid' | 'cancelled' | 'left';

/** What a retry of a reconciled checkout is told when the charge was not taken. */
export const NOT_TAKEN_ANSWER = `Your payment did not go through, so the order was cancelled. ${CHECKOUT_MESSAGES.paymentFailed}`;

/**
 * The answer a retry of the checkout gets, for the idempotency key that reserved this order while it
 * still awaits the outcome (unfinished, or the 502 "We could not confirm your payment"; null when the
 * key has another answer or is gone): the order id when the charge was taken (the same answer as the
 * API's; for a Subscribe & Save attempt only the order, since no plan was written), else a 402 with the
 * reason.
 */
async function finalAnswer(client: PoolConnection, orderId: string, accepted: boolean, charge: FoundCharge | null): Promise<IdempotencyAnswer | null> {
  const key = await findCheckoutKeyAwaitingOutcome(client, orderId);
  if (!key) return null;
  if (accepted) return { ...key, status: 200, body: { orderId } };
  const reason = charge?.outcome === 'declined' ? `${charge.message} ` : '';
  const message = `${reason}${NOT_TAKEN_ANSWER}`;
  // The API's own decline answer's shape ({ message, code, responseMessage }), with the order it cancelled.
  const code: ErrorCode = 'PAYMENT_DECLINED';
  return { ...key, status: 402, body: { message, code, responseMessage: message, orderId } };
}

/** Writes the outcome under the order's row lock, unless someone settled it meanwhile. */
async function settle(db: Db, order: UnknownOutcomeOrder, charge: FoundCharge | null, environment: string): Promise<Settlement> {
  const invoiceNumber = orderInvoiceNumber(order.id);
  const accepted = charge !== null && isAcceptedCharge(charge.outcome);
  return inPoolTransaction(db, async (client): Promise<Settlement> => {
    if (!(await claimUnknownOutcome(client, order.id))) return 'left';
    const payment: PaymentRecord = {
      orderId: order.id,
      subscriptionId: null,
      billingPeriod: null,
      transactionId: charge?.transactionId ?? null,
      invoiceNumber,
      amount: accepted ? (charge.amount ?? order.total) : order.total,
      status: charge ? PAYMENT_STATUS_OF[charge.outcome] : 'error',
      responseCode: charge?.responseCode ?? null,
      responseMessage: charge?.message ?? NO_CHARGE_MESSAGE,
      cardType: charge?.cardType ?? null,
      lastFour: charge?.lastFour ?? null,
      environment: charge?.environment ?? environment,
    };
    // The checkout's idempotency key gets the final answer in the same commit, whether the API died
    // before answering (unfinished: a retry would wait, then get 409) or answered 502 because the
    // charge's outcome was not known: a retry with that key learns the outcome instead.
    const answer = await finalAnswer(client, order.id, accepted, charge);
    if (accepted) {
      await recordAcceptedPayment(client, payment, acceptedOrderStatus(charge.outcome), [{ topic: OUTBOX_TOPICS.orderPlaced, payload: { orderId: order.id } }], answer);
    } else {
      const { productIds, quantities } = stockByProduct(order.items);
      await recordFailedPayment(client, payment, productIds, quantities, answer);
    }
    return accepted ? 'paid' : 'cancelled';
  });
}

/** An order store credit paid in full: approved, nothing asked of the gateway. */
const paidByCredit = (environment: FoundCharge['environment']): FoundCharge => ({
  outcome: 'approved',
  responseCode: null,
  message: CHECKOUT_MESSAGES.paidByCredit,
  errorCode: null,
  transactionId: null,
  cardType: null,
  lastFour: null,
  duplicate: false,
  profile: null,
  environment,
  amount: 0,
});

export interface PaymentReconcileDeps {
  db: Db;
  gateway: PaymentGateway | null;
  log: Logger;
  afterMinutes: number;
}

export function createPaymentReconcileProcessor({ db, gateway, log, afterMinutes }: PaymentReconcileDeps) {
  return async function reconcilePayments(job: Job): Promise<PaymentReconcileResult> {
    const result: PaymentReconcileResult = { checked: 0, paid: 0, cancelled: 0, left: 0, beyondWindow: 0 };
    if (!gateway) {
      log.warn({ jobId: job.id, queue: 'maintenance' }, 'payment reconciliation skipped: card payments are not configured');
      return result;
    }
    const orders = await findUnknownOutcomes(db.$client, { afterMinutes, lookupHours: CHARGE_LOOKUP_HOURS, limit: RECONCILE_BATCH });
    for (const order of orders) {
      result.checked++;
      const invoiceNumber = orderInvoiceNumber(order.id);
      let charge: FoundCharge | null;
      try {
        // Store credit paid all of it (issue 23): no card was to be charged; the API died before recording it.
        charge = order.total === 0 && order.creditApplied > 0 ? paidByCredit(gateway.environment) : await gateway.findCharge(invoiceNumber);
      } catch (error) {
        result.left++;
        log.warn({ orderId: order.id, invoiceNumber, err: error }, 'payment lookup failed; the order waits for the next reconciliation');
        continue;
      }
      if (charge?.outcome === 'unknown') {
        result.left++;
        continue;
      }
      let settlement: Settlement;
      try {
        settlement = await settle(db, order, charge, gateway.environment);
      } catch (error) {
        result.left++;
        log.error({ orderId: order.id, invoiceNumber, outcome: charge?.outcome ?? 'none', err: error }, 'could not record a reconciled payment; the order waits for the next reconciliation');
        continue;
      }
      result[settlement]++;
      const facts = { orderId: order.id, invoiceNumber, outcome: charge?.outcome ?? 'no charge', transactionId: charge?.transactionId ?? null };
      if (settlement === 'paid') {
        // The order may have been meant to start a Subscribe & Save plan: nothing here tells (the plan is
        // only written with an accepted first charge), so staff must check and set it up.
        const amount = charge?.amount ?? null;
        log.warn(
          { ...facts, amount, total: order.total, amountDiffers: amount !== null && amount !== order.total },
          'payment reconciled as taken: the order goes ahead; if it was to start a Subscribe & Save plan, staff must set the plan up',
        );
      } else if (settlement === 'cancelled') {
        log.info(facts, 'payment reconciled as not taken: order cancelled, stock given back');
      }
    }
    result.beyondWindow = await countUnknownOutcomesBeyond(db.$client, CHARGE_LOOKUP_HOURS);
    if (result.beyondWindow) log.warn({ beyondWindow: result.beyondWindow, hours: CHARGE_LOOKUP_HOURS }, 'pending orders with an unknown payment outcome are older than the gateway lookup window: staff must reconcile them');
    log.info({ jobId: job.id, queue: 'maintenance', ...result }, 'payment reconciliation done');
    return result;
  };
}

/** Every 10 minutes: pending orders whose charge outcome was never known are settled from the gateway's records. */
export const reconcilePaymentsJob = defineJob({
  name: 'reconcile-payments',
  queue: 'maintenance',
  payload: z.object({}).passthrough(),
  schedule: { id: 'maintenance-reconcile-payments', pattern: '*/10 * * * *' },
  handler: ({ db, gateway, log, config }) => createPaymentReconcileProcessor({ db, gateway, log, afterMinutes: config.PAYMENT_RECONCILE_AFTER_MINUTES }),
});
