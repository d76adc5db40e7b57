/**
 * The staff plan page's changes for the customer (issue 21): change items, change address and send a
 * card update link, each a dialog with a reason checked by the shared schema before anything is sent, the
 * server's refusal kept in the dialog, and the plan shown as the answer says.
 */
import { ADMIN_SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/admin-subscriptions';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubBrowserForRadix } from '../testing/jsdom';
import { PLAN_ID, planDetail } from '../testing/plan-fixtures';
import { renderAdmin } from '../testing/render-admin';
import { stubApi, type Handler, type Reply } from '../testing/stub-api';
import SubscriptionDetailPage from './screens/subscription-detail';

stubBrowserForRadix();

const SUPPORT: StaffMe = { id: 's4', email: 'sam@example.com', name: 'Sam Support', role: 'support' };
function openPlan(routes: Record<string, Reply | Handler> = {}, plan = planDetail()) {
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: SUPPORT },
    [`GET /api/admin/subscriptions/${PLAN_ID}`]: { status: 200, body: plan },
    'GET /api/products': {
      status: 200,
      body: [
        { id: 1, name: 'Surfy Cleaner', status: 'active', price: '20.00', variants: [] },
        { id: 2, name: 'Glassy Spray', status: 'active', price: '9.00', variants: [] },
        { id: 3, name: 'Old Soap', status: 'inactive', price: '5.00', variants: [] },
      ],
    },
    ...routes,
  });
  renderAdmin(`/admin/subscriptions/${PLAN_ID}`, { signedIn: [{ path: '/admin/subscriptions/:id', Component: SubscriptionDetailPage }] });
  return calls;
}

const puts = (calls: ReturnType<typeof openPlan>) => calls.filter((c) => c.method !== 'GET');

describe('changes for the customer on the plan page', () => {
  it('offers only what the plan allows now', async () => {
    openPlan({}, planDetail({ actions: { ...planDetail().actions, items: false, address: true, cardLink: false } }));
    expect(await screen.findByRole('button', { name: 'Change address' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Change items' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send card update link' })).toBeNull();
  });

  it('changes the address: the checkout\'s messages and a reason are asked for before sending; the plan then ships to the new address', async () => {
    const moved = { address: '77 Harbor Road', city: 'Portland', state: 'OR', zip: '97201' };
    const calls = openPlan({ [`PUT /api/admin/subscriptions/${PLAN_ID}/address`]: { status: 200, body: planDetail({ shippingAddress: moved }) } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the delivery address' });
    expect(dialog.textContent).toContain('The plan ships to 1 Main St, Springfield, IL 62701.');
    const field = (label: string) => within(dialog).getByLabelText<HTMLInputElement>(label);
    expect(field('Address').value).toBe('1 Main St');

    fireEvent.change(field('Address'), { target: { value: moved.address } });
    fireEvent.change(field('City'), { target: { value: moved.city } });
    fireEvent.change(field('State'), { target: { value: moved.state } });
    fireEvent.change(field('ZIP Code'), { target: { value: '972' } });
    await user.click(within(dialog).getByRole('button', { name: 'Change address' }));
    expect(await within(dialog).findByText(CHECKOUT_MESSAGES.zip)).toBeTruthy();
    fireEvent.change(field('ZIP Code'), { target: { value: moved.zip } });
    await user.click(within(dialog).getByRole('button', { name: 'Change address' }));
    expect(await within(dialog).findByText(ADMIN_SUBSCRIPTION_MESSAGES.addressReason)).toBeTruthy();
    expect(puts(calls)).toEqual([]);

    await user.type(within(dialog).getByLabelText('Reason (for the audit trail)'), 'Moved house');
    await user.click(within(dialog).getByRole('button', { name: 'Change address' }));
    expect(await screen.findByText(ADMIN_SUBSCRIPTION_MESSAGES.addressChanged)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(puts(calls)).toEqual([expect.objectContaining({ method: 'PUT', url: `/api/admin/subscriptions/${PLAN_ID}/address`, body: { ...moved, reason: 'Moved house' } })]);
    expect(document.body.textContent).toContain('77 Harbor Road');
  });

  it('changes the items: quantities and an added product, with the reason; a refusal stays in the dialog', async () => {
    const refusal = ADMIN_SUBSCRIPTION_MESSAGES.productNotSold;
    const calls = openPlan({ [`PUT /api/admin/subscriptions/${PLAN_ID}/items`]: { status: 409, body: { code: 'SUBSCRIPTION_ITEM_NOT_SOLD', message: refusal } } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change items' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the items' });
    fireEvent.change(within(dialog).getByLabelText('Surfy Cleaner'), { target: { value: '3' } });
    const add = within(dialog).getByLabelText<HTMLSelectElement>('Add a product');
    await waitFor(() => expect(add.disabled).toBe(false));
    // The products the plan does not have yet, active ones only.
    expect([...add.options].map((o) => o.textContent)).toEqual(['Choose a product', 'Glassy Spray']);
    fireEvent.change(add, { target: { value: '2:' } });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByLabelText('Glassy Spray')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Reason (for the audit trail)'), 'Runs out of spray');
    await user.click(within(dialog).getByRole('button', { name: 'Change items' }));
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(puts(calls)[0]!.body).toEqual({
      items: [
        { productId: 1, variantSku: null, quantity: 3 },
        { productId: 2, variantSku: null, quantity: 1 },
      ],
      reason: 'Runs out of spray',
    });
  });

  it('sends a card update link with the reason: the dialog says where it goes and for how long; no card field anywhere', async () => {
    const calls = openPlan({ [`POST /api/admin/subscriptions/${PLAN_ID}/card-link`]: { status: 200, body: planDetail() } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send card update link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a card update link' });
    expect(dialog.textContent).toContain('Ada Saver (ada@example.com) is emailed a link that works once, for 7 days');
    expect(within(dialog).queryByLabelText(/card number/i)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Send link' }));
    expect(await within(dialog).findByText(ADMIN_SUBSCRIPTION_MESSAGES.cardLinkReason)).toBeTruthy();
    expect(puts(calls)).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason (for the audit trail)'), 'Card expired');
    await user.click(within(dialog).getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText(ADMIN_SUBSCRIPTION_MESSAGES.cardLinkSent)).toBeTruthy();
    expect(puts(calls)).toEqual([expect.objectContaining({ method: 'POST', url: `/api/admin/subscriptions/${PLAN_ID}/card-link`, body: { reason: 'Card expired' } })]);
  });
});
