/**
 * TAX_MODE=taxjar: TaxJar's sales tax API (`POST /v2/taxes`, through its npm client `taxjar`) where the
 * shop has nexus, the merchant's rate table everywhere TaxJar cannot answer.
 *
 * - A destination outside TAX_NEXUS_STATES owes the shop nothing to collect: 0, source `no-nexus`,
 *   without a call.
 * - An address without a state or ZIP code yet (the summary while it is typed) cannot be asked of
 *   TaxJar: the table's estimate, source `table`.
 * - Otherwise TaxJar is asked for each line's tax (`breakdown.line_items[].tax_collectable`, by the
 *   line's index as its id) and the tax on shipping (`breakdown.shipping.tax_collectable`), each
 *   converted to cents. A line is sent as quantity × unit_price − discount = its net amount exactly
 *   (unit_price the net amount per unit rounded up to the cent, the few cents over as its discount),
 *   with its product tax code where it has one, so TaxJar may tax a starter kit and a refill differently.
 * - No answer within TAX_PROVIDER_TIMEOUT_MS, an error answer (4xx, 5xx), a network failure or an answer
 *   we cannot read: the table answers (source `table-fallback`), counted in
 *   nh_tax_provider_fallbacks_total and logged as a warning at most once a minute. `quote` never rejects
 *   for the provider's reasons: tax never fails a checkout.
 *
 * The client takes no AbortSignal, so the timeout is a race: a call past it is abandoned (its answer,
 * if one comes, is ignored) and ends when TaxJar answers or Node's fetch gives up on it.
 */
import { centsToDecimal, toCents, type Cents } from '@nh/shared';
import Taxjar from 'taxjar';
import type { TaxLineItem, TaxParams } from 'taxjar/dist/util/types';
import { z } from 'zod';
import type { Logger } from '../observability/logger';
import { taxProviderFallbacks, type TaxFallbackReason } from '../observability/metrics';
import type { TaxCalculator, TaxQuote, TaxRequest } from './calculator';
import { normalState, zip5, type TableTaxCalculator } from './table';

export interface TaxjarOptions {
  apiKey: string;
  /** TaxJar's base URL without the version (default https://api.taxjar.com; its sandbox, or a stand-in). */
  apiUrl?: string;
  timeoutMs: number;
  /** Where parcels ship from. */
  from: { state: string; zip: string };
  /** Two-letter codes of the states where the shop has nexus (upper case). */
  nexusStates: readonly string[];
  /** The table that answers when TaxJar cannot (and estimates incomplete addresses). */
  fallback: TableTaxCalculator;
  log: Logger;
  /** The clock of the warning's once-a-minute limit (tests). */
  now?: () => number;
}

export interface TaxjarTaxCalculator extends TaxCalculator {
  readonly mode: 'taxjar';
  /** Reloads the fallback table (TAX_RATES_FILE). */
  reload(): Promise<boolean>;
}

/** At most one warning a minute about the provider failing (the counter counts every one). */
export const FALLBACK_WARNING_INTERVAL_MS = 60_000;

class ProviderFailure extends Error {
  constructor(
    readonly reason: TaxFallbackReason,
    message: string,
  ) {
    super(message);
  }
}

const amount = z.union([z.number().finite().nonnegative(), z.string().regex(/^\d+(\.\d+)?$/)]);
const answerSchema = z.object({
  tax: z.object({
    amount_to_collect: amount,
    breakdown: z
      .object({
        shipping: z.object({ tax_collectable: amount }).nullish(),
        line_items: z.array(z.object({ id: z.union([z.string(), z.number()]), tax_collectable: amount })).nullish(),
      })
      .nullish(),
  }),
});

/** TaxJar's dollars (a number or a decimal string) as cents, rounded to the cent. */
export const dollarsToCents = (value: number | string): Cents => toCents(Number(value));

const dollars = (cents: Cents): number => Number(centsToDecimal(cents));

/** A line as TaxJar reads it: quantity × unit_price − discount is exactly the line's net amount. */
export function taxjarLineItem(line: TaxRequest['lines'][number], index: number): TaxLineItem {
  const quantity = Math.max(1, line.quantity);
  const unit = Math.ceil(line.amount / quantity);
  const discount = unit * quantity - line.amount;
  return {
    id: String(index),
    quantity,
    unit_price: dollars(unit),
    ...(discount > 0 ? { discount: dollars(discount) } : {}),
    ...(line.taxCode ? { product_tax_code: line.taxCode } : {}),
  };
}

