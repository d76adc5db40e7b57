/**
 * TAX_MODE=table: the merchant's rates by state and ZIP code (rates-file.ts), one rate per place for every
 * line. The order's tax at that rate is rounded once (half away from zero, in integers: rates are parts
 * per million) and spread over the lines in proportion to their net amounts, as the flat rule does, so
 * Σ line taxes is exactly the order's tax. Shipping is not taxed by the table (shippingTax 0).
 *
 * Which rate (docs/decisions/tax-and-shipping.md, "Tax calculators"):
 *   1. the row of the address's state and ZIP code (ZIP+4 reads as its first five digits);
 *   2. else the state's row with an empty zip;
 *   3. else the highest rate among the state's ZIP rows: never under-collect for a ZIP the file lacks;
 *   4. a state with no row at all: 0 (the file lists where the shop collects), and so is an address with
 *      no state yet (the summary before the shopper typed one).
 * An address with a state but no ZIP yet (the summary while it is typed) follows 2 and 3: the estimate
 * is never below what checkout will charge once the ZIP is known.
 */
import { spreadCents, type Cents } from '@nh/shared';
import type { Logger } from '../observability/logger';
import type { TaxCalculator, TaxQuote, TaxRequest } from './calculator';
import { PPM, readRatesFile, readRatesFileAsync, type Ppm, type RateTable } from './rates-file';

/** Which rule of the table gave an address its rate. */
export type RateBasis = 'zip' | 'state' | 'highest-zip-in-state' | 'state-not-in-table' | 'no-state';

export interface TableRate {
  ppm: Ppm;
  basis: RateBasis;
}

/** A two-letter code, upper case, or null. */
export const normalState = (state: string | null | undefined): string | null => {
  const code = state?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(code) ? code : null;
};

/** The five-digit ZIP code of "97201", "97201-1234" or "972011234"; null for anything else. */
export const zip5 = (zip: string | null | undefined): string | null => /^(\d{5})(?:-?\d{4})?$/.exec(zip?.trim() ?? '')?.[1] ?? null;

/** The rate of an address under the table's rules (see the module's comment). */
export function rateFor(table: RateTable, to: TaxRequest['to']): TableRate {
  const state = normalState(to.state);
  if (!state) return { ppm: 0, basis: 'no-state' };
  const rates = table.states.get(state);
  if (!rates) return { ppm: 0, basis: 'state-not-in-table' };
  const zip = zip5(to.zip);
  const zipRate = zip === null ? undefined : rates.zips.get(zip);
  if (zipRate !== undefined) return { ppm: zipRate, basis: 'zip' };
  if (rates.stateRate !== null) return { ppm: rates.stateRate, basis: 'state' };
  return { ppm: rates.highest, basis: 'highest-zip-in-state' };
}

/** `cents` × `ppm` / 1,000,000 rounded half away from zero, in integers (exact below 2^53). */
export function taxAtPpm(cents: Cents, ppm: Ppm): Cents {
  const product = Math.abs(cents * ppm);
  let whole = Math.floor(product / PPM);
  if (2 * (product - whole * PPM) >= PPM) whole += 1;
  return cents < 0 ? -whole : whole;
}

/** The table's quote: the order's tax at the address's rate, rounded once, spread over the lines. */
export function tableQuote(table: RateTable, request: TaxRequest): TaxQuote {
  const { ppm } = rateFor(table, request.to);
  const amounts = request.lines.map((line) => line.amount);
  const tax = taxAtPpm(amounts.reduce((sum, a) => sum + a, 0), ppm);
  return { lineTaxes: spreadCents(tax, amounts), shippingTax: 0, source: 'table' };
}

export interface TableTaxCalculator extends TaxCalculator {
  readonly mode: 'table';
  /** TAX_RATES_FILE as configured. */
  readonly file: string;
  /** The rates in force (the last good read of the file). */
  table(): RateTable;
  /** The quote, synchronously (taxjar's fallback and estimates). */
  quoteNow(request: TaxRequest): TaxQuote;
  /** Re-reads the file: true when its rates are now in force; false (logged) when it is bad and the old rates stay. */
  reload(): Promise<boolean>;
}

/** The table calculator over TAX_RATES_FILE, read now (a bad file throws the ConfigError that stops the start). */
export function tableTax(file: string, deps: { log: Logger }): TableTaxCalculator {
  let current = readRatesFile(file);
  return {
    mode: 'table',
    file,
    table: () => current,
    quoteNow: (request) => tableQuote(current, request),
    quote: async (request) => tableQuote(current, request),
    reload: async () => {
      try {
        current = await readRatesFileAsync(file);
        deps.log.info({ file, rows: current.rows, states: current.states.size }, 'tax rates reloaded');
        return true;
      } catch (error) {
        deps.log.error({ file, err: error instanceof Error ? error.message : String(error) }, 'tax rates not reloaded: the file is bad, the previous rates stay in force');
        return false;
      }
    },
  };
}
