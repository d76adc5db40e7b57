/** The order's payment rows (its charge, then each refund or void) and what can still be refunded. */
import { formatPrice } from '@nh/shared';
import { formatOrderDate, type AdminOrder } from '@nh/shared/contracts/admin';
import { PAYMENT_KIND_LABELS, PAYMENT_STATUS_LABELS, type AdminPayment } from '@nh/shared/contracts/refunds';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { cardEnding } from '@nh/shared/cards';

const STATUS_STYLES: Record<AdminPayment['status'], string> = {
  pending: 'bg-amber-100 text-amber-900',
  approved: 'bg-green-100 text-green-900',
  declined: 'bg-red-100 text-red-900',
  error: 'bg-red-100 text-red-900',
  refunded: 'bg-stone-100 text-stone-800',
};

function PaymentRow({ payment }: { payment: AdminPayment }) {
  const card = cardEnding(payment.cardType, payment.lastFour);
  const givenBack = payment.kind !== 'charge';
  return (
    <li className="grid gap-1 py-2" data-testid={`payment-${payment.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{PAYMENT_KIND_LABELS[payment.kind]}</span>
          <Badge variant="outline" className={cn('border-transparent', STATUS_STYLES[payment.status])}>
            {PAYMENT_STATUS_LABELS[payment.status]}
          </Badge>
        </span>
        <span className="font-semibold tabular-nums">
          {givenBack ? '-' : ''}
          {formatPrice(payment.amount)}
        </span>
      </div>
      <p className="text-xs text-stone-500">
        {formatOrderDate(payment.createdAt)}
        {card && ` · ${card}`}
        {payment.staffEmail && <span className="break-all"> · by {payment.staffEmail}</span>}
        {payment.restocked && ' · items back in stock'}
      </p>
      {payment.reason && <p className="whitespace-pre-wrap break-words text-stone-700">{payment.reason}</p>}
      {payment.message && (payment.status !== 'approved' || givenBack) && <p className={cn('text-xs', payment.status === 'approved' ? 'text-stone-500' : 'text-red-700')}>{payment.message}</p>}
      {payment.transactionId && <p className="break-all font-mono text-xs text-stone-500">Transaction {payment.transactionId}</p>}
    </li>
  );
}

export function OrderPayments({ order }: { order: Pick<AdminOrder, 'payments' | 'refundable'> }) {
  if (order.payments.length === 0) return null;
  const charged = order.payments.some((p) => p.kind === 'charge' && p.status === 'approved');
  return (
    <div className="grid gap-2">
      <ul className="divide-y divide-stone-200" aria-label="Payments">
        {order.payments.map((payment) => (
          <PaymentRow key={payment.id} payment={payment} />
        ))}
      </ul>
      {charged && (
        <p className="flex justify-between gap-4 border-t border-stone-200 pt-2" data-testid="refundable">
          <span>{order.refundable === '0.00' ? 'Nothing left to refund' : 'Can still be refunded'}</span>
          <span className="font-semibold tabular-nums">{formatPrice(order.refundable)}</span>
        </p>
      )}
    </div>
  );
}
