/**
 * The order page of an order whose whole payment was voided or refunded: "Shipped" and "Delivered" are
 * not offered, and the reason (the server's own words, `shippingBlockedReason`) stands under the status,
 * also for a role that only looks. A refusal the server still makes (another tab refunded meanwhile) is
 * shown in the toast with its words.
 */
import { NOT_SHIPPABLE_MESSAGES } from '@nh/shared/contracts/refunds';
import type { StaffRole } from '@nh/shared/contracts/staff';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminOrder } from '@nh/shared/contracts/admin';
import OrderDetailPage from './screens/order-detail';
import { renderAdmin } from '../testing/render-admin';
import { charge, order, ORDER_ID, staffAs } from '../testing/order-fixtures';
import { stubApi, type Reply } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix({ resizeObserver: true });

const voided = (overrides: Partial<AdminOrder> = {}) =>
  order({
    status: 'processing',
    payments: [
      charge(),
      charge({
        id: 'p-void',
        kind: 'void',
        parentId: 'p-charge',
        reason: 'Customer changed their mind',
        staffEmail: 'manager@example.com',
      }),
    ],
    refundable: '0.00',
    shippingBlockedReason: NOT_SHIPPABLE_MESSAGES.voided,
    ...overrides,
  });

function detailPage(role: StaffRole, detail: AdminOrder, patch: Reply = { status: 200, body: detail }) {
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: staffAs(role) },
    [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body: detail },
    [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events: [] } },
    [`PATCH /api/admin/orders/${ORDER_ID}`]: patch,
  });
  renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
  return calls;
}

async function statusOptions(): Promise<string[]> {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('combobox', { name: 'Status' }));
  const options = (await screen.findAllByRole('option')).map((o) => o.textContent ?? '');
  await user.keyboard('{Escape}');
  return options;
}

describe('an order whose payment was given back, on its page', () => {
  it('does not offer Shipped or Delivered, and says why beside the status', async () => {
    detailPage('fulfilment', voided());
    const status = await screen.findByRole('combobox', { name: 'Status' });
    expect(await statusOptions()).toEqual(['Pending', 'Processing', 'Cancelled']);
    const reason = screen.getByTestId('shipping-blocked');
    expect(reason.textContent).toBe(NOT_SHIPPABLE_MESSAGES.voided);
    expect(status.getAttribute('aria-describedby')).toBe(reason.id);
  });

  it('offers every status to an order whose payment is kept (refunded in part)', async () => {
    detailPage('fulfilment', order({ status: 'processing', refundable: '43.19' }));
    expect(await statusOptions()).toEqual(['Pending', 'Processing', 'Shipped', 'Delivered', 'Cancelled']);
    expect(screen.queryByTestId('shipping-blocked')).toBeNull();
  });

  it('an order that shipped before its refund keeps its statuses and shows no reason', async () => {
    detailPage('fulfilment', voided({ status: 'shipped', shippingBlockedReason: NOT_SHIPPABLE_MESSAGES.refunded(5319) }));
    expect(await statusOptions()).toEqual(['Pending', 'Processing', 'Shipped', 'Delivered', 'Cancelled']);
    expect(screen.queryByTestId('shipping-blocked')).toBeNull();
  });

  it('shows the reason to a role that may only look', async () => {
    detailPage('support', voided({ shippingBlockedReason: NOT_SHIPPABLE_MESSAGES.refunded(5319) }));
    const reason = await screen.findByTestId('shipping-blocked');
    expect(reason.textContent).toBe(
      'The payment for this order was refunded in full ($53.19), so it cannot be marked shipped or delivered. Cancel the order instead; to send it anyway, the customer must order and pay again.',
    );
    expect(screen.queryByRole('combobox', { name: 'Status' })).toBeNull();
  });

  it("a refusal the page did not foresee (refunded meanwhile in another tab) is shown in the server's words", async () => {
    const refusal = { status: 409, body: { code: 'ORDER_PAYMENT_RETURNED', message: NOT_SHIPPABLE_MESSAGES.refunding } };
    const calls = detailPage('fulfilment', order({ status: 'processing' }), refusal);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Shipped' }));
    await user.click(screen.getByRole('button', { name: 'Update Order' }));
    const toast = (await screen.findByText('Failed to update order')).closest('li') ?? document.body;
    expect(within(toast).getByText(NOT_SHIPPABLE_MESSAGES.refunding)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([expect.objectContaining({ status: 'shipped' })]);
  });
});
