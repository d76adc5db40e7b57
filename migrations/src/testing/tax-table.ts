/**
 * A TAX_MODE=table calculator over rates a test gives inline instead of a TAX_RATES_FILE: the table's own
 * rules and rounding (tableQuote), so a test's figures are what the shop charges in that mode.
 *
 *   const tax = inlineTaxTable({ CA: '0.0725', 'CA:90001': '0.095', OR: '0' });
 *   tax.set('IL', '0.07');   // a rate that changes between two steps of a test
 *   tax.asked                // every request the calculator was asked, in order
 */
import type { TaxCalculator, TaxRequest } from '../tax/calculator';
import { parseRatesCsv, type RateTable } from '../tax/rates-file';
import { tableQuote } from '../tax/table';

export interface InlineTaxTable extends TaxCalculator {
  /** Sets the rate (a decimal fraction, "0.0725") of a state ("CA") or of a state's ZIP code ("CA:90001"). */
  set(place: string, rate: string): void;
  readonly asked: TaxRequest[];
}

export function inlineTaxTable(initial: Record<string, string> = {}): InlineTaxTable {
  const rates = new Map(Object.entries(initial));
  // No rates yet: every place 0 (a rates file must have a row, so none is parsed).
  const table = (): RateTable =>
    rates.size === 0
      ? { states: new Map(), rows: 0 }
      : parseRatesCsv(['state,zip,rate', ...[...rates].map(([place, rate]) => `${place.split(':')[0]},${place.split(':')[1] ?? ''},${rate}`)].join('\n'), 'inline test rates');
  let current = table();
  const asked: TaxRequest[] = [];
  return {
    mode: 'table',
    asked,
    set(place, rate) {
      rates.set(place, rate);
      current = table();
    },
    quote: async (request) => {
      asked.push(request);
      return tableQuote(current, request);
    },
  };
}
