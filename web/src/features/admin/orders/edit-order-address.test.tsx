/**
 * Issue 23 on the order page: "Edit address" beside the shipping address of an unshipped order, for the
 * roles that may; the checkout's address rules before sending; the new address shown after; a refusal
 * the page did not foresee (shipped meanwhile) shown in the server's words, the dialog kept open.
 */
import { ORDER_ADDRESS_MESSAGES } from '@nh/shared/contracts/admin-order-address';
import type { AdminOrder } from '@nh/shared/contracts/admin';
import type { StaffRole } from '@nh/shared/contracts/staff';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import OrderDetailPage from './screens/order-detail';
import { renderAdmin } from '../testing/render-admin';
import { order, ORDER_ID, staffAs } from '../testing/order-fixtures';
import { stubApi, type Reply } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix({ resizeObserver: true });

const NEW = { address: '22 Elm Ave', city: 'Eugene', state: 'OR', zip: '97401' };

function detailPage(role: StaffRole, detail: AdminOrder, put: Reply = { status: 200, body: { ...detail, shippingAddress: NEW, changed: true } }) {
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: staffAs(role) },
    [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body: detail },
    [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events: [] } },
    [`PUT /api/admin/orders/${ORDER_ID}/address`]: put,
  });
  renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
  return calls;
}

async function typeAddress(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) {
    const input = within(dialog).getByLabelText(label);
    await user.clear(input);
    if (value) await user.type(input, value);
  }
}

describe('changing the shipping address of an unshipped order', () => {
  it('support changes it: the dialog starts from the current address, sends the new one with the reason, and the page shows it', async () => {
    const user = userEvent.setup();
    const calls = detailPage('support', order({ status: 'processing' }));
    await user.click(await screen.findByRole('button', { name: 'Edit address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the shipping address' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Address').value).toBe('5 Loop Ln');
    await typeAddress(user, dialog, { Address: NEW.address, City: NEW.city, State: NEW.state, 'ZIP Code': NEW.zip });
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Customer moved');
    await user.click(within(dialog).getByRole('button', { name: 'Change address' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = calls.filter((c) => c.method === 'PUT');
    expect(put.map((c) => c.body)).toEqual([{ storeCode: expect.any(String), ...NEW, reason: 'Customer moved' }]);
    expect(await screen.findByText(ORDER_ADDRESS_MESSAGES.changed)).toBeTruthy();
    expect((await screen.findByText(/22 Elm Ave/)).textContent).toBe('22 Elm AveEugene, OR 97401');
  });

  it("checks the checkout's rules before sending: an empty city is named, nothing sent", async () => {
    const user = userEvent.setup();
    const calls = detailPage('fulfilment', order({ status: 'pending' }));
    await user.click(await screen.findByRole('button', { name: 'Edit address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the shipping address' });
    await typeAddress(user, dialog, { City: '' });
    await user.click(within(dialog).getByRole('button', { name: 'Change address' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('City is required');
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it("shows the server's refusal (shipped meanwhile) in its words and keeps the dialog open", async () => {
    const user = userEvent.setup();
    detailPage('manager', order({ status: 'processing' }), { status: 409, body: { code: 'ORDER_ADDRESS_LOCKED', message: ORDER_ADDRESS_MESSAGES.shipped } });
    await user.click(await screen.findByRole('button', { name: 'Edit address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the shipping address' });
    await typeAddress(user, dialog, { Address: NEW.address });
    await user.click(within(dialog).getByRole('button', { name: 'Change address' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(ORDER_ADDRESS_MESSAGES.shipped);
    expect(screen.getByRole('dialog', { name: 'Change the shipping address' })).toBeTruthy();
  });

  it('is not offered once the order has shipped or is cancelled', async () => {
    for (const status of ['shipped', 'delivered', 'cancelled'] as const) {
      detailPage('owner', order({ status }));
      await screen.findByText('Shipping Address');
      expect(screen.queryByRole('button', { name: 'Edit address' }), status).toBeNull();
      cleanup();
    }
  });
});
