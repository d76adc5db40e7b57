import { describe, expect, it } from 'vitest';
import { TAX_RATE_BPS } from './constants';
import { percentOf } from './money';
import { HOME_ZONE } from './shipping-rules';
import {
  discountLines,
  priceCart,
  pricePlan,
  priceRenewal,
  promoDiscountOn,
  shippingOptionsFor,
  toPayloadStrings,
  type PricingLine,
  type PricingPromo,
} from './pricing';

const line = (price: number, quantity = 1): PricingLine => ({ price, quantity });
const WELCOME10: PricingPromo = { discountType: 'percentage', discountValue: 10 };
const SAVE5: PricingPromo = { discountType: 'fixed', discountValue: 5 };

describe('priceCart', () => {
  it('prices a plain cart under the free-shipping line', () => {
    const p = priceCart([line(999, 2), line(1299)]);
    expect(p).toEqual({
      subtotal: 3297,
      subscribeDiscount: 0,
      promoDiscount: 0,
      discount: 0,
      discountedSubtotal: 3297,
      shipping: 999,
      tax: 264, // 263.76 → 264
      total: 3297 + 999 + 264,
      freeShipping: false,
      lineNet: [1998, 1299],
      lineTaxes: [160, 104], // 264 spread by 1998 : 1299
      shippingTax: 0,
      delivery: { zone: 'contiguous', method: 'standard', shipping: 999, free: false, promise: '5-7 business days' },
      shippingRefusal: null,
    });
  });

  it('ships free only when the discounted subtotal is over 50.00 (exactly 50.00 pays shipping)', () => {
    expect(priceCart([line(5000)]).shipping).toBe(999);
    expect(priceCart([line(5001)]).shipping).toBe(0);
    // 55.00 with 10% off is 49.50: the discount brings it under the line, so shipping is charged.
    const p = priceCart([line(5500)], { promo: WELCOME10 });
    expect(p.discountedSubtotal).toBe(4950);
    expect(p.shipping).toBe(999);
  });

  it('Subscribe & Save takes 15% off the subtotal and ships free', () => {
    const p = priceCart([line(1000)], { subscribe: true });
    expect(p.subscribeDiscount).toBe(150);
    expect(p.discountedSubtotal).toBe(850);
    expect(p.shipping).toBe(0);
    expect(p.tax).toBe(68);
    expect(p.total).toBe(918);
  });

  it('takes a percentage promo off the subtotal after the subscription discount', () => {
    const p = priceCart([line(10000)], { subscribe: true, promo: WELCOME10 });
    expect(p.subscribeDiscount).toBe(1500);
    expect(p.promoDiscount).toBe(850); // 10% of 85.00, not of 100.00
    expect(p.discount).toBe(2350);
    expect(p.discountedSubtotal).toBe(7650);
    expect(p.tax).toBe(612);
    expect(p.total).toBe(7650 + 612);
  });

  it('takes a fixed promo off in whole dollars (SAVE5 = $5.00)', () => {
    const p = priceCart([line(2000)], { promo: SAVE5 });
    expect(p.promoDiscount).toBe(500);
    expect(p.discountedSubtotal).toBe(1500);
    expect(p.tax).toBe(120);
    expect(p.total).toBe(1500 + 999 + 120);
  });

  it('never lets a fixed promo take the subtotal below zero', () => {
    const p = priceCart([line(300)], { promo: SAVE5 });
    expect(p.promoDiscount).toBe(300);
    expect(p.discountedSubtotal).toBe(0);
    expect(p.tax).toBe(0);
    expect(p.total).toBe(999);
  });

  it('caps a percentage promo at 100% and ignores a negative value', () => {
    expect(priceCart([line(1000)], { promo: { discountType: 'percentage', discountValue: 150 } }).promoDiscount).toBe(1000);
    expect(priceCart([line(1000)], { promo: { discountType: 'fixed', discountValue: -5 } }).promoDiscount).toBe(0);
  });

  it('rounds each percentage component half away from zero', () => {
    // 15% of 10.10 = 1.515 → 1.52; 8% of 8.58 = 0.6864 → 0.69
    const p = priceCart([line(1010)], { subscribe: true });
    expect(p.subscribeDiscount).toBe(152);
    expect(p.discountedSubtotal).toBe(858);
    expect(p.tax).toBe(69);
    // 10% of 0.05 = 0.005 → 0.01
    expect(promoDiscountOn(5, WELCOME10)).toBe(1);
    // 8% of 0.06 = 0.0048 → 0.00
    expect(priceCart([line(6)]).tax).toBe(0);
  });

  it('prices an empty cart at zero, with nothing to ship', () => {
    expect(priceCart([])).toMatchObject({ subtotal: 0, shipping: 0, tax: 0, total: 0 });
  });

  it('refuses fractional or negative prices and quantities', () => {
    expect(() => priceCart([line(9.99)])).toThrow(RangeError);
    expect(() => priceCart([line(-1)])).toThrow(RangeError);
    expect(() => priceCart([line(100, 1.5)])).toThrow(RangeError);
  });

  it('renders the payload amounts as two-decimal strings', () => {
    expect(toPayloadStrings(priceCart([line(999, 2), line(1299)], { promo: SAVE5 }))).toEqual({
      subtotal: '32.97',
      discount: '5.00',
      shipping: '9.99',
      tax: '2.24',
      total: '40.20',
    });
  });
});

