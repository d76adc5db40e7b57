import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import OrderDetailPage from './screens/order-detail';
import { renderAdmin } from '../testing/render-admin';
import { order, ORDER_ID, staffAs } from '../testing/order-fixtures';
import { stubApi } from '../testing/stub-api';

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function openOrder(body: ReturnType<typeof order>) {
  stubApi({
    'GET /api/admin/me': { status: 200, body: staffAs('support') },
    [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body },
    [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events: [] } },
  });
  renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
}

/** The order's totals, one "label value" a line, as staff read them under Order Items. */
async function totals(): Promise<string[]> {
  const subtotal = await screen.findByText('Subtotal');
  const lines = subtotal.parentElement!.parentElement!.children;
  return [...lines].map((line) => [...line.children].map((cell) => cell.textContent).join(' ')).filter((text) => text.trim() !== '');
}

describe("an order's totals in the back office", () => {
  it('shows the Subscribe & Save discount and the promo code each on its own line (issue 19)', async () => {
    openOrder(
      order({
        subtotal: '32.94',
        discount: '7.74',
        subscribeDiscount: '4.94',
        promoDiscount: '2.80',
        promoCode: 'WELCOME10',
        shipping: '0.00',
        tax: '2.02',
        total: '27.22',
      }),
    );
    expect(await totals()).toEqual([
      'Subtotal $32.94',
      'Subscribe & Save (15%) -$4.94',
      'Discount (WELCOME10) -$2.80',
      'Shipping $0.00',
      'Tax $2.02',
      'Promo Code: WELCOME10 Applied',
      'Total $27.22',
    ]);
  });

  it('shows an old order whose discount could not be split as one "Discount" line', async () => {
    openOrder(order({ subtotal: '40.00', discount: '5.00', promoCode: 'GONE', total: '48.19' }));
    const lines = await totals();
    expect(lines.filter((line) => line.includes('Discount'))).toEqual(['Discount -$5.00']);
  });
});
