import { partialUnsettledMessage, REFUND_MESSAGES, refundTooLargeMessage, settlementSentence, type ChargeSettlement, type ChargeSettlementState, type RefundResponse } from '@nh/shared/contracts/refunds';
import type { StaffRole } from '@nh/shared/contracts/staff';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import OrderDetailPage from './screens/order-detail';
import { renderAdmin } from '../testing/render-admin';
import { charge, order, ORDER_ID, staffAs } from '../testing/order-fixtures';
import { attemptFor, keepsAttempt } from './refund-attempt';
import { NETWORK_FAILURE, stubApi, type Call, type Handler, type Reply } from '../testing/stub-api';
import { ApiError } from '@/lib/query-client';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix({ resizeObserver: true });

const REFUNDS = `POST /api/admin/orders/${ORDER_ID}/refunds`;
const SETTLEMENT = `POST /api/admin/orders/${ORDER_ID}/settlement`;
const settlementOf = (state: ChargeSettlementState, status: string | null = null): ChargeSettlement => ({
  state,
  status,
  captured: '53.19',
  cardType: 'Visa',
  lastFour: '1111',
  message: settlementSentence(state, 5319, 'Visa ending 1111', status),
});
const refundCalls = (calls: Call[]) => calls.filter((c) => `${c.method} ${c.url}` === REFUNDS);

const refunded = (amount: string, kind: 'refund' | 'void' = 'refund'): RefundResponse => ({
  payment: charge({ id: 'p-refund', kind, amount, parentId: 'p-charge', reason: 'Damaged in transit', staffEmail: 'manager@example.com', transactionId: 'txn-2' }),
  refunded: amount,
  refundable: (53.19 - Number(amount)).toFixed(2),
});

function detailPage(role: StaffRole, refunds: Reply | Handler, detail = order(), settlement?: Reply) {
  const calls = stubApi({
    ...(settlement ? { [SETTLEMENT]: settlement } : {}),
    'GET /api/admin/me': { status: 200, body: staffAs(role) },
    [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body: detail },
    [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events: [] } },
    [REFUNDS]: refunds,
  });
  renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
  return calls;
}

async function openRefund() {
  fireEvent.click(await screen.findByRole('button', { name: 'Refund' }));
  return screen.findByRole('dialog');
}

