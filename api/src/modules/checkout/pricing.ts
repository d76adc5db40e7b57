/**
 * What checkout charges for a cart shipped to an address (issue 25): the cart priced for the address's
 * zone and method (shared pricing, shipping-rules), then the destination's tax from the calculator
 * (TAX_MODE). The one path for the order write path (./service.ts) and the summary's quote
 * (POST /api/checkout/quote), so the summary shows what Place order charges.
 *
 * A plan (Subscribe & Save) ships standard, free: its first delivery (with any promo code) and its
 * renewal figure (without it) are both taxed for the address.
 */
import { priceCart, pricePlan, type Cents, type CartPricing, type PricingLine, type PricingPromo, type ShippingMethod } from '@nh/shared';
import { taxPricing, type TaxCalculator, type TaxSource } from '@nh/server/tax';

export type CheckoutLine = PricingLine & { productId: number; taxCode?: string | null };

export interface Destination {
  state: string | null;
  zip: string | null;
}

export interface CheckoutPricingOptions {
  promo: PricingPromo | null;
  subscribe: boolean;
  /** Ignored for a plan (always standard). */
  shippingMethod?: ShippingMethod;
  to: Destination;
}

export type TaxedCartPricing = CartPricing & { taxSource: TaxSource };

export interface CheckoutPricing {
  /** What is charged now (a plan's first delivery). */
  pricing: TaxedCartPricing;
  /** A plan's renewal (subscriber price without the promo), taxed for the address; null for an order. */
  renewal: TaxedCartPricing | null;
  /**
   * A plan's stored price (subscriptions.amount): its renewal under the flat rule, the pre-tax price plus
   * 8 %, from which every renewal derives the pre-tax price it holds and taxes for the address of the day
   * (docs/decisions/tax-and-shipping.md "Renewals"); null for an order.
   */
  planAmount: Cents | null;
}

/** The cart's pricing for the destination. An address that cannot be shipped to is not taxed (nothing to ask). */
export async function priceCheckout(tax: TaxCalculator, lines: readonly CheckoutLine[], options: CheckoutPricingOptions): Promise<CheckoutPricing> {
  const { to } = options;
  const taxed = async (pricing: CartPricing): Promise<TaxedCartPricing> =>
    pricing.shippingRefusal ? { ...pricing, taxSource: 'flat' } : taxPricing(tax, pricing, lines, { state: to.state, zip: to.zip });
  if (options.subscribe) {
    const plan = pricePlan(lines, options.promo, to.state);
    const [pricing, renewal] = await Promise.all([taxed(plan.firstDelivery), taxed(plan.renewal)]);
    return { pricing, renewal, planAmount: plan.renewal.total };
  }
  const pricing = priceCart(lines, { promo: options.promo, state: to.state, shippingMethod: options.shippingMethod ?? 'standard' });
  return { pricing: await taxed(pricing), renewal: null, planAmount: null };
}

/** The field a shipping refusal is about: the state, or the method where express is not offered. */
export const refusalField = (pricing: CartPricing): 'state' | 'shippingMethod' =>
  pricing.shippingRefusal?.refused === 'express-unavailable' ? 'shippingMethod' : 'state';
