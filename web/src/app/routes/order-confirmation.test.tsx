import type { ShopperOrder } from '@nh/shared/contracts/account';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute, stubFetch } from '@/testing/render-route';
import OrderConfirmationRoute from './order-confirmation';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ID = '0f6d2b1c-1111-4222-8333-444455556666';
const PLAN = '7a6d2b1c-1111-4222-8333-444455556666';
const order: ShopperOrder = {
  shippingMethod: 'standard',
  refunded: 0,
  refunds: [],
  refundLeft: 0,
  id: ID,
  number: '0f6d2b1c',
  status: 'processing',
  placedAt: '2026-03-01T15:04:00.000Z', // a Sunday
  itemCount: 2,
  total: 2722,
  customerName: 'Sam Shopper',
  shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
  items: [{ productId: 1, productName: 'Starter Kit', quantity: 2, unitPrice: 1260, lineTotal: 2520 }],
  subtotal: 2520,
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
};
const open = (path: string) => renderRoute('/checkout/complete/:orderId', path, OrderConfirmationRoute);

describe('the order confirmation page', () => {
  it("shows a guest's order (read through the browser's access to it): number, lines, totals, address, expected delivery", async () => {
    const fetchMock = stubFetch({ '/api/auth/user': { status: 200, body: null }, [`/api/orders/guest/${ID}`]: { status: 200, body: order } });
    open(`/checkout/complete/${ID}`);
    expect(await screen.findByText(/Your order #0f6d2b1c is confirmed/)).toBeTruthy();
    expect(screen.getByText('Starter Kit')).toBeTruthy();
    expect(screen.getByText('$27.22')).toBeTruthy();
    expect(screen.getByText(/1 Main St, Springfield, IL 62701/)).toBeTruthy();
    expect(screen.getByTestId('expected-delivery').textContent).toBe('Expected delivery: March 9, 2026 to March 12, 2026.');
    expect(screen.queryByText(/My Subscriptions/)).toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain(`/api/orders/${ID}`);
  });

  it("reads a signed-in shopper's own order and, for a plan, says where to manage it", async () => {
    stubFetch({
      '/api/auth/user': { status: 200, body: { id: 'u1', email: 'sam@example.com', firstName: 'Sam', lastName: 'Shopper', profileImageUrl: null } },
      [`/api/orders/${ID}`]: { status: 200, body: order },
      '/api/subscriptions': { status: 200, body: [] },
    });
    open(`/checkout/complete/${ID}?plan=${PLAN}`);
    expect(await screen.findByText(/Your order #0f6d2b1c is confirmed/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My Subscriptions' }).getAttribute('href')).toBe('/subscriptions');
  });

  it("says where to find the order when this browser can no longer read it", async () => {
    stubFetch({
      '/api/auth/user': { status: 200, body: null },
      [`/api/orders/guest/${ID}`]: { status: 403, body: { message: 'Your access to this order has ended.', code: 'GUEST_ORDER_ACCESS_ENDED' } },
    });
    open(`/checkout/complete/${ID}`);
    expect(await screen.findByText('Your access to this order has ended.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Look up your order' }).getAttribute('href')).toBe('/orders/lookup');
  });
});