describe('the refund dialog', () => {
  it('lists the payments; the amount starts at what is refundable, more is refused in the contract words, a reason is required', async () => {
    const calls = detailPage('manager', { status: 201, body: refunded('10.00') });
    expect(await screen.findByText('Can still be refunded')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Payments' })).getByText('Charge')).toBeTruthy();
    expect(screen.getAllByText('txn-1').length).toBeGreaterThan(0);
    const dialog = await openRefund();
    const amount = within(dialog).getByLabelText<HTMLInputElement>('Amount');
    expect(amount.value).toBe('53.19');
    expect(within(dialog).getByText(/Up to \$53\.19 can be refunded to Visa ending 1111/)).toBeTruthy();

    fireEvent.change(amount, { target: { value: '60' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    expect(await within(dialog).findByText(refundTooLargeMessage(5319, 5319, 0))).toBeTruthy();
    expect(within(dialog).getByText(REFUND_MESSAGES.reasonRequired)).toBeTruthy();
    fireEvent.change(amount, { target: { value: '1.234' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    expect(await within(dialog).findByText(REFUND_MESSAGES.amountFormat)).toBeTruthy();
    expect(refundCalls(calls)).toHaveLength(0);
  });

  it('notifies the customer by default; unticked, the review says so and the request carries notify: false (issue 23)', async () => {
    const calls = detailPage('manager', () => ({ status: 201, body: refunded('10.00') }));
    const dialog = await openRefund();
    const notify = within(dialog).getByRole('checkbox', { name: 'Notify the customer (a refund email)' });
    expect(notify.getAttribute('aria-checked') ?? String((notify as HTMLInputElement).checked)).toBe('true');
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '10' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Leaking' } });
    fireEvent.click(notify);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    expect(await within(dialog).findByText('Not told')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $10.00' }));
    await waitFor(() => expect(refundCalls(calls)).toHaveLength(1));
    expect(refundCalls(calls)[0]!.body).toMatchObject({ amount: '10', notify: false });
  });

  it('confirms first, sends the Idempotency-Key, keeps it for a resend after no answer, and shows what was done', async () => {
    let tries = 0;
    const calls = detailPage('manager', () => (++tries === 1 ? NETWORK_FAILURE : { status: 201, body: refunded('10.00') }));
    const dialog = await openRefund();
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '10' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: '  Damaged in transit ' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Put the items back in stock' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review refund' }));

    // The confirmation step: nothing sent yet.
    expect(await within(dialog).findByRole('heading', { name: 'Confirm the refund' })).toBeTruthy();
    expect(within(dialog).getByText('Visa ending 1111')).toBeTruthy();
    expect(within(dialog).getByText('Yes, the items go back in stock')).toBeTruthy();
    expect(refundCalls(calls)).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $10.00' }));
    expect(await within(dialog).findByText(/No answer came from the server/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $10.00' }));
    expect(await screen.findByText('Refund made')).toBeTruthy();
    expect(screen.getByText('$10.00 refunded to Visa ending 1111. $43.19 can still be refunded.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const [first, second] = refundCalls(calls);
    expect(first!.body).toEqual({ storeCode: 'NH', amount: '10', reason: 'Damaged in transit', restock: true, notify: true });
    expect(first!.headers['idempotency-key']).toMatch(/^[A-Za-z0-9_-]{8,200}$/);
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(second!.body).toEqual(first!.body);

    // A new refund is a new attempt with a new key.
    await openRefund();
    const again = screen.getByRole('dialog');
    fireEvent.change(within(again).getByLabelText('Amount'), { target: { value: '5' } });
    fireEvent.change(within(again).getByLabelText('Reason'), { target: { value: 'Goodwill' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Review refund' }));
    fireEvent.click(await within(again).findByRole('button', { name: 'Refund $5.00' }));
    await waitFor(() => expect(refundCalls(calls)).toHaveLength(3));
    expect(refundCalls(calls)[2]!.headers['idempotency-key']).not.toBe(first!.headers['idempotency-key']);
  });

  it("shows the server's words: part of an unsettled charge can only be voided in full", async () => {
    detailPage('owner', { status: 409, body: { code: 'REFUND_PARTIAL_UNSETTLED', message: partialUnsettledMessage(5319) } });
    const dialog = await openRefund();
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '20.00' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Wrong size' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Refund $20.00' }));
    expect(await within(dialog).findByText(partialUnsettledMessage(5319))).toBeTruthy();
    // Back to the form to change the amount; the dialog stays open.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(dialog).getByLabelText<HTMLInputElement>('Amount').value).toBe('20.00');
  });

  it('a whole unsettled charge is voided: the toast says the customer is not charged', async () => {
    detailPage('manager', { status: 201, body: refunded('53.19', 'void') });
    const dialog = await openRefund();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Customer changed their mind' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    expect(await within(dialog).findByText(/the whole charge is voided instead/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $53.19' }));
    expect(await screen.findByText('Payment voided')).toBeTruthy();
  });

  it('the review step says whether the charge has settled: not yet, the whole charge is voided; settled, refunded to the card ending 1111 (issue 23)', async () => {
    const unsettled = detailPage('manager', { status: 500 }, order(), { status: 200, body: settlementOf('unsettled') });
    let dialog = await openRefund();
    expect(unsettled.some((c) => c.url.endsWith('/settlement'))).toBe(false); // asked at the review only, not on the order page
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Arrived leaking' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    expect(
      await within(dialog).findByText(
        'This payment has not settled yet, so the whole charge ($53.19) will be voided: the customer is never charged. A partial refund is not possible until it settles (usually within a day).',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByTestId('settlement-note').dataset.state).toBe('unsettled');
    expect(unsettled.filter((c) => `${c.method} ${c.url}` === SETTLEMENT)[0]!.body).toEqual({ storeCode: 'NH' });
    cleanup();

    detailPage('manager', { status: 500 }, order(), { status: 200, body: settlementOf('settled') });
    dialog = await openRefund();
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '10' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Arrived leaking' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    expect(await within(dialog).findByText('This payment has settled, so the money will be refunded to the Visa ending 1111.')).toBeTruthy();
    cleanup();

    // The payment service could not be asked: the general rule, and the refund still decides.
    detailPage('manager', { status: 500 }, order(), { status: 502, body: { message: 'down' } });
    dialog = await openRefund();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Arrived leaking' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    expect(await within(dialog).findByText(/If the payment has not settled yet .* the whole charge is voided instead/)).toBeTruthy();
    await waitFor(() => expect(within(dialog).getByTestId('settlement-note').dataset.state).toBe('unknown'));
  });

  it('cannot restock a cancelled order again; support has no Refund button; nothing left means no button', async () => {
    detailPage('manager', { status: 500 }, order({ status: 'cancelled' }));
    const dialog = await openRefund();
    expect(within(dialog).getByRole('checkbox', { name: 'Put the items back in stock' })).toHaveProperty('disabled', true);
    expect(within(dialog).getByText('The items went back in stock when the order was cancelled.')).toBeTruthy();
    cleanup();

    detailPage('support', { status: 500 });
    await screen.findByText('Can still be refunded');
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
    cleanup();

    detailPage('manager', { status: 500 }, order({ refundable: '0.00', payments: [charge(), charge({ id: 'p2', kind: 'void', parentId: 'p-charge' })] }));
    await screen.findByText('Nothing left to refund');
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
  });
});

describe('cancelling an order', () => {
  it('asks first, and with the refund ticked voids or refunds the payment, then cancels', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('manager') },
      [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body: order() },
      [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events: [] } },
      [`PATCH /api/admin/orders/${ORDER_ID}`]: { status: 200, body: order({ status: 'cancelled', updatedAt: '2025-03-02T00:00:00.000Z' }) },
      [REFUNDS]: { status: 201, body: refunded('53.19', 'void') },
    });
    renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Cancelled' }));
    await user.click(screen.getByRole('button', { name: 'Update Order' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Cancel this order?' })).toBeTruthy();
    const restock = within(dialog).getByRole('checkbox', { name: 'Put the items back in stock (untick for goods lost or damaged)' });
    expect(restock.getAttribute('data-state')).toBe('checked');
    await user.click(restock); // lost in transit: the items stay out of stock
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    expect(within(dialog).getByRole('checkbox', { name: 'Refund the payment ($53.19)' }).getAttribute('data-state')).toBe('checked');
    await user.click(within(dialog).getByRole('button', { name: 'Refund $53.19 and cancel' }));

    expect(await screen.findByText('Order updated successfully')).toBeTruthy();
    const sent = calls.filter((c) => c.url.startsWith(`/api/admin/orders/${ORDER_ID}`) && c.method !== 'GET' && !c.url.endsWith('/timeline') && !(c.method === 'POST' && c.url === `/api/admin/orders/${ORDER_ID}`));
    expect(sent.map((c) => c.method)).toEqual(['POST', 'PATCH']);
    expect(sent[0]!.body).toEqual({ storeCode: 'NH', amount: '53.19', reason: 'Order cancelled', restock: false });
    expect(sent[1]!.body).toMatchObject({ storeCode: 'NH', status: 'cancelled', restock: false });
  });

  it('a refused refund cancels nothing; fulfilment is told it cannot refund and cancels without', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('fulfilment') },
      [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body: order() },
      [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events: [] } },
      [`PATCH /api/admin/orders/${ORDER_ID}`]: { status: 200, body: order({ status: 'cancelled' }) },
    });
    renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Cancelled' }));
    await user.click(screen.getByRole('button', { name: 'Update Order' }));
    const dialog = await screen.findByRole('dialog');
    // Fulfilment may choose the restock, never a refund.
    expect(within(dialog).getAllByRole('checkbox').map((c) => c.getAttribute('aria-label') ?? c.id)).toHaveLength(1);
    expect(within(dialog).queryByRole('checkbox', { name: /Refund the payment/ })).toBeNull();
    expect(within(dialog).getByText('Your role (Fulfilment) cannot refund orders. Ask an owner if you need it.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('Order updated successfully')).toBeTruthy();
    expect(calls.some((c) => c.url.endsWith('/refunds'))).toBe(false);
  });
});

describe('a refund attempt', () => {
  it('keeps its key for the same refund, a new one for another; stays open only while the outcome is unknown', () => {
    let n = 0;
    const key = () => `key-${++n}-abcdefgh`;
    const first = attemptFor(null, ORDER_ID, { amount: '10.00', reason: 'x', restock: false }, key);
    expect(attemptFor(first, ORDER_ID, { amount: '10.00', reason: 'x', restock: false }, key)).toBe(first);
    expect(attemptFor(first, ORDER_ID, { amount: '10.00', reason: 'x', restock: true }, key).key).not.toBe(first.key);
    expect(attemptFor(first, 'another-order', { amount: '10.00', reason: 'x', restock: false }, key).key).not.toBe(first.key);
    const answer = (status: number, code: string) => new ApiError(status, `${status}`, JSON.stringify({ code, message: code }));
    expect(keepsAttempt(new TypeError('Failed to fetch'))).toBe(true);
    expect(keepsAttempt(answer(502, 'PAYMENT_OUTCOME_UNKNOWN'))).toBe(true);
    expect(keepsAttempt(answer(409, 'IDEMPOTENCY_IN_PROGRESS'))).toBe(true);
    expect(keepsAttempt(answer(422, 'REFUND_TOO_LARGE'))).toBe(false);
    expect(keepsAttempt(answer(402, 'REFUND_DECLINED'))).toBe(false);
  });
});
