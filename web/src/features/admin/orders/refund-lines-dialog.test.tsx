import type { RefundResponse } from '@nh/shared/contracts/refunds';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import OrderDetailPage from './screens/order-detail';
import { renderAdmin } from '../testing/render-admin';
import { charge, order, ORDER_ID, staffAs } from '../testing/order-fixtures';
import { stubApi, type Call } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';
import { linesAmount } from './components/refund-lines-dialog';

stubBrowserForRadix({ resizeObserver: true });

const REFUNDS = `POST /api/admin/orders/${ORDER_ID}/refunds`;
const refundCalls = (calls: Call[]) => calls.filter((c) => `${c.method} ${c.url}` === REFUNDS);
const answer: RefundResponse = {
  payment: charge({ id: 'p-refund', kind: 'refund', amount: '21.60', parentId: 'p-charge', reason: 'Leaking', staffEmail: 'manager@example.com', transactionId: 'txn-2' }),
  refunded: '21.60',
  refundable: '31.59',
};

describe('the refund by line dialog (issue 23)', () => {
  it('shows what the chosen items and shipping come to, sends lines with restock per line, notify on by default, and no amount', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('manager') },
      [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body: order() },
      [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events: [] } },
      [REFUNDS]: { status: 201, body: answer },
    });
    renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
    fireEvent.click(await screen.findByRole('button', { name: 'Refund items' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('lines-amount').textContent).toBe('To refund: $0.00');
    fireEvent.change(within(dialog).getByLabelText('Quantity of Surfy Cleaner to refund (of 2)'), { target: { value: '1' } });
    // One of two $20.00 items with its share of the $3.20 tax.
    expect(within(dialog).getByTestId('lines-amount').textContent).toBe('To refund: $21.60');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Put Surfy Cleaner back in stock' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Refund the shipping too ($9.99)' }));
    expect(within(dialog).getByTestId('lines-amount').textContent).toBe('To refund: $31.59');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $31.59' }));
    expect(await within(dialog).findByText('Please give a reason for the refund')).toBeTruthy();
    expect(refundCalls(calls)).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Leaking' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $31.59' }));
    await waitFor(() => expect(refundCalls(calls)).toHaveLength(1));
    const [sent] = refundCalls(calls);
    expect(sent!.body).toEqual({ storeCode: 'NH', lines: [{ line: 0, quantity: 1, restock: true }], includeShipping: true, reason: 'Leaking', notify: true });
    expect(sent!.headers['idempotency-key']).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    expect(await screen.findByText('Refund made')).toBeTruthy();
  });

  it('works the amount out by the shared rule', () => {
    const o = { items: [{ productId: 1, productName: 'A', quantity: 3, price: '10.00', sku: null, variantSku: null }], discount: '3.00', tax: '2.16', shipping: '0.00' };
    expect(linesAmount(o, [{ quantity: '3', restock: false }], false)).toBe(2700 + 216);
    expect(linesAmount(o, [{ quantity: '4', restock: false }], false)).toBe(0);
  });
});
