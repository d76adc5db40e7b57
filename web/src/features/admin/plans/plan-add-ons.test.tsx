import { ONE_TIME_ITEM_MESSAGES } from '@nh/shared/contracts/ship-now-add-ons';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAdmin } from '../testing/render-admin';
import { stubApi, type Reply } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';
import { PLAN_ID, planDetail } from '../testing/plan-fixtures';
import SubscriptionDetailPage from './screens/subscription-detail';

stubBrowserForRadix();

const SUPPORT: StaffMe = { id: 's4', email: 'sam@example.com', name: 'Sam Support', role: 'support' };
const LINE_ID = '33333333-3333-4333-8333-333333333333';

const plan = planDetail({
  nextBillingDate: '2099-04-10T14:30:00.000Z',
  oneTimeItems: [{ id: LINE_ID, productId: 12, productName: 'Bamboo Brush', variantSku: null, quantity: 1 }],
});

function openPlan(routes: Record<string, Reply> = {}) {
  const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: SUPPORT }, [`GET /api/admin/subscriptions/${PLAN_ID}`]: { status: 200, body: plan }, ...routes });
  renderAdmin(`/admin/subscriptions/${PLAN_ID}`, { signedIn: [{ path: '/admin/subscriptions/:id', Component: SubscriptionDetailPage }] });
  return calls;
}

describe('ship now and one-time items on the plan page', () => {
  it('ships now with a reason and an Idempotency-Key; without a reason nothing is sent', async () => {
    const calls = openPlan({ [`POST /api/admin/subscriptions/${PLAN_ID}/ship-now`]: { status: 202, body: plan } });
    const user = userEvent.setup();
    const card = await screen.findByTestId('plan-add-ons');
    expect(within(card).getByText('1 × Bamboo Brush')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Ship now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ship the next delivery now?' });
    expect(within(dialog).getByText(/charged to the saved card now and ships today/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Ship now' }));
    expect(await within(dialog).findByText(ONE_TIME_ITEM_MESSAGES.shipNowReasonRequired)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(within(dialog).getByLabelText('Reason (for the audit trail)'), 'Ran out early');
    await user.click(within(dialog).getByRole('button', { name: 'Ship now' }));
    expect(await screen.findByText('Delivery is being charged and shipped')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ reason: 'Ran out early' });
    expect(post.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('adds a one-time item (size sent as its SKU) and removes one, each with a reason', async () => {
    const calls = openPlan({
      'GET /api/products': { status: 200, body: [{ id: 9, name: 'Refill Pack', status: 'active', price: '18.00', variants: [{ sku: 'RP-128', label: '1 gal', price: '45.00' }] }] },
      [`POST /api/admin/subscriptions/${PLAN_ID}/one-time-items`]: { status: 201, body: plan },
      [`DELETE /api/admin/subscriptions/${PLAN_ID}/one-time-items/${LINE_ID}`]: { status: 200, body: { ...plan, oneTimeItems: [] } },
    });
    const user = userEvent.setup();
    const card = await screen.findByTestId('plan-add-ons');
    await user.click(within(card).getByRole('button', { name: 'Add one-time item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a one-time item' });
    await within(dialog).findByRole('option', { name: 'Refill Pack - 1 gal' });
    await user.selectOptions(within(dialog).getByLabelText('Product'), '9:RP-128');
    await user.clear(within(dialog).getByLabelText('Quantity'));
    await user.type(within(dialog).getByLabelText('Quantity'), '2');
    await user.type(within(dialog).getByLabelText('Reason (for the audit trail)'), 'Asked by phone');
    await user.click(within(dialog).getByRole('button', { name: 'Add one-time item' }));
    expect(await screen.findByText('One-time item added')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ productId: 9, size: 'RP-128', quantity: 2, reason: 'Asked by phone' });

    await user.click(within(await screen.findByTestId('plan-add-ons')).getByRole('button', { name: 'Remove Bamboo Brush' }));
    const remove = await screen.findByRole('dialog', { name: 'Remove this one-time item?' });
    await user.type(within(remove).getByLabelText('Reason (for the audit trail)'), 'Changed their mind');
    await user.click(within(remove).getByRole('button', { name: 'Remove item' }));
    expect(await screen.findByText('One-time item removed')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')!.body).toEqual({ reason: 'Changed their mind' });
    expect(await screen.findByText('No one-time items on the next delivery.')).toBeTruthy();
  });
});
