/**
 * Refunds and voids of an order's charge (POST /api/admin/orders/{id}/refunds; docs/decisions/refunds.md).
 *
 * 1. The charge and the request's key: a repeat of an earlier request (same Idempotency-Key for this
 *    charge) answers that request's refund instead of making another.
 * 2. The gateway says where the charge stands (`settlementOf`, no lock held): not settled yet → a VOID,
 *    of the whole amount only; settled → a REFUND of any part of what is left.
 * 3. Reserve: one transaction locks the order and its charge row, sums what was given back or is being
 *    given back, refuses anything above what is left, and inserts the pending refund row with the key.
 *    So concurrent refunds never give back more than was captured.
 * 4. The gateway call, outside any transaction; after no answer it asks once more with the same
 *    invoice number (a refund) or transaction (a void): a duplicate answer then means the first went through.
 * 5. Record: the row's outcome, the stock put back (restock), the audit row and, when approved, the
 *    NetSuite sync's request (`order.refunded` outbox row: the refund's credit memo, or the sales order
 *    closed), in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { centsToDecimal, stockByProduct } from '@nh/shared';
import type { Db, DbOrTx } from '@nh/server/db/client';
import type { LineItem } from '@nh/server/db/schema';
import type { Logger } from '@nh/server/observability/logger';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { findStoreOrder } from '@nh/server/queries/order-detail';
import { paymentInFlight } from '@nh/server/queries/payment-in-flight';
import {
  findOrderCharge,
  findRefundByKey,
  insertPendingRefund,
  lineRestocksOf,
  lockOrderCharge,
  orderPricingForRefund,
  refundedLines,
  recordRefundOutcome,
  type OrderCharge,
  type PaymentRow,
  type RefundKind,
} from '@nh/server/queries/refunds';
import { recordOutbox } from '@nh/server/queries/outbox';
import { restock } from '@nh/server/queries/stock';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { orderCreditFacts } from '@nh/server/queries/store-credit';
import { requestRefundSync } from '@nh/server/queries/sync';
import { REFUND_GATEWAY_MESSAGES, failedRefund, refundInvoiceNumber, type PaymentGateway, type RefundResult } from '@nh/server/payments';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import {
  notRefundableMessage,
  partialUnsettledMessage,
  REFUND_LINE_MESSAGES,
  REFUND_MESSAGES,
  refundTooLargeMessage,
  SETTLED_MEANWHILE_MESSAGE,
  type RefundRequest as RefundRequestBody,
  type RefundResponse,
} from '@nh/shared/contracts/refunds';
import { AppError } from '../../../lib/errors';
import type { IdempotencyMessages } from '../../../lib/idempotency';
import { orderPayments, toAdminPayment } from './payments';
import { planLineRefund } from './refund-lines';

/**
 * What staff ask for: the amount in cents and whether the items go back in stock, or (issue 23) lines
 * and the shipping, each line restocked or not; the reason; whether the shopper is told.
 */
export type RefundRequest = Omit<RefundRequestBody, 'storeCode'>;

/** A refund by line (its amount worked out by the server) rather than by amount. */
export const byLine = (input: Pick<RefundRequest, 'lines' | 'includeShipping'>): boolean => input.lines !== undefined || input.includeShipping !== undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const REFUND_IDEMPOTENCY_MESSAGES: IdempotencyMessages = {
  missing: REFUND_MESSAGES.idempotencyKeyMissing,
  invalid: REFUND_MESSAGES.idempotencyKeyInvalid,
  reused: REFUND_MESSAGES.idempotencyKeyReused,
  inProgress: REFUND_MESSAGES.idempotencyInProgress,
};

/** How long a repeat waits for the first request's refund to be answered by the gateway. */
const REPEAT_WAIT_MS = 10_000;

export interface RefundDeps {
  db: Db;
  /** Null when card payments are not configured. */
  gateway: PaymentGateway | null;
  log: Logger;
  /** Clears the catalogue's caches after stock moved. */
  invalidateCatalog: () => void;
}

export interface RefundAnswer {
  status: number;
  body: RefundResponse;
  /** The answer of an earlier request with the same key. */
  replayed: boolean;
}

