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
 *   shipping            = the destination zone's rule (shipping-rules.ts): in the contiguous zone 9.99,
 *                         free when subscribing or when discountedSubtotal is over 50.00 (the
 *                         "discounted total" of the spec is the discounted subtotal, before shipping
 *                         and tax); express at its own price; nothing to ship for an empty cart
 *   lineNet             = each line's price × quantity less its share of the discount (spread in
 *                         proportion, exact to the cent)
 *   tax                 = 8% of discountedSubtotal (the spec's flat rule), spread over the lines in
 *                         proportion to lineNet; a destination's tax (issue 25) replaces it through
 *                         `withTax`, line by line, with any tax on shipping
 *   total               = discountedSubtotal + shipping + tax
 */
import { SUBSCRIBE_AND_SAVE_PERCENT, TAX_RATE_BPS } from './constants';
import { centsToDecimal, percentOf, spreadCents, type Cents } from './money';
import { HOME_ZONE, isShippingRefusal, quoteShipping, shippingZoneOf, type ShippingMethod, type ShippingQuote, type ShippingRefusal } from './shipping-rules';

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
  /** The shipping address's state (null or absent: the home zone, as before an address is typed). */
  state?: string | null;
  /** Standard unless the shopper chose express. */
  shippingMethod?: ShippingMethod;
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
  /** Each line's price × quantity less its share of the discount (Σ = discountedSubtotal). */
  lineNet: Cents[];
  /** Each line's tax (Σ lineTaxes + shippingTax = tax). */
  lineTaxes: Cents[];
  /** Tax on shipping, where the destination's tax says so (0 under the flat rule and the rate table). */
  shippingTax: Cents;
  /** The zone, method and promise of the delivery; null when the address cannot be shipped to. */
  delivery: ShippingQuote | null;
  /** Why the address (or the method) cannot be shipped to: checkout refuses the order with its message. */
  shippingRefusal: ShippingRefusal | null;
}

/** The destination's tax on a priced cart (server side: @nh/server tax), line by line. */
export interface LineTaxes {
  lineTaxes: readonly Cents[];
  shippingTax?: Cents;
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
  const quote = quoteShipping({ state: options.state ?? null, method: options.shippingMethod, discountedSubtotal, subscribe, hasItems });
  const refused = isShippingRefusal(quote);
  const shipping = refused ? 0 : quote.shipping;
  const base = {
    subtotal,
    subscribeDiscount,
    promoDiscount,
    discount: subscribeDiscount + promoDiscount,
    shipping,
    freeShipping: refused ? false : quote.free,
    delivery: refused ? null : quote,
    shippingRefusal: refused ? quote : null,
  };
  return withFlatTax({ ...base, discountedSubtotal, tax: 0, total: 0, lineNet: [], lineTaxes: [], shippingTax: 0 }, lines);
}

/** One delivery choice as checkout shows it: its price on this order ("0.00" when free) and its promise. */
export interface ShippingChoicePrice {
  price: string;
  free: boolean;
  promise: string;
}

/**
 * The delivery choices of a cart for the address's zone (standard as the rule prices it for this cart,
 * express where the zone has it and not for a plan), or null where the shop does not ship. The one
 * source of the checkout quote's options and of the form's own choice before the first quote arrives.
 */
export function shippingOptionsFor(
  lines: readonly PricingLine[],
  options: Pick<PricingOptions, 'promo' | 'subscribe' | 'state'>,
): { standard: ShippingChoicePrice; express: ShippingChoicePrice | null } | null {
  const zone = options.state ? shippingZoneOf(options.state) : HOME_ZONE;
  if (!zone?.ships) return null;
  const free = priceCart(lines, { ...options, shippingMethod: 'standard' }).delivery?.free ?? false;
  return {
    standard: { price: centsToDecimal(free ? 0 : zone.standard.rate), free, promise: zone.standard.promise },
    express: zone.express && !options.subscribe ? { price: centsToDecimal(zone.express.rate), free: false, promise: zone.express.promise } : null,
  };
}

/** Each line's share of what is left after `discountedSubtotal` (the discount spread by what each line cost). */
function netPerLine(lines: readonly PricingLine[], discountedSubtotal: Cents): Cents[] {
  const gross = lines.map((l) => l.price * l.quantity);
  const discount = gross.reduce((s, g) => s + g, 0) - discountedSubtotal;
  const shares = spreadCents(discount, gross);
  return gross.map((g, i) => g - shares[i]!);
}

/** The spec's flat tax on a pricing whose discounted subtotal is set: 8% of it, spread over the lines. */
function withFlatTax(pricing: CartPricing, lines: readonly PricingLine[]): CartPricing {
  const lineNet = netPerLine(lines, pricing.discountedSubtotal);
  const tax = percentOf(pricing.discountedSubtotal, TAX_RATE_BPS);
  return { ...pricing, lineNet, lineTaxes: spreadCents(tax, lineNet), shippingTax: 0, tax, total: pricing.discountedSubtotal + pricing.shipping + tax };
}

/** A pricing with the destination's tax in place of the flat rule's: the lines' taxes and any tax on shipping. */
export function withTax<P extends CartPricing>(pricing: P, taxes: LineTaxes): P {
  if (taxes.lineTaxes.length !== pricing.lineNet.length) throw new RangeError(`Expected ${pricing.lineNet.length} line taxes, got ${taxes.lineTaxes.length}`);
  const shippingTax = taxes.shippingTax ?? 0;
  const tax = taxes.lineTaxes.reduce((s, t) => s + t, 0) + shippingTax;
  return { ...pricing, lineTaxes: [...taxes.lineTaxes], shippingTax, tax, total: pricing.discountedSubtotal + pricing.shipping + tax };
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
  /** The shipping address's state (issue 25): a plan ships standard, free, but only where the shop ships. */
  state: string | null = null,
): { firstDelivery: CartPricing; renewal: CartPricing } {
  return { firstDelivery: priceCart(lines, { promo, subscribe: true, state }), renewal: priceCart(lines, { subscribe: true, state }) };
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
  return { ...withFlatTax({ ...today, discount: today.discount + priceLock, discountedSubtotal: kept }, [...lines, ...oneTime]), priceLock };
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
  const shares = spreadCents(off, pricing.lineNet);
  const lineNet = pricing.lineNet.map((n, i) => n - shares[i]!);
  const tax = percentOf(kept, TAX_RATE_BPS);
  return { ...pricing, discount: pricing.discount + off, discountedSubtotal: kept, lineNet, lineTaxes: spreadCents(tax, lineNet), shippingTax: 0, tax, total: kept + pricing.shipping + tax };
}
