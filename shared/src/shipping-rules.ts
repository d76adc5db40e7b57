/**
 * Shipping by destination (issue 25, docs/decisions/tax-and-shipping.md): the one rule behind what
 * checkout charges and every storefront claim about shipping (banner, footer, product tab, trust badge,
 * FAQ, legal page). The business changes a rate, a threshold or a zone here, in one place; the
 * storefront's sentences render their figures from it, so a shopper is never promised what checkout
 * does not give.
 *
 * Zones are chosen by the shipping address's two-letter state (or territory, or military "state" code).
 * A code in no zone, or in a zone the shop does not ship to, is refused at checkout with a message.
 * Standard shipping is free when the discounted subtotal (before shipping and tax) is over the zone's
 * threshold, and always free for Subscribe & Save; express has its own price and promise and is never
 * free. The contiguous zone holds the spec's checkout figures: $9.99, free over $50.00, express $9.99.
 */
import { SHIPPING_TIMES } from './constants';
import { formatCents, type Cents } from './money';

export type ShippingMethod = 'standard' | 'express';
export const SHIPPING_METHODS = ['standard', 'express'] as const satisfies readonly ShippingMethod[];

export type ShippingZoneId = 'contiguous' | 'alaska-hawaii' | 'territories' | 'military' | 'not-shipped';

export interface ShippingOption {
  /** What the option costs when it is not free. */
  rate: Cents;
  /** The delivery promise shown with the option, e.g. "5-7 business days". */
  promise: string;
}

export interface ShippingZone {
  id: ShippingZoneId;
  /** The zone's name as shoppers and staff read it. */
  name: string;
  /** State, territory and military codes in the zone. */
  states: readonly string[];
  /** False for a zone the shop does not ship to: checkout refuses its addresses. */
  ships: boolean;
  standard: ShippingOption;
  /** Standard shipping is free when the discounted subtotal is over this (null: never free, but for plans). */
  freeOver: Cents | null;
  /** Null where express is not offered. */
  express: ShippingOption | null;
}

const CONTIGUOUS = [
  'AL', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT',
  'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;

/** The shop's zones, in the order they are shown. */
export const SHIPPING_ZONES: readonly ShippingZone[] = [
  {
    id: 'contiguous',
    name: 'Contiguous US',
    states: CONTIGUOUS,
    ships: true,
    standard: { rate: 999, promise: SHIPPING_TIMES.standard },
    freeOver: 5000,
    express: { rate: 999, promise: SHIPPING_TIMES.express },
  },
  {
    id: 'alaska-hawaii',
    name: 'Alaska and Hawaii',
    states: ['AK', 'HI'],
    ships: true,
    standard: { rate: 1499, promise: '7-10 business days' },
    freeOver: 10000,
    express: { rate: 2999, promise: '3-5 business days' },
  },
  {
    id: 'territories',
    name: 'Puerto Rico and US territories',
    states: ['PR', 'VI', 'GU'],
    ships: true,
    standard: { rate: 1499, promise: '7-14 business days' },
    freeOver: 10000,
    express: null,
  },
  {
    id: 'military',
    name: 'Military (APO/FPO/DPO)',
    states: ['AA', 'AE', 'AP'],
    ships: true,
    standard: { rate: 999, promise: '10-21 business days' },
    freeOver: 5000,
    express: null,
  },
  {
    id: 'not-shipped',
    name: 'Places we do not ship to yet',
    states: ['AS', 'MP', 'FM', 'MH', 'PW'],
    ships: false,
    standard: { rate: 0, promise: '' },
    freeOver: null,
    express: null,
  },
];

/** The zone whose figures the storefront's general claims quote (the spec's figures). */
export const HOME_ZONE: ShippingZone = SHIPPING_ZONES[0]!;

const ZONE_OF = new Map(SHIPPING_ZONES.flatMap((zone) => zone.states.map((state) => [state, zone] as const)));

/** The zone of a two-letter code (any case, trimmed); null for a code no zone knows. */
export function shippingZoneOf(state: string | null | undefined): ShippingZone | null {
  if (!state) return null;
  return ZONE_OF.get(state.trim().toUpperCase()) ?? null;
}

export const SHIPPING_MESSAGES = {
  unknownState: 'Please enter a valid US state, territory or military code (e.g. CA, PR, AE).',
  notShipped: (zone: ShippingZone) => `Sorry, we don't ship to ${zone.name.toLowerCase()} yet. Please use an address in the US, Puerto Rico, Guam, the US Virgin Islands or an APO/FPO address.`,
  expressUnavailable: (zone: ShippingZone) => `Express shipping isn't available to ${zone.name}. Please choose standard shipping.`,
} as const;

export interface ShippingQuote {
  zone: ShippingZoneId;
  method: ShippingMethod;
  /** What shipping costs on this order (0 when free). */
  shipping: Cents;
  free: boolean;
  /** The delivery promise of the chosen method in this zone. */
  promise: string;
}

/** Why an address or method cannot be quoted; `message` is for the shopper. */
export interface ShippingRefusal {
  refused: 'unknown-state' | 'not-shipped' | 'express-unavailable';
  message: string;
}

export interface ShippingRequest {
  /** The shipping address's state; null before the shopper typed one (the home zone is assumed). */
  state: string | null;
  method?: ShippingMethod;
  /** Subtotal after every discount, before shipping and tax. */
  discountedSubtotal: Cents;
  subscribe?: boolean;
  /** Nothing to ship: an empty cart costs nothing. */
  hasItems?: boolean;
}

/** What shipping costs, or why it cannot be had. */
export function quoteShipping(request: ShippingRequest): ShippingQuote | ShippingRefusal {
  const zone = request.state ? shippingZoneOf(request.state) : HOME_ZONE;
  if (!zone) return { refused: 'unknown-state', message: SHIPPING_MESSAGES.unknownState };
  if (!zone.ships) return { refused: 'not-shipped', message: SHIPPING_MESSAGES.notShipped(zone) };
  const method = request.method ?? 'standard';
  if (method === 'express') {
    if (!zone.express) return { refused: 'express-unavailable', message: SHIPPING_MESSAGES.expressUnavailable(zone) };
    const free = request.hasItems === false;
    return { zone: zone.id, method, shipping: free ? 0 : zone.express.rate, free, promise: zone.express.promise };
  }
  const free =
    request.hasItems === false || request.subscribe === true || (zone.freeOver !== null && request.discountedSubtotal > zone.freeOver);
  return { zone: zone.id, method, shipping: free ? 0 : zone.standard.rate, free, promise: zone.standard.promise };
}

export const isShippingRefusal = (quote: ShippingQuote | ShippingRefusal): quote is ShippingRefusal => 'refused' in quote;

/** The checkout's free-shipping line for a zone ("Free shipping on orders over $50.00 and on Subscribe & Save."); null when its standard shipping is never free. */
export function freeShippingNote(zone: ShippingZone): string | null {
  if (!zone.ships || zone.freeOver === null) return null;
  return `Free shipping on orders over ${formatCents(zone.freeOver)} and on Subscribe & Save.`;
}
