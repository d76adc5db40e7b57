import { describe, expect, it } from 'vitest';
import { priceCart } from './pricing';
import {
  claimAmount,
  homeZone,
  placesNotShipped,
  placesShipped,
  shippedZones,
  shippingClaim,
  zoneHolding,
  zoneSummary,
} from './shipping-claims';
import { HOME_ZONE, isShippingRefusal, quoteShipping, SHIPPING_ZONES, type ShippingZone } from './shipping-rules';

/** What checkout charges for standard (or express) shipping in `zone` on a discounted subtotal. */
function charged(zone: ShippingZone, discountedSubtotal: number, method: 'standard' | 'express' = 'standard'): number {
  const quote = quoteShipping({ state: zone.states[0]!, method, discountedSubtotal });
  if (isShippingRefusal(quote)) throw new Error(quote.message);
  return quote.shipping;
}

describe('the claims and checkout agree', () => {
  it('the home zone is claimed at $9.99, free over $50, express $9.99 in 2-3 business days: what checkout charges', () => {
    const claim = shippingClaim();
    expect(claim.zone).toBe(HOME_ZONE);
    expect(claim).toMatchObject({ standardRate: '$9.99', threshold: '$50', freeOver: 'over $50', chargedUpTo: '$50 or less', express: { rate: '$9.99', promise: '2-3 business days' } });
    const threshold = HOME_ZONE.freeOver!;
    // At the threshold the claimed rate is charged; one cent over, nothing.
    expect(claimAmount(charged(HOME_ZONE, threshold))).toBe(claim.standardRate);
    expect(charged(HOME_ZONE, threshold + 1)).toBe(0);
    expect(claimAmount(charged(HOME_ZONE, threshold + 1, 'express'))).toBe(claim.express!.rate);
    // Before an address is typed checkout quotes the home zone: the same figures.
    const noAddress = quoteShipping({ state: null, discountedSubtotal: threshold });
    expect(!isShippingRefusal(noAddress) && claimAmount(noAddress.shipping)).toBe(claim.standardRate);
  });

  it('a $40 cart is charged the claimed rate, not promised free shipping (the bug of issue 25)', () => {
    const pricing = priceCart([{ price: 4000, quantity: 1 }]);
    expect(pricing.freeShipping).toBe(false);
    expect(claimAmount(pricing.shipping)).toBe(shippingClaim().standardRate);
    expect(shippingClaim().freeOver).toBe('over $50');
  });

  it.each(shippedZones().map((zone) => [zone.name, zone] as const))('%s: the claimed threshold, rate and express are what checkout charges', (_name, zone) => {
    const claim = shippingClaim(zone);
    if (zone.freeOver !== null) {
      expect(claim.threshold).toBe(claimAmount(zone.freeOver));
      expect(claimAmount(charged(zone, zone.freeOver))).toBe(claim.standardRate);
      expect(charged(zone, zone.freeOver + 1)).toBe(0);
    }
    if (claim.express) expect(claimAmount(charged(zone, 1000, 'express'))).toBe(claim.express.rate);
    else expect(isShippingRefusal(quoteShipping({ state: zone.states[0]!, method: 'express', discountedSubtotal: 1000 }))).toBe(true);
    // Subscribe & Save ships free everywhere the shop ships (SUBSCRIBE_AND_SAVE_SHIPPING).
    const plan = quoteShipping({ state: zone.states[0]!, discountedSubtotal: 100, subscribe: true });
    expect(!isShippingRefusal(plan) && plan.shipping).toBe(0);
  });

  it('the places not shipped to are the ones checkout refuses', () => {
    const refused = SHIPPING_ZONES.filter((zone) => !zone.ships).flatMap((zone) => zone.states);
    for (const code of refused) expect(isShippingRefusal(quoteShipping({ state: code, discountedSubtotal: 1000 }))).toBe(true);
    expect(placesNotShipped()).toBe('American Samoa, the Northern Mariana Islands, the Federated States of Micronesia, the Marshall Islands or Palau');
    expect(placesShipped()).toBe('the contiguous US, Alaska, Hawaii, Puerto Rico, the US Virgin Islands, Guam and APO/FPO/DPO addresses');
  });
});

describe('shipping phrases', () => {
  it('writes whole dollars without cents and keeps cents otherwise', () => {
    expect(claimAmount(5000)).toBe('$50');
    expect(claimAmount(999)).toBe('$9.99');
    expect(claimAmount(12050)).toBe('$120.50');
  });

  it('follows a changed rule', () => {
    const changed: ShippingZone = { ...HOME_ZONE, standard: { rate: 795, promise: '4-6 business days' }, freeOver: 7500, express: null };
    expect(shippingClaim(changed)).toMatchObject({ standardRate: '$7.95', standardPromise: '4-6 business days', freeOver: 'over $75', chargedUpTo: '$75 or less', express: null });
    expect(homeZone([changed, ...SHIPPING_ZONES.slice(1)])).toBe(changed);
    expect(placesNotShipped(SHIPPING_ZONES.filter((zone) => zone.ships))).toBeNull();
  });

  it('says nothing is free where standard shipping never is', () => {
    const never: ShippingZone = { ...HOME_ZONE, freeOver: null };
    expect(shippingClaim(never)).toMatchObject({ threshold: null, freeOver: null, chargedUpTo: null });
  });

  it('sums up a zone in one line', () => {
    expect(zoneSummary(zoneHolding('AK')!)).toBe('Alaska and Hawaii: standard $14.99 (7-10 business days), free over $100; express $29.99 (3-5 business days)');
    expect(zoneSummary(zoneHolding('PR')!)).toBe('Puerto Rico and US territories: standard $14.99 (7-14 business days), free over $100; no express');
    expect(zoneHolding('XX')).toBeNull();
  });
});