/** A small deterministic PRNG (mulberry32), so a failing case can be replayed from its seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('priceCart properties (random carts)', () => {
  it('never goes negative, always adds up, never discounts more than the subtotal', () => {
    const random = mulberry32(20261121);
    const int = (max: number) => Math.floor(random() * (max + 1));
    const failures: string[] = [];
    for (let run = 0; run < 5000; run++) {
      const lines = Array.from({ length: int(6) }, () => line(int(20000), int(12)));
      const promo: PricingPromo | null =
        random() < 0.3
          ? null
          : random() < 0.5
            ? { discountType: 'percentage', discountValue: int(100) }
            : { discountType: 'fixed', discountValue: int(200) };
      const subscribe = random() < 0.4;
      const p = priceCart(lines, { promo, subscribe });
      const context = JSON.stringify({ run, lines, promo, subscribe });

      const broken: string[] = [];
      const check = (ok: boolean, rule: string) => {
        if (!ok) broken.push(rule);
      };
      for (const [key, value] of Object.entries(p)) {
        if (typeof value === 'number') check(Number.isInteger(value) && value >= 0, `${key} is a non-negative integer`);
      }
      check(p.subtotal === lines.reduce((s, l) => s + l.price * l.quantity, 0), 'subtotal is the sum of the lines');
      check(p.discount === p.subscribeDiscount + p.promoDiscount, 'discount adds up');
      check(p.discount <= p.subtotal, 'discount ≤ subtotal');
      check(p.discountedSubtotal === p.subtotal - p.discount, 'discounted subtotal adds up');
      check(p.total === p.discountedSubtotal + p.shipping + p.tax, 'total adds up');
      check((p.shipping === 0) === p.freeShipping, 'free shipping flag');
      check(!subscribe || p.shipping === 0, 'subscriptions ship free');
      check(p.discountedSubtotal <= 5000 || p.shipping === 0, 'over 50.00 ships free');
      // Tax is 8% of the discounted subtotal to the cent.
      check(Math.abs(p.tax - p.discountedSubtotal * 0.08) <= 0.5, 'tax is 8% to the cent');
      check(Math.round(Number(toPayloadStrings(p).total) * 100) === p.total, 'payload string is the same amount');
      if (broken.length) failures.push(`${broken.join(', ')}: ${context}`);
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });
});

describe('pricePlan (Subscribe & Save with a promo code)', () => {
  it('applies the promo to the first delivery only: Surfy 16 oz ($9.99) + WELCOME10 is $8.25 now, $9.17 each renewal', () => {
    const { firstDelivery, renewal } = pricePlan([{ price: 999, quantity: 1 }], { discountType: 'percentage', discountValue: 10 });
    expect(firstDelivery).toMatchObject({ subscribeDiscount: 150, promoDiscount: 85, shipping: 0, tax: 61, total: 825 });
    expect(renewal).toMatchObject({ subscribeDiscount: 150, promoDiscount: 0, shipping: 0, tax: 68, total: 917 });
  });

  it('without a promo, the first delivery and the renewals cost the same', () => {
    const { firstDelivery, renewal } = pricePlan([{ price: 2000, quantity: 2 }], null);
    expect(firstDelivery).toEqual(renewal);
  });
});

describe('discountLines', () => {
  it('names each part on its own line: Subscribe & Save, then the promo code; an old unsplit remainder as "Discount"', () => {
    const plan = priceCart([{ price: 3294, quantity: 1 }], { subscribe: true, promo: { discountType: 'percentage', discountValue: 10 } });
    expect(discountLines(plan, 'WELCOME10')).toEqual([
      { kind: 'subscribe', label: 'Subscribe & Save (15%)', amount: 494 },
      { kind: 'promo', label: 'Discount (WELCOME10)', amount: 280 },
    ]);
    expect(discountLines(priceCart([{ price: 3294, quantity: 1 }]), null)).toEqual([]);
    expect(discountLines({ discount: 500, subscribeDiscount: 0, promoDiscount: 0 }, 'GONE')).toEqual([
      { kind: 'unsplit', label: 'Discount', amount: 500 },
    ]);
  });
});

describe('priceRenewal (one figure for a renewal order and its charge)', () => {
  const lines = [{ price: 2000, quantity: 2 }];
  const today = priceCart(lines, { subscribe: true });
  const adds = (p: ReturnType<typeof priceRenewal>) => p.subtotal - p.discount + p.shipping + p.tax === p.total;

  it('is the subscriber price when the agreed amount is it', () => {
    expect(priceRenewal(lines, today.total)).toEqual({ ...today, priceLock: 0 });
  });

  it('holds a lower agreed amount: the difference is a price lock inside the discount, taken off before tax; the figures add up to it', () => {
    const p = priceRenewal(lines, today.total - 310);
    // 3,400 of lines after 15% off, 8% tax: 3,113 + 249 tax = 3,362, the agreed amount.
    expect(p).toMatchObject({
      total: today.total - 310,
      priceLock: 287,
      discount: today.discount + 287,
      subtotal: today.subtotal,
      discountedSubtotal: 3113,
      tax: 249,
      shipping: 0,
    });
    expect(adds(p)).toBe(true);
  });

  it('charges tax on what is sold, never more than the agreed amount and at most a cent under it', () => {
    for (let agreed = 1; agreed < today.total; agreed += 7) {
      const p = priceRenewal(lines, agreed);
      expect(p.tax).toBe(percentOf(p.discountedSubtotal, TAX_RATE_BPS));
      expect(p.total).toBeLessThanOrEqual(agreed);
      expect(p.total).toBeGreaterThanOrEqual(agreed - 1);
      expect(adds(p)).toBe(true);
    }
  });

  it('passes on a lower price today: never more than the lines cost now', () => {
    expect(priceRenewal(lines, today.total + 500)).toEqual({ ...today, priceLock: 0 });
  });

  it('never locks below the shipping', () => {
    const p = priceRenewal(lines, 0);
    expect(p).toMatchObject({ discountedSubtotal: 0, tax: 0, total: today.shipping, priceLock: today.discountedSubtotal });
    expect(adds(p)).toBe(true);
  });
});

describe('priceRenewal with one-time add-ons (issue 21)', () => {
  const lines = [{ price: 2000, quantity: 1 }];
  it('charges the add-ons at today\'s price with the plan\'s discount on top of the agreed amount', () => {
    const agreed = priceCart(lines, { subscribe: true }).total;
    const p = priceRenewal(lines, agreed, [{ price: 500, quantity: 2 }]);
    expect(p).toEqual({ ...priceCart([...lines, { price: 500, quantity: 2 }], { subscribe: true }), priceLock: 0 });
    expect(p.subtotal - p.discount + p.shipping + p.tax).toBe(p.total);
  });
  it('keeps the price lock on the recurring lines only', () => {
    const agreed = priceCart(lines, { subscribe: true }).total - 300;
    const without = priceRenewal(lines, agreed);
    const withAddOn = priceRenewal(lines, agreed, [{ price: 1000, quantity: 1 }]);
    expect(without.total).toBe(agreed);
    // The add-on adds what it costs as a plan line today; the lock stays about the same (rounding of tax aside).
    const addOnAlone = priceCart([...lines, { price: 1000, quantity: 1 }], { subscribe: true }).total - priceCart(lines, { subscribe: true }).total;
    expect(Math.abs(withAddOn.total - (agreed + addOnAlone))).toBeLessThanOrEqual(1);
    expect(withAddOn.total).toBeLessThanOrEqual(agreed + addOnAlone);
    expect(withAddOn.priceLock).toBeGreaterThan(0);
  });
});

describe('shippingOptionsFor: the choices checkout shows, before and after its quote', () => {
  const cart = (cents: number) => [{ price: cents, quantity: 1 }];

  it('prices standard for this cart (free over the threshold) and offers express where the zone has it', () => {
    expect(shippingOptionsFor(cart(2000), { state: 'IL' })).toEqual({
      standard: { price: '9.99', free: false, promise: HOME_ZONE.standard.promise },
      express: { price: '9.99', free: false, promise: HOME_ZONE.express!.promise },
    });
    expect(shippingOptionsFor(cart(6000), {})?.standard).toMatchObject({ price: '0.00', free: true });
    expect(shippingOptionsFor(cart(6000), { state: 'HI' })).toMatchObject({ standard: { price: '14.99', free: false }, express: { price: '29.99' } });
    expect(shippingOptionsFor(cart(2000), { state: 'PR' })?.express).toBeNull();
  });

  it('a plan gets free standard and no express; an address the shop does not ship to gets none', () => {
    expect(shippingOptionsFor(cart(2000), { state: 'IL', subscribe: true })).toMatchObject({ standard: { price: '0.00', free: true }, express: null });
    expect(shippingOptionsFor(cart(2000), { state: 'AS' })).toBeNull();
  });
});
