import { shippingZoneOf } from '@nh/shared';
import type { Logger } from '../observability/logger';
import { ConfigError } from '../runtime/env';
import type { TaxCalculator } from './calculator';
import type { TaxEnv } from './env';
import { flatTax } from './flat';
import { tableTax } from './table';
import { taxjarTax } from './taxjar';

export * from './calculator';
export { taxEnvShape, type TaxEnv } from './env';
export { flatTax } from './flat';
export { priceForDestination, taxPricing, taxLinesOf, type TaxedPricing } from './price';
export { parseRatesCsv, readRatesFile, parseRatePpm, type RateTable, type StateRates, type Ppm } from './rates-file';
export { tableTax, tableQuote, rateFor, taxAtPpm, type TableTaxCalculator, type TableRate, type RateBasis } from './table';
export { taxjarTax, type TaxjarTaxCalculator, type TaxjarOptions } from './taxjar';
export { reloadTaxRatesOnSignal } from './reload';

const invalid = (message: string) => new ConfigError(`Invalid configuration: ${message}`);

/** TAX_NEXUS_STATES as upper-case two-letter codes; a ConfigError for a code that is not a US one. */
export function parseNexusStates(text: string | undefined): string[] {
  const codes = (text ?? '')
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter(Boolean);
  const bad = codes.find((code) => !/^[A-Z]{2}$/.test(code) || !shippingZoneOf(code));
  if (bad !== undefined) throw invalid(`TAX_NEXUS_STATES: "${bad}" is not a two-letter US state code (a comma-separated list such as CA,NY,TX)`);
  return [...new Set(codes)];
}

/** TAXJAR_API_URL without a trailing slash or `/v2` (the client adds the version). */
function taxjarBaseUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    new URL(url);
  } catch {
    throw invalid(`TAXJAR_API_URL: "${url}" is not a URL (e.g. https://api.sandbox.taxjar.com)`);
  }
  return url.replace(/\/+$/, '').replace(/\/v2$/, '');
}

/**
 * The calculator the configuration names (TAX_MODE), its configuration checked: a missing or bad
 * variable, or a malformed TAX_RATES_FILE, is one ConfigError line that stops the start.
 */
export function createTaxCalculator(env: TaxEnv, deps: { log: Logger }): TaxCalculator {
  const ratesFile = (why: string) => {
    if (!env.TAX_RATES_FILE) throw invalid(`TAX_RATES_FILE is required when TAX_MODE=${env.TAX_MODE} (${why}: a CSV file with the columns state,zip,rate)`);
    return tableTax(env.TAX_RATES_FILE, deps);
  };
  switch (env.TAX_MODE) {
    case 'flat':
      return flatTax();
    case 'table':
      return ratesFile('the rates by state and ZIP code');
    case 'taxjar': {
      if (!env.TAXJAR_API_KEY) throw invalid("TAXJAR_API_KEY is required when TAX_MODE=taxjar (the API token of TaxJar's account settings)");
      const nexusStates = parseNexusStates(env.TAX_NEXUS_STATES);
      if (nexusStates.length === 0) throw invalid('TAX_NEXUS_STATES is required when TAX_MODE=taxjar (the states where the shop collects tax, e.g. CA,NY,TX)');
      const fromState = env.TAX_SHIP_FROM_STATE.toUpperCase();
      if (!shippingZoneOf(fromState)) throw invalid(`TAX_SHIP_FROM_STATE: "${env.TAX_SHIP_FROM_STATE}" is not a two-letter US state code`);
      if (!/^\d{5}(-\d{4})?$/.test(env.TAX_SHIP_FROM_ZIP)) throw invalid(`TAX_SHIP_FROM_ZIP: "${env.TAX_SHIP_FROM_ZIP}" is not a ZIP code (5 digits)`);
      const apiUrl = taxjarBaseUrl(env.TAXJAR_API_URL);
      return taxjarTax({
        apiKey: env.TAXJAR_API_KEY,
        ...(apiUrl ? { apiUrl } : {}),
        timeoutMs: env.TAX_PROVIDER_TIMEOUT_MS,
        from: { state: fromState, zip: env.TAX_SHIP_FROM_ZIP.slice(0, 5) },
        nexusStates,
        fallback: ratesFile('the fallback when TaxJar is slow or down'),
        log: deps.log,
      });
    }
  }
}
