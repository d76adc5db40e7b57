import type { CustomerDetail } from '@nh/shared/contracts/admin-customers';
import { EMAIL_CHANGE_MESSAGES } from '@nh/shared/contracts/email-change';
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
const START = `POST /api/admin/customers/${ID}/email-change`;

const customer: CustomerDetail = {
  id: ID,
  email: 'grace@example.com',
  name: 'Grace Hopper',
  hasAccount: true,
  orderCount: 0,
  lifetimeSpend: 0,
  firstOrderAt: null,
  lastOrderAt: null,
  tags: [],
  anonymised: false,
  phone: null,
  signedUpAt: '2026-01-01T10:00:00.000Z',
  newsletter: false,
  refunded: 0,
  averageOrder: null,
  orders: [],
  plans: [],
  reviews: [],
  emails: [],
  notes: [],
  credit: { balance: '0.00', entries: [] },
  timeline: [],
};

describe('changing a customer’s email from their page', () => {
  it('checks the address, sends the link and says the email changes when the customer confirms', async () => {
    let replies = 0;
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: SUPPORT },
      [`GET /api/admin/customers/${ID}`]: { status: 200, body: customer },
      [START]: () => {
        replies++;
        if (replies === 1) return { status: 409, body: { code: 'CUSTOMER_EMAIL_TAKEN', message: EMAIL_CHANGE_MESSAGES.taken } };
        return { status: 202, body: { message: EMAIL_CHANGE_MESSAGES.started, email: 'grace.new@example.com', expiresAt: '2026-03-05T10:00:00.000Z' } };
      },
    });
    renderAdmin(`/admin/customers/${ID}`, { signedIn: [{ path: '/admin/customers/:id', Component: CustomerDetailPage }] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change email' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Send confirmation link' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(EMAIL_CHANGE_MESSAGES.email);
    await user.type(within(dialog).getByLabelText('New email address'), 'Grace@Example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send confirmation link' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(EMAIL_CHANGE_MESSAGES.sameEmail);
    expect(calls.filter((c) => `${c.method} ${c.url}` === START)).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('New email address'));
    await user.type(within(dialog).getByLabelText('New email address'), 'grace.new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send confirmation link' }));
    expect(await within(dialog).findByText(EMAIL_CHANGE_MESSAGES.taken)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Send confirmation link' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => `${c.method} ${c.url}` === START).map((c) => c.body)).toEqual([{ email: 'grace.new@example.com' }, { email: 'grace.new@example.com' }]);
    expect(await screen.findByText('Link sent to grace.new@example.com')).toBeTruthy();
  });

  it('is not offered for a guest', async () => {
    stubApi({
      'GET /api/admin/me': { status: 200, body: SUPPORT },
      [`GET /api/admin/customers/${ID}`]: { status: 200, body: { ...customer, hasAccount: false, credit: null } },
    });
    renderAdmin(`/admin/customers/${ID}`, { signedIn: [{ path: '/admin/customers/:id', Component: CustomerDetailPage }] });
    expect(await screen.findByText('Grace Hopper')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Change email' })).toBeNull();
  });
});
