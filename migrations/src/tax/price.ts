import { priceCart, withTax, type CartPricing, type PricingLine, type PricingOptions } from '@nh/shared';
import type { TaxCalculator, TaxLine, TaxRequest, TaxSource } from './calculator';

export interface TaxedPricing extends CartPricing {
  taxSource: TaxSource;
}

/** The lines of a tax request for a priced cart: each line's cost after its discounts. */
export function taxLinesOf(lines: ReadonlyArray<PricingLine & { productId: number; taxCode?: string | null }>, pricing: CartPricing): TaxLine[] {
  return lines.map((line, i) => ({ productId: line.productId, quantity: line.quantity, amount: pricing.lineNet[i]!, taxCode: line.taxCode ?? null }));
}

/**
 * A pricing with the destination's tax: the cart priced (discounts, the zone's shipping), then each
 * line's tax asked of the calculator for where the parcel goes. The one path for checkout, the summary's
 * quote and renewals.
 */
export async function taxPricing<P extends CartPricing>(
  tax: TaxCalculator,
  pricing: P,
  lines: ReadonlyArray<PricingLine & { productId: number; taxCode?: string | null }>,
  to: TaxRequest['to'],
): Promise<P & { taxSource: TaxSource }> {
  const request: TaxRequest = { to, lines: taxLinesOf(lines, pricing), shipping: pricing.shipping };
  const quote = await tax.quote(request);
  return { ...withTax(pricing, quote), taxSource: quote.source };
}

/** priceCart, then the destination's tax. */
export function priceForDestination(
  tax: TaxCalculator,
  lines: ReadonlyArray<PricingLine & { productId: number; taxCode?: string | null }>,
  options: PricingOptions & { zip?: string | null },
): Promise<TaxedPricing> {
  const pricing = priceCart(lines, options);
  return taxPricing(tax, pricing, lines, { state: options.state ?? null, zip: options.zip ?? null });
}
