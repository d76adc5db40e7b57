/**
 * A refund by line (issue 23, docs/decisions/refunds.md): the amount worked out by the server from what
 * was paid for the chosen items (@nh/shared refund-amounts: discount and tax spread as the order was
 * priced; each line's own tax when the order stored it, issue 25), never more of a line than is left of
 * it, the shipping (with any tax on it) at most once. Called under the order's
 * lock, with what earlier refunds (approved or pending) took of each line.
 */
import type { Cents } from '@nh/shared/money';
import { paidLinesOf, paidPerLine, partOfLine } from '@nh/shared/refund-amounts';
import { REFUND_LINE_MESSAGES, type RefundLine } from '@nh/shared/contracts/refunds';
import type { LineItem, RefundLinePart } from '@nh/server/db/schema';
import type { RefundedLines } from '@nh/server/queries/refunds';
import { AppError } from '../../../lib/errors';

export interface LinePricing {
  items: LineItem[];
  discount: Cents;
  tax: Cents;
  shipping: Cents;
  /** The part of `tax` due on shipping (issue 25): given back with the shipping. */
  shippingTax: Cents;
}

export interface LineRefundPlan {
  amount: Cents;
  parts: RefundLinePart[];
  shipping: Cents;
}

/** The refund's lines with their amounts and the shipping, or the refusal naming what is wrong. */
export function planLineRefund(order: LinePricing, done: RefundedLines, lines: readonly RefundLine[], includeShipping: boolean): LineRefundPlan {
  // Each line's own tax when the order stored it (issue 25), else the order's tax spread as priced.
  const paid = paidPerLine({ lines: paidLinesOf(order.items), discount: order.discount, tax: order.tax, shippingTax: order.shippingTax });
  const parts: RefundLinePart[] = lines.map((l) => {
    const item = order.items[l.line];
    if (!item) throw lineError(REFUND_LINE_MESSAGES.noSuchLine(l.line, order.items.length), l.line);
    const already = done.quantities.get(l.line) ?? 0;
    const left = Math.max(0, item.quantity - already);
    if (l.quantity > left) throw lineError(REFUND_LINE_MESSAGES.tooMany(item.productName, left), l.line, 'REFUND_TOO_LARGE');
    return { line: l.line, quantity: l.quantity, amount: partOfLine(paid[l.line]!, item.quantity, already, l.quantity), restock: l.restock };
  });
  let shipping = 0;
  if (includeShipping) {
    if (order.shipping <= 0 && parts.length === 0) throw new AppError('VALIDATION_FAILED', REFUND_LINE_MESSAGES.noShipping, { fields: { includeShipping: REFUND_LINE_MESSAGES.noShipping } });
    if (done.shipping > 0) throw new AppError('REFUND_TOO_LARGE', REFUND_LINE_MESSAGES.shippingRefunded, { fields: { includeShipping: REFUND_LINE_MESSAGES.shippingRefunded } });
    // The shipping's tax goes back with it (0 but where a provider taxes shipping).
    shipping = order.shipping + order.shippingTax;
  }
  const amount = parts.reduce((s, p) => s + p.amount, 0) + shipping;
  if (amount <= 0) throw new AppError('VALIDATION_FAILED', REFUND_LINE_MESSAGES.zeroAmount, { fields: { lines: REFUND_LINE_MESSAGES.zeroAmount } });
  return { amount, parts, shipping };
}

const lineError = (message: string, line: number, code: 'VALIDATION_FAILED' | 'REFUND_TOO_LARGE' = 'VALIDATION_FAILED') =>
  new AppError(code, message, { line, fields: { lines: message } });
