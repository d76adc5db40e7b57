/**
 * What a refund by line gives back (issue 23, docs/decisions/refunds.md): the one rule of "what was paid
 * for these items". The server decides it; the refund dialog shows the same figure before staff confirm.
 *
 * An order's total is its lines less the discount, plus shipping, plus tax (pricing.ts). What a line paid
 * is its price × quantity, less its share of the order's discount (the Subscribe & Save and promo parts
 * together, spread over the lines in proportion to what each cost), plus its tax: the line's own as the
 * order stored it (issue 25), or, on an order from before, its share of the order's tax (spread in
 * proportion to what each line cost after the discount). Both spreads are exact to the cent (largest
 * remainder), so the lines together paid exactly total − shipping − any tax on shipping. A part of a line is its
 * pro-rata share, rounded so that the line's parts, refunded one at a time, add up to exactly the line.
 */
import { spreadCents, toCents, type Cents } from './money';

export { spreadCents };

export interface PaidLine {
  /** Unit price (cents). */
  price: Cents;
  quantity: number;
  /** The line's own tax (cents) as the order stored it (issue 25); null or absent on orders from before. */
  tax?: Cents | null;
}

export interface PaidOrder {
  /** Each line, in the order's order. */
  lines: readonly PaidLine[];
  /** The whole discount (both parts, and any price lock or one-off discount). */
  discount: Cents;
  /** The order's whole tax: its lines' and its shipping's. */
  tax: Cents;
  /** The part of `tax` due on shipping (a provider's answer; 0 under the flat rule and before issue 25). */
  shippingTax?: Cents;
}

/** An order's stored lines (two-decimal strings) as PaidOrder's lines. */
export function paidLinesOf(items: ReadonlyArray<{ price: string; quantity: number; tax?: string | null }>): PaidLine[] {
  return items.map((i) => ({ price: toCents(i.price), quantity: i.quantity, tax: i.tax === undefined || i.tax === null ? null : toCents(i.tax) }));
}

/** What each line cost after its share of the discount (spread in proportion to what each cost). */
function netPerLine(order: PaidOrder): Cents[] {
  const gross = order.lines.map((l) => l.price * l.quantity);
  const discount = Math.min(order.discount, gross.reduce((s, g) => s + g, 0));
  const discounts = spreadCents(discount, gross);
  return gross.map((g, i) => g - discounts[i]!);
}

/**
 * Each line's tax: the line's own, as the order stored it, when every line has one (issue 25: a
 * destination's tax may differ line by line); else, for an order from before, the order's tax (less any
 * on shipping) spread over the lines in proportion to what each cost after the discount, as it was priced.
 */
export function taxPerLine(order: PaidOrder, net: readonly Cents[] = netPerLine(order)): Cents[] {
  if (order.lines.length > 0 && order.lines.every((l) => typeof l.tax === 'number')) return order.lines.map((l) => l.tax!);
  return spreadCents(order.tax - (order.shippingTax ?? 0), net);
}

/** What each line paid in cents (its price less its share of the discount, plus its tax). */
export function paidPerLine(order: PaidOrder): Cents[] {
  const net = netPerLine(order);
  const taxes = taxPerLine(order, net);
  return net.map((n, i) => n + taxes[i]!);
}

/** A refund as its tax part needs it: the amount, and for a refund by line its lines and shipping. */
export interface RefundForTax {
  amount: Cents;
  /** A refund by line's parts (line index and the cents given back for it); null for a refund by amount. */
  lines: ReadonlyArray<{ line: number; amount: Cents }> | null;
  /** The shipping (with its tax) a refund by line gave back. */
  shipping: Cents;
}

/**
 * The part of a refund that is tax (issue 25: NetSuite's credit memo credits it on its own tax line). By
 * line: each part's share of its line's tax (in proportion to what the line paid), plus the shipping's
 * tax in proportion to the shipping given back. By amount: the order's tax in proportion to the amount
 * (every dollar paid carried the same share of tax). Computed from what the refund rows keep, never
 * stored; a line refunded item by item may be credited a cent more or less tax than a line refunded at
 * once (each part rounds on its own). Never more than the amount.
 */
export function refundTaxPart(order: PaidOrder & { total: Cents; shipping: Cents }, refund: RefundForTax): Cents {
  const share = (amount: Cents, tax: Cents, of: Cents) => (of <= 0 ? 0 : Math.round((amount * tax) / of));
  let tax: Cents;
  if (refund.lines && (refund.lines.length > 0 || refund.shipping > 0)) {
    const paid = paidPerLine(order);
    const taxes = taxPerLine(order);
    const shippingTax = order.shippingTax ?? 0;
    tax = refund.lines.reduce((s, part) => s + share(part.amount, taxes[part.line] ?? 0, paid[part.line] ?? 0), 0) + share(refund.shipping, shippingTax, order.shipping + shippingTax);
  } else {
    tax = share(refund.amount, order.tax, order.total);
  }
  return Math.max(0, Math.min(tax, refund.amount));
}

/**
 * What `quantity` more items of a line give back when `alreadyRefunded` of its `lineQuantity` were
 * refunded before: the line's share for all refunded after, less its share for those before. So refunding
 * a line's items one at a time, or all at once, gives back exactly what the line paid.
 */
export function partOfLine(linePaid: Cents, lineQuantity: number, alreadyRefunded: number, quantity: number): Cents {
  const shareOf = (n: number) => Math.round((linePaid * n) / lineQuantity);
  return shareOf(alreadyRefunded + quantity) - shareOf(alreadyRefunded);
}
