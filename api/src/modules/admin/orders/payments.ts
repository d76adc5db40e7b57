/** An order's payment rows as the back office shows them (the order's detail, a refund's answer). */
import { centsToDecimal } from '@nh/shared';
import { listOrderPayments, refundableOf, type Db, type OrderPaymentRow } from '@nh/server';
import type { AdminPayment } from '@nh/shared/contracts/refunds';

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

export interface OrderPayments {
  payments: AdminPayment[];
  /** 2-decimal strings. */
  refunded: string;
  refundable: string;
}

/** The order's payment rows, oldest first, with what was given back and what is still refundable. */
export async function orderPayments(db: Db, orderId: string): Promise<OrderPayments> {
  const rows = await listOrderPayments(db, orderId);
  const { refunded, refundable } = refundableOf(rows);
  return { payments: rows.map(toAdminPayment), refunded: centsToDecimal(refunded), refundable: centsToDecimal(refundable) };
}
