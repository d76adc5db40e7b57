/**
 * Checkout pricing: the one place the order maths lives. The SPA uses it to display the summary, the
 * API uses it to decide what to charge. Everything is integer cents.
 *
 * Rounding rule: each percentage component (Subscribe & Save discount, percentage promo, tax) is
 * rounded to the cent on its own, half away from zero (`percentOf`); sums of cents are exact.
 *
 * Order of operations:
 *   subtotal            = Σ unit price × quantity
 *   subscribeDiscount   = 15% of subtotal (only when subscribing)
 *   promoDiscount       = percentage of (subtotal − subscribeDiscount), or a fixed amount in whole
 *                         dollars; never more than what is left, so nothing goes below zero
 *   discountedSubtotal  = subtotal − subscribeDiscount − promoDiscount
 *   shipping            = 9.99; free when subscribing or when discountedSubtotal is over 50.00
 *                         (the "discounted total" of the spec is the discounted subtotal, before
 *                         shipping and tax); nothing to ship for an empty cart
 *   tax                 = 8% of discountedSubtotal
 *   total               = discountedSubtotal + shipping + tax
 */
import { CHECKOUT_FREE_SHIPPING_OVER_CENTS, CHECKOUT_SHIPPING_CENTS, SUBSCRIBE_AND_SAVE_PERCENT, TAX_RATE_BPS } from './constants';
import { centsToDecimal, percentOf, type Cents } from './money';

export type DiscountType = 'percentage' | 'fixed';
export const DISCOUNT_TYPES = ['percentage', 'fixed'] as const satisfies readonly DiscountType[];

/** A promo as pricing needs it: percentage value is percent (10 = 10%), fixed value is whole dollars (5 = $5.00). */
export interface PricingPromo {
  discountType: DiscountType;
  discountValue: number;
}

export interface PricingLine {
  /** Unit price in cents. */
  price: Cents;
  quantity: number;
}

export interface PricingOptions {
  promo?: PricingPromo | null;
  subscribe?: boolean;
}

export interface CartPricing {
  subtotal: Cents;
  subscribeDiscount: Cents;
  promoDiscount: Cents;
  /** subscribeDiscount + promoDiscount */
  discount: Cents;
  discountedSubtotal: Cents;
  shipping: Cents;
  tax: Cents;
  total: Cents;
  freeShipping: boolean;
}

/** The amounts as the order payload carries them: two-decimal strings. */
export interface PricingStrings {
  subtotal: string;
  discount: string;
  shipping: string;
  tax: string;
  total: string;
}

function assertLine(line: PricingLine): void {
  if (!Number.isSafeInteger(line.price) || line.price < 0)
    throw new RangeError(`Line price must be non-negative integer cents: ${line.price}`);
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 0)
    throw new RangeError(`Line quantity must be a non-negative integer: ${line.quantity}`);
}

/** The promo's discount on an amount that has already had the subscription discount taken off. */
export function promoDiscountOn(amount: Cents, promo: PricingPromo | null | undefined): Cents {
  if (!promo || amount <= 0) return 0;
  const value = Math.max(0, Math.trunc(promo.discountValue));
  const raw = promo.discountType === 'percentage' ? percentOf(amount, Math.min(value, 100) * 100) : value * 100;
  return Math.min(raw, amount);
}

export function priceCart(lines: readonly PricingLine[], options: PricingOptions = {}): CartPricing {
  lines.forEach(assertLine);
  const subscribe = options.subscribe === true;
  const subtotal = lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
  const subscribeDiscount = subscribe ? percentOf(subtotal, SUBSCRIBE_AND_SAVE_PERCENT * 100) : 0;
  const afterSubscribe = subtotal - subscribeDiscount;
  const promoDiscount = promoDiscountOn(afterSubscribe, options.promo);
  const discountedSubtotal = afterSubscribe - promoDiscount;
  const hasItems = lines.some((line) => line.quantity > 0);
  const freeShipping = !hasItems || subscribe || discountedSubtotal > CHECKOUT_FREE_SHIPPING_OVER_CENTS;
  const shipping = freeShipping ? 0 : CHECKOUT_SHIPPING_CENTS;
  const tax = percentOf(discountedSubtotal, TAX_RATE_BPS);
  return {
    subtotal,
    subscribeDiscount,
    promoDiscount,
    discount: subscribeDiscount + promoDiscount,
    discountedSubtotal,
    shipping,
    tax,
    total: discountedSubtotal + shipping + tax,
    freeShipping,
  };
}

export function toPayloadStrings(pricing: CartPricing): PricingStrings {
  return {
    subtotal: centsToDecimal(pricing.subtotal),
    discount: centsToDecimal(pricing.discount),
    shipping: centsToDecimal(pricing.shipping),
    tax: centsToDecimal(pricing.tax),
    total: centsToDecimal(pricing.total),
  };
}

/** An order's (or a cart's) discount and its two parts, in cents. */
export interface DiscountParts {
  /** The whole discount: the two parts, plus, on an order from before they were kept apart, what could not be split. */
  discount: Cents;
  subscribeDiscount: Cents;
  promoDiscount: Cents;
}

/** One discount line of a total: which part it is, its words and the amount taken off (positive cents, shown with a minus). */
export interface DiscountLine {
  kind: 'subscribe' | 'promo' | 'unsplit';
  label: string;
  amount: Cents;
}

