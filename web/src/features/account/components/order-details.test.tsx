import type { ShopperOrder } from '@nh/shared/contracts/account';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderDetails } from './order-details';

afterEach(cleanup);

const order = (overrides: Partial<ShopperOrder> = {}): ShopperOrder => ({
  shippingMethod: 'standard',
  refunded: 0,
  refunds: [],
  refundLeft: 0,
  id: '0f6d2b1c-1111-4222-8333-444455556666',
  number: '0f6d2b1c',
  status: 'processing',
  placedAt: '2026-03-01T15:04:00.000Z',
  itemCount: 1,
  total: 2722,
  customerName: 'Sam Shopper',
  shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
  items: [{ productId: 1, productName: 'Starter Kit', quantity: 1, unitPrice: 3294, lineTotal: 3294 }],
  subtotal: 3294,
  discount: 0,
  subscribeDiscount: 0,
  promoDiscount: 0,
  shipping: 0,
  tax: 202,
  storeCredit: 0,
  promoCode: null,
  carrier: null,
  trackingNumber: null,
  trackingUrl: null,
  deliveredAt: null,
  ...overrides,
});

/** The totals as the shopper reads them: "label value", one a line. */
const totals = () =>
  [...screen.getByText('Subtotal').closest('dl')!.children].map((row) => [...row.children].map((cell) => cell.textContent).join(' '));

describe("a shopper's order page", () => {
  it('shows the Subscribe & Save discount and the promo code each on its own line (issue 19)', () => {
    render(<OrderDetails order={order({ discount: 774, subscribeDiscount: 494, promoDiscount: 280, promoCode: 'WELCOME10' })} />);
    expect(totals()).toEqual([
      'Subtotal $32.94',
      'Subscribe & Save (15%) -$4.94',
      'Discount (WELCOME10) -$2.80',
      'Shipping Free',
      'Tax $2.02',
      'Total $27.22',
    ]);
  });

  it('shows a promo alone under its code, and no discount line without one', () => {
    render(<OrderDetails order={order({ discount: 329, promoDiscount: 329, promoCode: 'WELCOME10' })} />);
    expect(totals().filter((line) => line.includes('Discount') || line.includes('Save'))).toEqual(['Discount (WELCOME10) -$3.29']);
    cleanup();
    render(<OrderDetails order={order()} />);
    expect(totals()).toEqual(['Subtotal $32.94', 'Shipping Free', 'Tax $2.02', 'Total $27.22']);
  });

  it('shows an old order whose discount could not be split as one "Discount" line', () => {
    render(<OrderDetails order={order({ discount: 500, promoCode: 'GONE' })} />);
    expect(totals().filter((line) => line.includes('Discount'))).toEqual(['Discount -$5.00']);
  });
});