/** Refunds (after settlement) or voids (before) an order's charge. Refusals are AppErrors with their codes. */
export async function refundOrder(deps: RefundDeps, storeCode: string, orderId: string, input: RefundRequest, key: string, actor: AuditActor): Promise<RefundAnswer> {
  const { db, gateway } = deps;
  if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  if (!(await findStoreOrder(db, storeCode, orderId))) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  const charge = await findOrderCharge(db, orderId);
  if (!charge) throw new AppError('REFUND_NO_CHARGE', REFUND_MESSAGES.noCharge);

  const earlier = await findRefundByKey(db, charge.id, key);
  if (earlier) return replay(deps, earlier, input);
  if (!gateway) throw new AppError('PAYMENTS_UNAVAILABLE', REFUND_MESSAGES.paymentsUnavailable);
  const transactionId = charge.authnetTransactionId;
  if (!transactionId) throw new AppError('REFUND_NOT_POSSIBLE', REFUND_MESSAGES.notFoundAtGateway);

  // Where the charge stands decides between a void and a refund (asked without holding any lock).
  const settlement = await gateway.settlementOf(transactionId).catch((error: unknown) => {
    deps.log.warn({ orderId, transactionId, err: error }, 'refund: the charge could not be looked up at the payment service');
    throw new AppError('PAYMENTS_UNAVAILABLE', REFUND_MESSAGES.gatewayUnavailable);
  });
  if (settlement.state === 'not-found') throw new AppError('REFUND_NOT_POSSIBLE', REFUND_MESSAGES.notFoundAtGateway);
  if (settlement.state === 'closed') throw new AppError('REFUND_NOT_POSSIBLE', notRefundableMessage(settlement.status), { gatewayStatus: settlement.status });
  const kind: RefundKind = settlement.state === 'unsettled' ? 'void' : 'refund';
  const lastFour = charge.cardLastFour ?? settlement.lastFour;
  if (kind === 'refund' && !lastFour) throw new AppError('REFUND_NOT_POSSIBLE', 'The card of this payment is not known, so it cannot be refunded here. Refund it in the payment service.');

  const reserved = await reserve(db, { storeCode, orderId, charge, kind, input, key, actor, environment: gateway.environment });
  if (reserved.kind === 'replay') return replay(deps, reserved.row, input);
  const refund = reserved.row;

  const result =
    kind === 'void'
      ? await giveBackOnce(gateway, () => gateway.voidCharge(transactionId))
      : await giveBackOnce(gateway, () => gateway.refund({ transactionId, amount: refund.amount, lastFour: lastFour!, invoiceNumber: refund.invoiceNumber! }));
  let message = result.message;
  if (kind === 'void' && (result.outcome === 'declined' || result.outcome === 'error')) {
    // The daily settlement may have come between the lookup and the void: say so, so staff simply refund again.
    const now = await gateway.settlementOf(transactionId).catch(() => null);
    if (now?.state === 'settled') message = SETTLED_MEANWHILE_MESSAGE;
  }

  const recorded = await record(deps, { storeCode, orderId, refund, kind, input, result, message, actor });
  if (recorded?.restocked) deps.invalidateCatalog();
  const row = recorded ?? (await findRefundByKey(db, charge.id, key))!;
  if (result.errorCode === 'E00007') {
    deps.log.error({ orderId }, 'Authorize.Net refused our credentials (E00007): check AUTHNET_API_LOGIN_ID and AUTHNET_TRANSACTION_KEY');
    throw new AppError('PAYMENTS_UNAVAILABLE', REFUND_MESSAGES.gatewayUnavailable);
  }
  return answerFor(db, row, false);
}

interface Reservation {
  storeCode: string;
  orderId: string;
  charge: OrderCharge;
  kind: RefundKind;
  input: RefundRequest;
  key: string;
  actor: AuditActor;
  environment: string;
}

/**
 * The pending refund row, written under the order's and the charge's row locks after checking the
 * amount against what is left; or the row of a request with the same key that got there first.
 */