/**
 * Each discount on its own line, wherever an order's totals are shown (the checkout's summary, the
 * shopper's order page, the back office's order, the order confirmation): "Subscribe & Save (15%)", then
 * the promo code's "Discount (WELCOME10)". Whatever of an old order's discount could not be split
 * (migration order_discount_parts) is one "Discount" line, as such orders were shown before.
 */
export function discountLines(parts: DiscountParts, promoCode: string | null): DiscountLine[] {
  const lines: DiscountLine[] = [];
  if (parts.subscribeDiscount > 0)
    lines.push({ kind: 'subscribe', label: `Subscribe & Save (${SUBSCRIBE_AND_SAVE_PERCENT}%)`, amount: parts.subscribeDiscount });
  if (parts.promoDiscount > 0)
    lines.push({ kind: 'promo', label: promoCode ? `Discount (${promoCode})` : 'Discount', amount: parts.promoDiscount });
  const unsplit = parts.discount - parts.subscribeDiscount - parts.promoDiscount;
  if (unsplit > 0) lines.push({ kind: 'unsplit', label: 'Discount', amount: unsplit });
  return lines;
}

/**
 * Subscribe & Save with a promo code: the promo applies to the first delivery only (the order charged
 * at checkout, after the subscription discount); every renewal charges the subscriber price without
 * it. The summary shows both, the server charges `firstDelivery.total` now and stores
 * `renewal.total` as the plan's amount.
 */
export function pricePlan(
  lines: readonly PricingLine[],
  promo: PricingPromo | null | undefined,
): { firstDelivery: CartPricing; renewal: CartPricing } {
  return { firstDelivery: priceCart(lines, { promo, subscribe: true }), renewal: priceCart(lines, { subscribe: true }) };
}

/** A renewal's pricing: as priceCart's, with the part of the discount that holds the plan's agreed amount. */
export interface RenewalPricing extends CartPricing {
  /** Cents taken off today's subscriber price to hold the agreed amount (0 when they agree); part of `discount`. */
  priceLock: Cents;
}

/**
 * A Subscribe & Save renewal, priced once for both its order and its charge (so the order's total is
 * always the amount captured): the plan's lines at their stored prices, priced as any plan delivery
 * (`priceCart` with the subscription discount), then held to the plan's agreed amount, the figure the
 * shopper saw on the plan page and in the welcome email and the reminder. When today's rules price the
 * lines above it, the difference is a price lock: taken off in the discount, so the total is the agreed
 * amount. When they price them below it (only a change of our pricing rules in the shopper's favour can:
 * the lines keep their prices), today's lower price is charged: a plan locks its price against rises,
 * never against falls. The lock comes off before tax, so the tax is on what is sold; it never goes below
 * the order's shipping. `oneTime`: the delivery's one-time add-ons at today's catalogue prices, charged
 * on top of the agreed amount with the same discount.
 */
export function priceRenewal(lines: readonly PricingLine[], agreedAmount: Cents, oneTime: readonly PricingLine[] = []): RenewalPricing {
  const recurring = priceCart(lines, { subscribe: true });
  const today = oneTime.length === 0 ? recurring : priceCart([...lines, ...oneTime], { subscribe: true });
  // One-time add-ons (issue 21) are priced as plan lines today (the plan's discount, free shipping) and
  // raise the agreed amount by what they add: the price lock holds the recurring lines only.
  const agreed = agreedAmount + today.total - recurring.total;
  if (today.total <= agreed) return { ...today, priceLock: 0 };
  // The lock comes off before tax (tax is due on what is sold): the largest subtotal whose total with
  // its own tax is within the agreed amount. Tax rounds to the cent, so the total may fall one cent
  // under the agreed amount where no subtotal meets it exactly; never over it.
  const totalOf = (subtotal: Cents) => subtotal + today.shipping + percentOf(subtotal, TAX_RATE_BPS);
  let kept = Math.min(
    today.discountedSubtotal,
    Math.max(0, Math.floor(((agreed - today.shipping) * 10_000) / (10_000 + TAX_RATE_BPS))),
  );
  while (kept < today.discountedSubtotal && totalOf(kept + 1) <= agreed) kept += 1;
  while (kept > 0 && totalOf(kept) > agreed) kept -= 1;
  const priceLock = today.discountedSubtotal - kept;
  const tax = percentOf(kept, TAX_RATE_BPS);
  return { ...today, discount: today.discount + priceLock, discountedSubtotal: kept, tax, total: kept + today.shipping + tax, priceLock };
}

/**
 * A save offer's one-time discount on a renewal (issue 22): `percent` off what the lines cost after the
 * plan's own discount and any price lock, before tax (tax is on what is sold), shipping unchanged. Part of
 * `discount`, so the order shows it. 0 (or none) leaves the pricing as it is.
 */
export function withNextDeliveryDiscount(pricing: RenewalPricing, percent: number | null | undefined): RenewalPricing {
  if (!percent || percent <= 0) return pricing;
  const off = Math.min(pricing.discountedSubtotal, Math.round((pricing.discountedSubtotal * percent) / 100));
  const kept = pricing.discountedSubtotal - off;
  const tax = percentOf(kept, TAX_RATE_BPS);
  return { ...pricing, discount: pricing.discount + off, discountedSubtotal: kept, tax, total: kept + pricing.shipping + tax };
}
