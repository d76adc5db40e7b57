/**
 * An order's delivery and tax in words (issue 25), for the shopper's order page, the order confirmation
 * email and the back office: the method as shoppers read it, and where the tax came from as staff read it.
 */
import { z } from 'zod';
import { HOME_ZONE, SHIPPING_METHODS, shippingZoneOf, type ShippingMethod } from '../shipping-rules';

/** Where an order's tax came from (orders.tax_source; @nh/server tax TaxSource). */
export const TAX_SOURCES = ['flat', 'table', 'taxjar', 'table-fallback', 'no-nexus'] as const;
export type TaxSourceName = (typeof TAX_SOURCES)[number];
export const taxSourceSchema = z.enum(TAX_SOURCES);
export const shippingMethodFieldSchema = z.enum(SHIPPING_METHODS);

const TAX_SOURCE_WORDS: Record<TaxSourceName, string> = {
  flat: 'Flat 8%',
  table: 'Tax: rate table',
  taxjar: 'Tax: TaxJar',
  'table-fallback': 'Tax: rate table (TaxJar unavailable)',
  'no-nexus': 'No tax: outside nexus',
};

/** Staff's words for an order's tax source; an order from before issue 25 (null) was taxed flat. */
export const taxSourceWords = (source: TaxSourceName | null | undefined): string => TAX_SOURCE_WORDS[source ?? 'flat'];

/** "Express shipping (2-3 business days)" with the promise of the address's zone, or "Standard shipping". */
export function shippingMethodWords(method: ShippingMethod | null | undefined, state?: string | null): string {
  if (method !== 'express') return 'Standard shipping';
  const zone = (state ? shippingZoneOf(state) : null) ?? HOME_ZONE;
  const promise = zone.express?.promise ?? HOME_ZONE.express?.promise;
  return promise ? `Express shipping (${promise})` : 'Express shipping';
}
