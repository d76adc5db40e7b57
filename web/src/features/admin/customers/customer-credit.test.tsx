import type { CustomerDetail } from '@nh/shared/contracts/admin-customers';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAdmin } from '../testing/render-admin';
import { stubApi } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';
import CustomerDetailPage from './screens/customer-detail';

stubBrowserForRadix({ resizeObserver: true });
afterEach(cleanup);

const SUPPORT: StaffMe = { id: 's4', email: 'sam@example.com', name: 'Sam Support', role: 'support' };
const ID = '11111111-2222-4333-8444-555555555555';
const ORDER = 'abcdef12-0000-4000-8000-000000000001';
const GRANT = `POST /api/admin/customers/${ID}/credit`;

const grantEntry = { id: 1, kind: 'grant', label: 'Credit given', amount: '15.00', balanceAfter: '15.00', orderId: null, expiresAt: '2099-03-01T10:00:00.000Z', createdAt: '2026-03-01T10:00:00.000Z', reason: 'Refill arrived leaking', staffName: 'Mia Manager' };
const spendEntry = { id: 2, kind: 'spend', label: 'Used on an order', amount: '-10.00', balanceAfter: '5.00', orderId: ORDER, expiresAt: null, createdAt: '2026-03-04T10:00:00.000Z', reason: null, staffName: null };

function customer(over: Partial<CustomerDetail>): CustomerDetail {
  return {
    id: ID,
    email: 'grace@example.com',
    name: 'Grace Hopper',
    hasAccount: true,
    orderCount: 1,
    lifetimeSpend: 3000,
    firstOrderAt: '2026-03-04T10:00:00.000Z',
    lastOrderAt: '2026-03-04T10:00:00.000Z',
    tags: [],
    anonymised: false,
    phone: null,
    signedUpAt: '2026-01-01T10:00:00.000Z',
    newsletter: false,
    refunded: 0,
    averageOrder: 3000,
    orders: [],
    plans: [],
    reviews: [],
    emails: [],
    notes: [],
    credit: { balance: '5.00', entries: [spendEntry, grantEntry] },
    timeline: [
      { kind: 'credit', at: spendEntry.createdAt, title: 'Store credit: Used on an order −$10.00 (order abcdef12)', detail: 'Balance $5.00', by: null, orderId: ORDER, subscriptionId: null, replacementOrderId: null },
      { kind: 'audit', at: grantEntry.createdAt, title: 'Gave store credit', detail: '$15.00: Refill arrived leaking (balance $0.00 → $15.00)', by: 'mia@example.com', orderId: null, subscriptionId: null, replacementOrderId: null },
    ],
    ...over,
  };
}

describe('store credit on the customer page', () => {
  it('shows the balance and history in words, gives credit from the page and shows the new balance', async () => {
    let current = customer({});
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: SUPPORT },
      [`GET /api/admin/customers/${ID}`]: () => ({ status: 200, body: current }),
      [`GET /api/admin/customers/${ID}/credit`]: () => ({ status: 200, body: current.credit }),
      [GRANT]: (body) => {
        const entry = { ...grantEntry, id: 3, amount: '7.50', balanceAfter: '12.50', reason: (body as { reason: string }).reason, staffName: 'Sam Support', createdAt: '2026-03-06T10:00:00.000Z' };
        current = customer({ credit: { balance: '12.50', entries: [entry, spendEntry, grantEntry] } });
        return { status: 201, body: { balance: '12.50', entry } };
      },
    });
    renderAdmin(`/admin/customers/${ID}`, { signedIn: [{ path: '/admin/customers/:id', Component: CustomerDetailPage }] });
    const history = await screen.findByRole('list', { name: 'Store credit history, newest first' });
    expect(within(history).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('Used on an order −$10.00 on order abcdef12'),
      expect.stringContaining('Credit given +$15.00'),
    ]);
    expect(history.textContent).toContain('Refill arrived leaking · Balance after $15.00 · Expires');
    expect(history.textContent).toContain('2099');
    expect(history.textContent).not.toMatch(/\b(grant|spend)\b/);
    expect(screen.getByText('$5.00')).toBeTruthy();
    const timeline = screen.getByRole('list', { name: 'Timeline, newest first' });
    expect(within(timeline).getAllByRole('listitem').map((li) => li.getAttribute('data-kind'))).toEqual(['credit', 'audit']);
    expect(timeline.textContent).toContain('Store credit');
    expect(timeline.textContent).toContain('Gave store credit');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Give credit' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Amount ($)'), '7.50');
    await user.type(within(dialog).getByLabelText('Reason (staff only)'), 'Late again');
    await user.click(within(dialog).getByRole('button', { name: 'Give credit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => `${c.method} ${c.url}` === GRANT).map((c) => c.body)).toEqual([{ amount: '7.50', reason: 'Late again' }]);
    // The page reads the customer again: the new balance and entry show.
    await waitFor(() => expect(screen.getByRole('list', { name: 'Store credit history, newest first' }).textContent).toContain('Late again'));
    expect(screen.getByText('$12.50')).toBeTruthy();
  });

  it('a guest has no ledger: no balance and no "Give credit", but what to do', async () => {
    stubApi({
      'GET /api/admin/me': { status: 200, body: SUPPORT },
      [`GET /api/admin/customers/${ID}`]: { status: 200, body: customer({ hasAccount: false, credit: null, timeline: [] }) },
    });
    renderAdmin(`/admin/customers/${ID}`, { signedIn: [{ path: '/admin/customers/:id', Component: CustomerDetailPage }] });
    expect(await screen.findByText(/A guest has no store credit/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Give credit' })).toBeNull();
  });
});