async function reserve(db: Db, r: Reservation): Promise<{ kind: 'reserved' | 'replay'; row: PaymentRow }> {
  return db.transaction(async (tx) => {
    const locked = await lockOrderCharge(tx, r.orderId, r.storeCode);
    if (!locked) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
    if (!locked.charge || locked.charge.id !== r.charge.id) throw new AppError('REFUND_NO_CHARGE', REFUND_MESSAGES.noCharge);
    const again = await findRefundByKey(tx, r.charge.id, r.key);
    if (again) return { kind: 'replay' as const, row: again };

    const captured = locked.charge.amount;
    const givenBack = locked.refunded + locked.pending;
    // Store credit (issue 23): what was refunded to credit counts too, beyond what credit itself paid,
    // so card and credit refunds together never give back more than the order was paid.
    const credit = await orderCreditFacts(tx, r.orderId);
    const left = Math.min(captured - givenBack, captured + credit.applied - givenBack - credit.refundedToCredit);
    if (left <= 0) throw new AppError('REFUND_TOO_LARGE', REFUND_MESSAGES.nothingLeft, { refundable: '0.00' });
    // A refund by line (issue 23): the amount is what was paid for those items (and the shipping), never
    // more of a line than earlier refunds (approved or in flight, read under the same locks) left of it.
    const lines = byLine(r.input) ? await lineRefundUnderLock(tx, r.orderId, r.input, locked) : null;
    const amount = lines ? lines.amount : r.input.amount!;
    if (amount > left) throw new AppError('REFUND_TOO_LARGE', refundTooLargeMessage(left, captured, givenBack), { refundable: centsToDecimal(left) });
    if (r.kind === 'void' && amount !== left) throw new AppError('REFUND_PARTIAL_UNSETTLED', partialUnsettledMessage(captured), { refundable: centsToDecimal(left) });
    if (r.input.restock && (locked.order.status === 'cancelled' || locked.restocked || (await lineRestocksOf(tx, r.orderId)).size > 0))
      throw new AppError('REFUND_ALREADY_RESTOCKED', REFUND_MESSAGES.alreadyRestocked);

    const id = randomUUID();
    const row = await insertPendingRefund(tx, {
      id,
      kind: r.kind,
      orderId: r.orderId,
      charge: r.charge,
      amount,
      invoiceNumber: refundInvoiceNumber(id),
      reason: r.input.reason,
      staffId: r.actor.staffId,
      idempotencyKey: r.key,
      restock: r.input.restock === true,
      environment: r.environment,
      lines: lines?.parts ?? null,
      shipping: lines?.shipping ?? 0,
    });
    if (row) return { kind: 'reserved' as const, row };
    return { kind: 'replay' as const, row: (await findRefundByKey(tx, r.charge.id, r.key))! };
  });
}

/** A refund by line's amount and parts, checked under the order's lock (restocking a line is refused once the whole order went back). */
async function lineRefundUnderLock(tx: DbOrTx, orderId: string, input: RefundRequest, locked: { order: { status: string }; restocked: boolean }) {
  const pricing = await orderPricingForRefund(tx, orderId);
  if (!pricing) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  const restocking = (input.lines ?? []).some((l) => l.restock);
  if (restocking && locked.order.status === 'cancelled') throw new AppError('REFUND_ALREADY_RESTOCKED', REFUND_LINE_MESSAGES.restockCancelled);
  if (restocking && locked.restocked) throw new AppError('REFUND_ALREADY_RESTOCKED', REFUND_MESSAGES.alreadyRestocked);
  return planLineRefund(pricing, await refundedLines(tx, orderId), input.lines ?? [], input.includeShipping === true);
}

/**
 * Gives back once. When no answer came it asks once more the same way: a duplicate answer (error 11
 * for the refund's invoice number, 310 for a void) then means the first attempt went through.
 */
async function giveBackOnce(gateway: PaymentGateway, call: () => Promise<RefundResult>): Promise<RefundResult> {
  const attempt = () => call().catch(() => failedRefund(gateway.environment, 'unknown', REFUND_GATEWAY_MESSAGES.unknown, 'exception'));
  const asApproved = (r: RefundResult): RefundResult => ({ ...r, outcome: 'approved', errorCode: null, message: REFUND_GATEWAY_MESSAGES.approved });
  const first = await attempt();
  if (first.duplicate) return asApproved(first);
  if (first.outcome !== 'unknown') return first;
  const second = await attempt();
  if (second.duplicate) return asApproved(second);
  if (second.outcome === 'approved' || second.outcome === 'declined') return second;
  return first;
}

interface Outcome {
  storeCode: string;
  orderId: string;
  refund: PaymentRow;
  kind: RefundKind;
  input: RefundRequest;
  result: RefundResult;
  message: string;
  actor: AuditActor;
}

const STATUS_OF = { approved: 'approved', declined: 'declined', error: 'error', unknown: 'pending' } as const;

/**
 * The gateway's answer, in one transaction under the order's and the charge's locks: the refund row,
 * the items back in stock (an approved refund that asked for it, unless the order was cancelled
 * meanwhile, which restocked it), the audit row with the refunded total before and after, and, for an
 * approved one, the NetSuite sync's request (outbox, so it is sent at least once).
 * Null when the row was recorded already.
 */
