import type { StaffRole } from '@nh/shared/contracts/staff';
import type { AdminClaim } from '@nh/shared/contracts/claims';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import OrderDetailPage from '../orders/screens/order-detail';
import ClaimsQueuePage from './screens/claims-queue';
import { ClaimRatesCard } from './components/claim-rates-card';
import { renderAdmin } from '../testing/render-admin';
import { order, ORDER_ID, staffAs } from '../testing/order-fixtures';
import { NETWORK_FAILURE, stubApi, type Handler } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix({ resizeObserver: true });
afterEach(cleanup);

const CLAIM = `POST /api/admin/orders/${ORDER_ID}/claims`;
const CLAIM_ID = '9b2f0c9e-1c1a-4d7e-9c55-2f3c5e7a8b90';

const claim = (overrides: Partial<AdminClaim> = {}): AdminClaim => ({
  id: CLAIM_ID,
  orderId: ORDER_ID,
  customerEmail: 'ada@example.com',
  customerName: 'Ada Lovelace',
  source: 'shopper',
  lines: [{ line: 0, quantity: 1, productName: 'Flush Refill' }],
  reason: 'leaking',
  reasonLabel: 'Arrived leaking',
  note: 'Half empty',
  hasPhoto: false,
  status: 'awaiting_review',
  statusLabel: 'Awaiting review',
  resolution: null,
  resolutionLabel: null,
  amount: '16.60',
  replacementOrderId: null,
  staffEmail: null,
  decisionNote: null,
  decidedAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

function orderPage(role: StaffRole, made: Handler, overrides: Parameters<typeof order>[0] = {}) {
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: staffAs(role) },
    [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body: order({ status: 'shipped', ...overrides }) },
    [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events: [] } },
    [CLAIM]: made,
    [`POST /api/admin/orders/${ORDER_ID}/claims/photos`]: { status: 201, body: { photo: 'b'.repeat(32) } },
  });
  renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
  return calls;
}

