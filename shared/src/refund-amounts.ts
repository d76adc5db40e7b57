/**
 * What a refund by line gives back (issue 23, docs/decisions/refunds.md): the one rule of "what was paid
 * for these items". The server decides it; the refund dialog shows the same figure before staff confirm.
 *
 * An order's total is its lines less the discount, plus shipping, plus tax (pricing.ts). What a line paid
 * is its price × quantity, less its share of the order's discount (the Subscribe & Save and promo parts
 * together, spread over the lines in proportion to what each cost), plus its share of the order's tax
 * (spread in proportion to what each line cost after the discount). Both spreads are exact to the cent
 * (largest remainder), so the lines together paid exactly total − shipping. A part of a line is its
 * pro-rata share, rounded so that the line's parts, refunded one at a time, add up to exactly the line.
 */
import { spreadCents, type Cents } from './money';

export { spreadCents };

export interface PaidOrder {
  /** Unit price (cents) and quantity of each line, in the order's order. */
  lines: ReadonlyArray<{ price: Cents; quantity: number }>;
  /** The whole discount (both parts, and any price lock or one-off discount). */
  discount: Cents;
  tax: Cents;
}

/** What each line paid in cents (its price less its share of the discount, plus its share of the tax). */
export function paidPerLine(order: PaidOrder): Cents[] {
  const gross = order.lines.map((l) => l.price * l.quantity);
  const discount = Math.min(order.discount, gross.reduce((s, g) => s + g, 0));
  const discounts = spreadCents(discount, gross);
  const net = gross.map((g, i) => g - discounts[i]!);
  const taxes = spreadCents(order.tax, net);
  return net.map((n, i) => n + taxes[i]!);
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