async function record(deps: RefundDeps, o: Outcome): Promise<PaymentRow | null> {
  const approved = o.result.outcome === 'approved';
  return deps.db.transaction(async (tx) => {
    const locked = await lockOrderCharge(tx, o.orderId, o.storeCode);
    const mayRestock = approved && locked !== null && locked.order.status !== 'cancelled';
    const restocks = mayRestock && o.input.restock === true;
    // A refund by line: each line's items go back when asked, approved, and the order not cancelled meanwhile.
    const lines = o.refund.refundLines?.map((part) => ({ ...part, restock: part.restock && mayRestock })) ?? null;
    const row = await recordRefundOutcome(tx, {
      refundId: o.refund.id,
      status: STATUS_OF[o.result.outcome],
      transactionId: o.result.transactionId,
      responseCode: o.result.responseCode ?? o.result.errorCode,
      message: o.message,
      restocked: restocks,
      ...(lines ? { refundLines: lines } : {}),
    });
    if (!row) return null;
    if (restocks && locked) await restock(tx, stockLines(locked.order.items));
    const lineRestocks = lines && locked ? lines.filter((l) => l.restock).map((l) => ({ ...locked.order.items[l.line]!, quantity: l.quantity })) : [];
    if (lineRestocks.length) await restock(tx, stockLines(lineRestocks));
    if (approved) {
      const before = locked?.refunded ?? 0;
      await recordAudit(tx, o.actor, {
        action: 'order.refunded',
        entityType: 'order',
        entityId: o.orderId,
        before: { refunded: centsToDecimal(before) },
        after: {
          refunded: centsToDecimal(before + o.refund.amount),
          kind: o.kind,
          amount: centsToDecimal(o.refund.amount),
          reason: o.input.reason,
          restocked: restocks,
          ...(lines ? { lines, shipping: centsToDecimal(o.refund.refundShipping) } : {}),
          notified: o.input.notify,
        },
      });
      await requestRefundSync(tx, o.orderId, o.refund.id);
      // Issue 23: the shopper's refund email, unless staff unticked "Notify the customer".
      if (o.input.notify) await recordOutbox(tx, OUTBOX_TOPICS.orderRefundNotice, { orderId: o.orderId, paymentId: o.refund.id });
    }
    return row;
  });
}

const stockLines = (items: LineItem[]) => {
  const { productIds, quantities } = stockByProduct(items);
  return productIds.map((productId, i) => ({ productId, quantity: quantities[i]! }));
};

/**
 * A repeat of an earlier request (same key for this charge): the same refund's answer, once the
 * gateway answered it (waiting a little while it is in flight). A different amount or reason under
 * the same key is refused.
 */
async function replay(deps: RefundDeps, row: PaymentRow, input: RefundRequest): Promise<RefundAnswer> {
  if (!sameRequest(row, input)) throw new AppError('IDEMPOTENCY_KEY_REUSED', REFUND_MESSAGES.idempotencyKeyReused);
  let current = row;
  const deadline = Date.now() + REPEAT_WAIT_MS;
  // A pending row without the gateway's words is still being sent; with them, its answer was lost.
  for (let delay = 25; paymentInFlight(current); delay = Math.min(delay * 2, 250)) {
    if (Date.now() >= deadline) throw new AppError('IDEMPOTENCY_IN_PROGRESS', REFUND_MESSAGES.idempotencyInProgress);
    await new Promise((resolve) => setTimeout(resolve, delay));
    current = (await findRefundByKey(deps.db, row.parentId!, row.idempotencyKey!)) ?? current;
  }
  return answerFor(deps.db, current, true);
}

/** Whether a repeat asks for the same refund as the row's: the same amount, or the same lines and shipping; the same reason. */
function sameRequest(row: PaymentRow, input: RefundRequest): boolean {
  if (row.reason !== input.reason) return false;
  if (!byLine(input)) return row.refundLines === null && row.amount === input.amount;
  const asked = (input.lines ?? []).map((l) => `${l.line}:${l.quantity}`).sort().join(',');
  const had = (row.refundLines ?? []).map((l) => `${l.line}:${l.quantity}`).sort().join(',');
  return row.refundLines !== null && asked === had && (input.includeShipping === true) === row.refundShipping > 0;
}

/** The answer a refund row gives: 201 with the row and the totals, or its refusal. */
async function answerFor(db: Db, row: PaymentRow, replayed: boolean): Promise<RefundAnswer> {
  if (row.status === 'declined' || row.status === 'error') {
    throw new AppError('REFUND_DECLINED', row.responseMessage || 'The payment service refused the refund.', { responseMessage: row.responseMessage, refundId: row.id });
  }
  if (row.status === 'pending') throw new AppError('PAYMENT_OUTCOME_UNKNOWN', REFUND_MESSAGES.outcomeUnknown, { refundId: row.id });
  const { payments, refunded, refundable } = await orderPayments(db, row.orderId!);
  const payment = payments.find((p) => p.id === row.id) ?? toAdminPayment({ ...row, staffEmail: null });
  return { status: 201, body: { payment, refunded, refundable }, replayed };
}
