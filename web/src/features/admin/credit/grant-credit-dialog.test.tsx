import type { StaffRole } from '@nh/shared/contracts/staff';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import OrderDetailPage from '../orders/screens/order-detail';
import { renderAdmin } from '../testing/render-admin';
import { order, ORDER_ID, staffAs } from '../testing/order-fixtures';
import { NETWORK_FAILURE, stubApi, type Handler } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix({ resizeObserver: true });
afterEach(cleanup);

const USER = '11111111-2222-4333-8444-555555555555';
const GRANT = `POST /api/admin/customers/${USER}/credit`;

function page(role: StaffRole, grant: Handler, userId: string | null = USER) {
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: staffAs(role) },
    [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body: order({ userId }) },
    [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events: [] } },
    [`GET /api/admin/customers/${USER}/credit`]: { status: 200, body: { balance: '5.00', entries: [] } },
    [GRANT]: grant,
  });
  renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
  return calls;
}

const entry = { id: 1, kind: 'grant', label: 'Credit given', amount: '12.50', balanceAfter: '17.50', orderId: null, expiresAt: null, createdAt: '2026-01-01T00:00:00.000Z', reason: 'Leak', staffName: 'M' };

describe('Give credit on the order page', () => {
  it('gives credit to the order account once: the same key for a resend after no answer, the words of a refusal shown', async () => {
    let replies = 0;
    const calls = page('support', () => {
      replies++;
      if (replies === 1) return NETWORK_FAILURE;
      if (replies === 2) return { status: 403, body: { code: 'CREDIT_OVER_LIMIT', message: 'Your role can give at most $25.00 of credit at a time. Ask a manager to give more.' } };
      return { status: 201, body: { balance: '17.50', entry } };
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Give credit' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/Current balance: \$5\.00/)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Give credit' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter the amount of credit to give');
    await user.type(within(dialog).getByLabelText('Amount ($)'), '12.50');
    await user.type(within(dialog).getByLabelText('Reason (staff only)'), 'Leak');
    await user.click(within(dialog).getByRole('button', { name: 'Give credit' }));
    await waitFor(() => expect(calls.filter((c) => `${c.method} ${c.url}` === GRANT)).toHaveLength(1));
    await user.click(within(dialog).getByRole('button', { name: 'Give credit' }));
    expect(await within(dialog).findByText('Your role can give at most $25.00 of credit at a time. Ask a manager to give more.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Give credit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const grants = calls.filter((c) => `${c.method} ${c.url}` === GRANT);
    expect(grants.map((c) => c.body)).toEqual([0, 1, 2].map(() => ({ amount: '12.50', reason: 'Leak' })));
    expect(new Set(grants.map((c) => c.headers['idempotency-key'])).size).toBe(1);
  });

  it("is not offered for a guest's order, nor to fulfilment", async () => {
    page('manager', () => ({ status: 500, body: {} }), null);
    expect(await screen.findByText('Customer Information')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Give credit' })).toBeNull();
    cleanup();
    page('fulfilment', () => ({ status: 500, body: {} }));
    expect(await screen.findByText('Customer Information')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Give credit' })).toBeNull();
  });
});
