/**
 * A refund given as store credit (POST /api/admin/orders/{id}/refunds with `method: 'credit'`; issue 23,
 * docs/decisions/store-credit.md): no payment service is asked; the amount goes onto the ledger of the
 * order's account, in one transaction under the order's and the charge's locks (the card refunds'
 * order, so the two never pass each other), with the audit row. Never more than was paid (card and
 * credit) less everything given back (card refunds and voids, approved or pending, and refunds to
 * credit). The Idempotency-Key makes a repeat answer the first refund (the ledger's reference).
 */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { lockOrderCharge } from '@nh/server/queries/refunds';
import { creditBalance, creditReferenceUsed, findCreditEntry, moveCreditInTx, orderAccount, orderCreditFacts } from '@nh/server/queries/store-credit';
import { centsToDecimal } from '@nh/shared/money';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { REFUND_LINE_MESSAGES, REFUND_MESSAGES, refundTooLargeMessage, type CreditRefundResponse, type RefundRequest as RefundRequestBody } from '@nh/shared/contracts/refunds';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { recordOutbox } from '@nh/server/queries/outbox';
import { AppError } from '../../../lib/errors';

export type CreditRefundRequest = Omit<RefundRequestBody, 'storeCode'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CreditRefundAnswer {
  status: number;
  body: CreditRefundResponse;
  replayed: boolean;
}

export async function refundToCredit(db: Db, storeCode: string, orderId: string, input: CreditRefundRequest, key: string, actor: AuditActor): Promise<CreditRefundAnswer> {
  if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  if (input.lines !== undefined || input.includeShipping !== undefined)
    throw new AppError('VALIDATION_FAILED', REFUND_LINE_MESSAGES.creditByLine, { fields: { lines: REFUND_LINE_MESSAGES.creditByLine } });
  const amount = input.amount!;
  if (input.restock) throw new AppError('VALIDATION_FAILED', REFUND_MESSAGES.creditNoRestock, { fields: { restock: REFUND_MESSAGES.creditNoRestock } });

  const done = await db.transaction(async (tx) => {
    const locked = await lockOrderCharge(tx, orderId, storeCode);
    if (!locked) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
    const userId = await orderAccount(tx, orderId);
    if (!userId) throw new AppError('CREDIT_NO_ACCOUNT', REFUND_MESSAGES.creditNoAccount);
    const credit = await orderCreditFacts(tx, orderId);
    const paid = (locked.charge?.amount ?? 0) + credit.applied;
    const givenBack = locked.refunded + locked.pending + credit.refundedToCredit;
    const left = paid - givenBack;

    const reference = `refund:${orderId}:${key}`;
    if (paid <= 0) throw new AppError('REFUND_NO_CHARGE', REFUND_MESSAGES.nothingPaid);
    // A repeat of this key answers the first refund (the ledger finds its reference before any check).
    if (!(await creditReferenceUsed(tx, reference))) {
      if (left <= 0) throw new AppError('REFUND_TOO_LARGE', REFUND_MESSAGES.nothingLeft, { refundable: '0.00' });
      if (amount > left) throw new AppError('REFUND_TOO_LARGE', refundTooLargeMessage(left, paid, givenBack), { refundable: centsToDecimal(left) });
    }
    const entry = await moveCreditInTx(tx, { userId, kind: 'refund', amount, reason: input.reason, staffId: actor.staffId, orderId, subscriptionId: null, reference });
    if (!entry.replayed) {
      await recordAudit(tx, actor, {
        action: 'order.refunded',
        entityType: 'order',
        entityId: orderId,
        before: { refunded: centsToDecimal(givenBack) },
        after: { refunded: centsToDecimal(givenBack + amount), kind: 'credit', amount: centsToDecimal(amount), reason: input.reason, restocked: false, notified: input.notify },
      });
      // Issue 23: the shopper's refund email, unless staff unticked "Notify the customer".
      if (input.notify) await recordOutbox(tx, OUTBOX_TOPICS.orderRefundNotice, { orderId, creditEntryId: String(entry.entryId) });
    }
    return { entry, userId, paid, givenBack: entry.replayed ? givenBack : givenBack + amount };
  });

  const row = (await findCreditEntry(db.$client, done.entry.entryId))!;
  if (done.entry.replayed && (row.amount !== amount || row.reason !== input.reason)) throw new AppError('IDEMPOTENCY_KEY_REUSED', REFUND_MESSAGES.idempotencyKeyReused);
  const balance = await creditBalance(db.$client, done.userId);
  return {
    status: 201,
    replayed: done.entry.replayed,
    body: {
      method: 'credit',
      amount: centsToDecimal(row.amount),
      balance: centsToDecimal(balance),
      refunded: centsToDecimal(done.givenBack),
      refundable: centsToDecimal(Math.max(0, done.paid - done.givenBack)),
    },
  };
}
