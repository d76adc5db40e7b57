import { describe, expect, it } from 'vitest';
import { percentOf, priceCart } from '@nh/shared';
import { flatTax } from '@nh/server/tax';
import { inlineTaxTable } from '@nh/server/testing/tax-table';
import { deliveryAmount } from './subscription-plan';

/** Oregon taxes nothing, Illinois 6.25 %. */
const byState = inlineTaxTable({ OR: '0', IL: '0.0625' });

const items = [{ productId: 1, productName: 'Kit', variantSku: null, sku: null, itemNumber: null, quantity: 2, price: '12.00' }];
/** The plan's stored amount: its pre-tax price (20.40) with the flat 8 %. */
const stored = priceCart([{ price: 1200, quantity: 2 }], { subscribe: true }).total;

describe("a plan's price per delivery in its emails", () => {
  it('is the stored amount under the flat rule', async () => {
    expect(await deliveryAmount({ tax: flatTax() }, { items, shippingAddress: { address: 'a', city: 'c', state: 'OR', zip: '97201' } }, stored)).toBe(stored);
  });

  it("is the pre-tax price taxed for the plan's address under a destination's tax", async () => {
    expect(await deliveryAmount({ tax: byState }, { items, shippingAddress: { address: 'a', city: 'c', state: 'OR', zip: '97201' } }, stored)).toBe(2040);
    expect(await deliveryAmount({ tax: byState }, { items, shippingAddress: { address: 'a', city: 'c', state: 'IL', zip: '60601' } }, stored)).toBe(2040 + percentOf(2040, 625));
  });
});
