/**
 * What the storefront says about shipping, rendered from the one shipping rule (shipping-rules.ts,
 * docs/decisions/tax-and-shipping.md "The one free-shipping rule behind every claim"). The banner, the
 * footer, the product Shipping tab, the trust badge, the FAQ and the legal shipping page build their
 * sentences from these phrases, never from a figure of their own, so a shopper is never promised what
 * checkout (quoteShipping) does not give. Every function takes the zone(s) it speaks of, defaulting to
 * the rule's, so a claim follows any change of rate, threshold or zone.
 *
 * The rule's free shipping is strictly "over" the threshold (quoteShipping: subtotal > freeOver), so the
 * phrases say "over $50" and "$50 or less", never "$50 and over".
 */
import { formatCents, type Cents } from './money';
import { HOME_ZONE, SHIPPING_ZONES, type ShippingZone } from './shipping-rules';

/** A figure in running text: "$50" for whole dollars, "$9.99" otherwise. */
export function claimAmount(cents: Cents): string {
  return formatCents(cents).replace(/\.00$/, '');
}

/** Names of the codes outside the contiguous states, for "where we (do not) ship" sentences. */
const PLACE_NAMES: Readonly<Record<string, string>> = {
  AK: 'Alaska',
  HI: 'Hawaii',
  PR: 'Puerto Rico',
  VI: 'the US Virgin Islands',
  GU: 'Guam',
  AS: 'American Samoa',
  MP: 'the Northern Mariana Islands',
  FM: 'the Federated States of Micronesia',
  MH: 'the Marshall Islands',
  PW: 'Palau',
  AA: 'APO/FPO/DPO addresses',
  AE: 'APO/FPO/DPO addresses',
  AP: 'APO/FPO/DPO addresses',
};
/** What a code without a name above stands for: one of the contiguous states or DC. */
const CONTIGUOUS_PLACE = 'the contiguous US';

/** "a", "a and b", "a, b and c" (or "a, b or c"). */
function joinWords(words: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** Places by name, each once: "Puerto Rico, the US Virgin Islands and Guam". */
function placesOf(codes: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  return joinWords([...new Set(codes.map((code) => PLACE_NAMES[code] ?? CONTIGUOUS_PLACE))], conjunction);
}

export interface ShippingClaim {
  zone: ShippingZone;
  /** "$9.99": what standard shipping costs when it is not free. */
  standardRate: string;
  /** "5-7 business days". */
  standardPromise: string;
  /** "$50": the free-shipping threshold; null where standard shipping is never free (Subscribe & Save aside). */
  threshold: string | null;
  /** "over $50", as in "Free shipping on orders over $50"; null where standard shipping is never free. */
  freeOver: string | null;
  /** "$50 or less", as in "$9.99 on orders of $50 or less"; null where standard shipping is never free. */
  chargedUpTo: string | null;
  /** Express where the zone offers it: "$9.99" and "2-3 business days". */
  express: { rate: string; promise: string } | null;
}

/** The phrases of one zone's rule (the home zone's unless told): every shipping sentence of the storefront uses these. */
export function shippingClaim(zone: ShippingZone = HOME_ZONE): ShippingClaim {
  const threshold = zone.freeOver === null ? null : claimAmount(zone.freeOver);
  return {
    zone,
    standardRate: claimAmount(zone.standard.rate),
    standardPromise: zone.standard.promise,
    threshold,
    freeOver: threshold === null ? null : `over ${threshold}`,
    chargedUpTo: threshold === null ? null : `${threshold} or less`,
    express: zone.express ? { rate: claimAmount(zone.express.rate), promise: zone.express.promise } : null,
  };
}

/**
 * One line for a zone in a short list (the product Shipping tab):
 * "Alaska and Hawaii: standard $14.99 (7-10 business days), free over $100; express $29.99 (3-5 business days)".
 */
export function zoneSummary(zone: ShippingZone): string {
  const claim = shippingClaim(zone);
  const standard = `standard ${claim.standardRate} (${claim.standardPromise})${claim.freeOver ? `, free ${claim.freeOver}` : ''}`;
  const express = claim.express ? `express ${claim.express.rate} (${claim.express.promise})` : 'no express';
  return `${zone.name}: ${standard}; ${express}`;
}

/** The zone the general claims quote (HOME_ZONE, the contiguous US) among `zones`. */
export function homeZone(zones: readonly ShippingZone[] = SHIPPING_ZONES): ShippingZone {
  return zones.find((zone) => zone.id === HOME_ZONE.id) ?? HOME_ZONE;
}

/** The zone of a code among `zones` (shippingZoneOf for a given list); null for a code none of them holds. */
export function zoneHolding(code: string, zones: readonly ShippingZone[] = SHIPPING_ZONES): ShippingZone | null {
  return zones.find((zone) => zone.states.includes(code)) ?? null;
}

/** The zones the shop ships to, in the rule's order. */
export function shippedZones(zones: readonly ShippingZone[] = SHIPPING_ZONES): ShippingZone[] {
  return zones.filter((zone) => zone.ships);
}

/** "the contiguous US, Alaska, Hawaii, Puerto Rico, …": every place checkout accepts. */
export function placesShipped(zones: readonly ShippingZone[] = SHIPPING_ZONES): string {
  return placesOf(shippedZones(zones).flatMap((zone) => zone.states));
}

/** "American Samoa, the Northern Mariana Islands, … or Palau": the places checkout refuses; null when there are none. */
export function placesNotShipped(zones: readonly ShippingZone[] = SHIPPING_ZONES): string | null {
  const codes = zones.filter((zone) => !zone.ships).flatMap((zone) => zone.states);
  return codes.length === 0 ? null : placesOf(codes, 'or');
}

/** Subscribe & Save's shipping (quoteShipping: free standard shipping in every zone the shop ships to). */
export const SUBSCRIBE_AND_SAVE_SHIPPING = 'Subscribe & Save deliveries ship free everywhere we ship.';
