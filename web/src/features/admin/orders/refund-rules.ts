/** The refund form's rules: what was captured, what is left, whether the items can go back in stock, the form's problems. */
import { parseCents } from '@nh/shared';
import type { AdminOrder } from '@nh/shared/contracts/admin';
import { refundRequestSchema, refundTooLargeMessage, type AdminPayment } from '@nh/shared/contracts/refunds';
import type { RefundBody } from './refund-attempt';

/** What was captured and what is left, in cents (from the order's payment rows). */
export function refundFigures(order: Pick<AdminOrder, 'payments' | 'refundable'>) {
  const charge = order.payments.find((p) => p.kind === 'charge' && p.status === 'approved');
  const captured = charge ? (parseCents(charge.amount) ?? 0) : 0;
  const refundable = parseCents(order.refundable) ?? 0;
  return { charge, captured, refundable, givenBack: Math.max(0, captured - refundable) };
}

/** A refund of the order put its items back in stock (or will, while it is pending): they go back only once. */
export const restockedByRefund = (payments: AdminPayment[]): boolean =>
  payments.some((p) => p.kind !== 'charge' && p.restocked && (p.status === 'approved' || p.status === 'pending'));

/** Why the items cannot go back in stock with this refund (they already are), or null. */
export function restockBlocked(order: Pick<AdminOrder, 'status' | 'payments'>): string | null {
  if (order.status === 'cancelled') return 'The items went back in stock when the order was cancelled.';
  if (restockedByRefund(order.payments)) return 'An earlier refund already put the items back in stock.';
  return null;
}

export type RefundProblems = Partial<Record<'amount' | 'reason', string>>;

/** The form's problems in the contract's words, and an amount above what is left. */
export function refundProblems(values: RefundBody, figures: ReturnType<typeof refundFigures>): RefundProblems {
  const problems: RefundProblems = {};
  const checked = refundRequestSchema.safeParse(values);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = issue.path[0];
      if ((field === 'amount' || field === 'reason') && !problems[field]) problems[field] = issue.message;
    }
  }
  const cents = parseCents(values.amount);
  if (!problems.amount && cents !== null && cents > figures.refundable) {
    problems.amount = refundTooLargeMessage(figures.refundable, figures.captured, figures.givenBack);
  }
  return problems;
}
