import { percentOf, spreadCents, TAX_RATE_BPS } from '@nh/shared';
import type { TaxCalculator, TaxQuote, TaxRequest } from './calculator';

/** The spec's rule: 8% of the discounted subtotal wherever the parcel goes, spread over the lines. */
export function flatTax(): TaxCalculator {
  return {
    mode: 'flat',
    quote: async (request: TaxRequest): Promise<TaxQuote> => flatQuote(request),
  };
}

export function flatQuote(request: TaxRequest): TaxQuote {
  const amounts = request.lines.map((l) => l.amount);
  const tax = percentOf(amounts.reduce((s, a) => s + a, 0), TAX_RATE_BPS);
  return { lineTaxes: spreadCents(tax, amounts), shippingTax: 0, source: 'flat' };
}