describe('Report a problem on the admin order page', () => {
  it('claims the chosen items once: the same key for a resend after no answer, the words of a refusal shown', async () => {
    let replies = 0;
    const calls = orderPage('support', () => {
      replies++;
      if (replies === 1) return NETWORK_FAILURE;
      if (replies === 2) return { status: 422, body: { code: 'CLAIM_OVER_CLAIMED', message: 'At most 1 of "Flush Refill" can still be claimed on this order.' } };
      return { status: 201, body: claim({ source: 'staff', status: 'resolved', resolution: 'replace', replacementOrderId: '11111111-2222-4333-8444-555555555555' }) };
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Report a problem' }));
    const dialog = await screen.findByRole('dialog');
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Make claim' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose at least one item of the order to claim.');
    const [quantity] = within(dialog).getAllByRole('spinbutton');
    await user.clear(quantity!);
    await user.type(quantity!, '1');
    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'leaking');
    // Support cannot refund: the choice is not offered.
    expect(within(within(dialog).getByLabelText('Resolution')).queryByRole('option', { name: 'Refund to the card' })).toBeNull();
    await user.type(within(dialog).getByLabelText('Note (staff only)'), 'Cap split');
    await user.click(within(dialog).getByRole('button', { name: 'Make claim' }));
    await waitFor(() => expect(calls.filter((c) => `${c.method} ${c.url}` === CLAIM)).toHaveLength(1));
    await user.click(within(dialog).getByRole('button', { name: 'Make claim' }));
    expect(await within(dialog).findByText('At most 1 of "Flush Refill" can still be claimed on this order.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Make claim' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const claims = calls.filter((c) => `${c.method} ${c.url}` === CLAIM);
    expect(claims.map((c) => c.body)).toEqual([0, 1, 2].map(() => ({ lines: [{ line: 0, quantity: 1 }], reason: 'leaking', resolution: 'replace', note: 'Cap split' })));
    expect(new Set(claims.map((c) => c.headers['idempotency-key'])).size).toBe(1);
  });

  it('is not offered to fulfilment, nor on a cancelled order; store credit is not offered on a guest’s order', async () => {
    orderPage('fulfilment', () => ({ status: 500, body: {} }));
    expect(await screen.findByText('Order Items')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Report a problem' })).toBeNull();
    cleanup();
    orderPage('manager', () => ({ status: 500, body: {} }), { status: 'cancelled' });
    expect(await screen.findByText('Order Items')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Report a problem' })).toBeNull();
    cleanup();
    orderPage('manager', () => ({ status: 500, body: {} }), { userId: null });
    fireEvent.click(await screen.findByRole('button', { name: 'Report a problem' }));
    const resolution = within(await screen.findByRole('dialog')).getByLabelText('Resolution');
    expect(within(resolution).getAllByRole('option').map((o) => o.textContent)).toEqual(['Free replacement', 'Refund to the card']);
  });
});

describe('the claims queue', () => {
  it('shows claims awaiting review in words; approve sends the chosen resolution; decline needs a note', async () => {
    let pending = true;
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('manager') },
      'GET /api/admin/claims': () => ({ status: 200, body: pending ? [claim()] : [] }),
      [`POST /api/admin/claims/${CLAIM_ID}/approve`]: () => {
        pending = false;
        return { status: 200, body: claim({ status: 'resolved', resolution: 'credit' }) };
      },
    });
    renderAdmin('/admin/claims', { signedIn: [{ path: '/admin/claims', Component: ClaimsQueuePage }] });
    expect(await screen.findByText(/Arrived leaking · 1 × Flush Refill · \$16\.60/)).toBeTruthy();
    expect(screen.getAllByText('Awaiting review').map((e) => e.tagName)).toEqual(['OPTION', 'SPAN']);
    expect(screen.getByText(/Reported by the customer/)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Review' }));
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    expect(calls.some((c) => c.url.endsWith('/decline'))).toBe(false);
    await user.selectOptions(screen.getByLabelText('Resolution'), 'credit');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/approve')).map((c) => c.body)).toEqual([{ resolution: 'credit', note: '' }]));
    expect(await screen.findByText('No claims here.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'GET' && c.url.startsWith('/api/admin/claims'))!.url).toBe('/api/admin/claims?status=awaiting_review');
  });
});

describe('a claim’s photo', () => {
  it('the queue shows it small, linking to the full picture (the staff-only address)', async () => {
    stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('support') },
      'GET /api/admin/claims': { status: 200, body: [claim({ hasPhoto: true }), claim({ id: 'c-without', hasPhoto: false })] },
    });
    renderAdmin('/admin/claims', { signedIn: [{ path: '/admin/claims', Component: ClaimsQueuePage }] });
    const photo = await screen.findByAltText<HTMLImageElement>('Photo sent with the claim');
    expect(photo.getAttribute('src')).toBe(`/api/admin/claims/${CLAIM_ID}/photo`);
    expect(screen.getByRole('link', { name: /Open the photo/ }).getAttribute('href')).toBe(`/api/admin/claims/${CLAIM_ID}/photo`);
    expect(screen.getAllByAltText('Photo sent with the claim')).toHaveLength(1);
  });

  it('staff attach one in the claim dialog: uploaded for the order, then named by the claim', async () => {
    Object.assign(URL, { createObjectURL: () => 'blob:photo', revokeObjectURL: () => undefined });
    const calls = orderPage('support', () => ({ status: 201, body: claim({ source: 'staff', status: 'resolved', resolution: 'replace', hasPhoto: true }) }));
    fireEvent.click(await screen.findByRole('button', { name: 'Report a problem' }));
    const dialog = await screen.findByRole('dialog');
    const user = userEvent.setup({ applyAccept: false });
    const [quantity] = within(dialog).getAllByRole('spinbutton');
    await user.type(quantity!, '1');
    const input = within(dialog).getByLabelText(/^Photo/);
    await user.upload(input, new File(['gif'], 'x.gif', { type: 'image/gif' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('That file is not a photo we can use. Attach a JPEG, PNG or WebP picture.');
    await user.upload(input, new File([new Uint8Array([1, 2, 3])], 'lid.png', { type: 'image/png' }));
    expect(await within(dialog).findByAltText('The photo attached')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Make claim' }));
    await waitFor(() => expect(calls.filter((c) => `${c.method} ${c.url}` === CLAIM)).toHaveLength(1));
    const upload = calls.find((c) => c.url === `/api/admin/orders/${ORDER_ID}/claims/photos`)!;
    expect([upload.method, upload.headers['content-type'], upload.raw instanceof File]).toEqual(['POST', 'image/png', true]);
    expect(calls.find((c) => `${c.method} ${c.url}` === CLAIM)!.body).toMatchObject({ photo: 'b'.repeat(32) });
  });
});

describe('the owner’s rule on the claims screen', () => {
  it('the owner saves it, checked first; other roles do not see it', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('owner') },
      'GET /api/admin/claims': { status: 200, body: [] },
      'GET /api/admin/claims/settings': { status: 200, body: { autoApprove: false, maxAmount: '25.00', windowMonths: 12 } },
      'PUT /api/admin/claims/settings': (body) => ({ status: 200, body }),
    });
    renderAdmin('/admin/claims', { signedIn: [{ path: '/admin/claims', Component: ClaimsQueuePage }] });
    const form = await screen.findByRole('form', { name: 'Auto-approval rule' });
    const user = userEvent.setup();
    await user.click(within(form).getByRole('checkbox'));
    const amount = within(form).getByLabelText('Most a claim may be worth ($)');
    await user.clear(amount);
    await user.type(amount, 'lots');
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect(within(form).getByRole('alert').textContent).toBe('Enter the most a claim may be worth, such as 25.00.');
    await user.clear(amount);
    await user.type(amount, '30');
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect(await within(form).findByText('Rule saved.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ autoApprove: true, maxAmount: '30', windowMonths: 12 }]);
    cleanup();
    stubApi({ 'GET /api/admin/me': { status: 200, body: staffAs('manager') }, 'GET /api/admin/claims': { status: 200, body: [] } });
    renderAdmin('/admin/claims', { signedIn: [{ path: '/admin/claims', Component: ClaimsQueuePage }] });
    expect(await screen.findByText('No claims here.')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Auto-approval rule' })).toBeNull();
  });
});

describe('the claims card', () => {
  it('shows claims by reason and the products claimed most with their rate', async () => {
    const calls = stubApi({
      'GET /api/admin/reports/claims': {
        status: 200,
        body: {
          from: '2026-11-01',
          to: '2026-11-30',
          claims: 3,
          byReason: [
            { reason: 'leaking', label: 'Arrived leaking', claims: 2 },
            { reason: 'wrong_item', label: 'Wrong item sent', claims: 1 },
          ],
          byProduct: [{ productId: 1, productName: 'Flush Refill', unitsSold: 40, unitsClaimed: 2, rate: 0.05 }],
        },
      },
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ClaimRatesCard from="2026-11-01" to="2026-11-30" />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Arrived leaking')).toBeTruthy();
    expect(screen.getByRole('row', { name: /Flush Refill/ }).textContent).toContain('2 / 40');
    expect(screen.getByRole('row', { name: /Flush Refill/ }).textContent).toContain('5.0%');
    expect(calls[0]!.url).toBe('/api/admin/reports/claims?from=2026-11-01&to=2026-11-30');
  });
});