/** What failed, in the counter's words. */
function failureOf(error: unknown): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number') {
    const detail = error instanceof Taxjar.Error ? `${error.error}: ${error.detail}` : `HTTP ${status}`;
    return new ProviderFailure(status >= 500 ? 'server-error' : 'client-error', `TaxJar answered ${status} (${detail})`);
  }
  if (error instanceof SyntaxError) return new ProviderFailure('bad-answer', `TaxJar's answer is not JSON (${error.message})`);
  const message = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
  return new ProviderFailure('network', `TaxJar could not be reached: ${message}`);
}

/** The quote from TaxJar's answer; a ProviderFailure('bad-answer') when it cannot be read. */
export function quoteFromAnswer(answer: unknown, request: TaxRequest): TaxQuote {
  const parsed = answerSchema.safeParse(answer);
  if (!parsed.success) throw new ProviderFailure('bad-answer', `TaxJar's answer lacks what we read (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
  const { amount_to_collect, breakdown } = parsed.data.tax;
  const owed = dollarsToCents(amount_to_collect);
  const byId = new Map((breakdown?.line_items ?? []).map((item) => [String(item.id), dollarsToCents(item.tax_collectable)]));
  const lineTaxes = request.lines.map((_, i) => {
    const tax = byId.get(String(i));
    if (tax === undefined && owed > 0) throw new ProviderFailure('bad-answer', `TaxJar's answer has no tax for line ${i} of a taxed order`);
    return tax ?? 0;
  });
  const shippingTax = breakdown?.shipping ? dollarsToCents(breakdown.shipping.tax_collectable) : 0;
  return { lineTaxes, shippingTax, source: 'taxjar' };
}

/** The TaxJar calculator (configuration checked by createTaxCalculator). */
export function taxjarTax(options: TaxjarOptions): TaxjarTaxCalculator {
  const { fallback, log, timeoutMs } = options;
  const now = options.now ?? Date.now;
  const client = new Taxjar({ apiKey: options.apiKey, apiUrl: options.apiUrl ?? Taxjar.DEFAULT_API_URL });
  const nexus = new Set(options.nexusStates);
  const nexusAddresses = options.nexusStates.map((state) => ({ id: `nexus-${state}`, country: 'US', state }));
  let lastWarning = -Infinity;
  let unwarned = 0;

  const paramsOf = (request: TaxRequest, state: string, zip: string): TaxParams => ({
    from_country: 'US',
    from_state: options.from.state,
    from_zip: options.from.zip,
    to_country: 'US',
    to_state: state,
    to_zip: zip,
    ...(request.to.city ? { to_city: request.to.city } : {}),
    ...(request.to.address ? { to_street: request.to.address } : {}),
    amount: dollars(request.lines.reduce((sum, line) => sum + line.amount, 0)),
    shipping: dollars(request.shipping),
    nexus_addresses: nexusAddresses,
    line_items: request.lines.map(taxjarLineItem),
  });

  const ask = async (params: TaxParams): Promise<unknown> => {
    const call = client.taxForOrder(params);
    call.catch(() => {}); // a call abandoned at the timeout may still fail: nobody waits for it
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProviderFailure('timeout', `TaxJar did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([call, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  const fellBack = (request: TaxRequest, error: unknown): TaxQuote => {
    const failure = failureOf(error);
    taxProviderFallbacks.inc({ provider: 'taxjar', reason: failure.reason });
    if (now() - lastWarning >= FALLBACK_WARNING_INTERVAL_MS) {
      log.warn({ provider: 'taxjar', reason: failure.reason, err: failure.message, fallbacksSinceLastWarning: unwarned }, 'tax provider failed: taxes answered from the rate table');
      lastWarning = now();
      unwarned = 0;
    } else unwarned++;
    return { ...fallback.quoteNow(request), source: 'table-fallback' };
  };

  return {
    mode: 'taxjar',
    reload: () => fallback.reload(),
    quote: async (request) => {
      const state = normalState(request.to.state);
      if (state && !nexus.has(state)) return { lineTaxes: request.lines.map(() => 0), shippingTax: 0, source: 'no-nexus' };
      const zip = zip5(request.to.zip);
      if (!state || !zip) return fallback.quoteNow(request);
      try {
        return quoteFromAnswer(await ask(paramsOf(request, state, zip)), request);
      } catch (error) {
        return fellBack(request, error);
      }
    },
  };
}
