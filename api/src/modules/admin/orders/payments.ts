/** An order's payment rows as the back office shows them (the order's detail, a refund's answer). */
import { centsToDecimal } from '@nh/shared';
import { givenBackOf, listOrderPayments, paymentReturned, refundableOf, type GivenBack, type OrderPaymentRow } from '@nh/server/queries/refunds';
import type { Db } from '@nh/server/db/client';
import { NOT_SHIPPABLE_MESSAGES, type AdminPayment } from '@nh/shared/contracts/refunds';

export function toAdminPayment(row: OrderPaymentRow): AdminPayment {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    amount: centsToDecimal(row.amount),
    cardType: row.cardType,
    lastFour: row.cardLastFour,
    transactionId: row.authnetTransactionId,
    message: row.responseMessage,
    parentId: row.parentId,
    reason: row.reason,
    staffEmail: row.staffEmail,
    restocked: row.restocked,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Why the order may not be marked shipped or delivered, in staff words: its whole payment was voided,
 * refunded, is being refunded, or may have been refunded (a refund's answer lost) (@nh/server paymentReturned).
 * Null when it may.
 */
export function shippingBlockedReason(g: GivenBack): string | null {
  switch (paymentReturned(g)) {
    case 'voided':
      return NOT_SHIPPABLE_MESSAGES.voided;
    case 'refunded':
      return NOT_SHIPPABLE_MESSAGES.refunded(g.captured);
    case 'refunding':
      return NOT_SHIPPABLE_MESSAGES.refunding;
    case 'refund-unconfirmed':
      return NOT_SHIPPABLE_MESSAGES.refundUnconfirmed;
    default:
      return null;
  }
}

export interface OrderPayments {
  payments: AdminPayment[];
  /** 2-decimal strings. */
  refunded: string;
  refundable: string;
  /** Why the order cannot be marked shipped or delivered (null: it can). */
  shippingBlockedReason: string | null;
}

/** The order's payment rows, oldest first, with what was given back and what is still refundable. */
export async function orderPayments(db: Db, orderId: string): Promise<OrderPayments> {
  const rows = await listOrderPayments(db, orderId);
  const { refunded, refundable } = refundableOf(rows);
  return {
    payments: rows.map(toAdminPayment),
    refunded: centsToDecimal(refunded),
    refundable: centsToDecimal(refundable),
    shippingBlockedReason: shippingBlockedReason(givenBackOf(rows)),
  };
}
