import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import OrderManagerPage from './screens/order-manager';
import { renderAdmin } from '../testing/render-admin';
import { staffAs, summary } from '../testing/order-fixtures';
import { hasNextPage, paramsFromQuery, queryFromParams, requestOf, totalText, DEFAULT_ORDER_QUERY } from './order-query';
import { stubApi, type Call, type Reply } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix();

const FAILED_ID = '1a2b3c4d-0000-4000-8000-000000000001';
const PLAIN_ID = '5e6f7a8b-0000-4000-8000-000000000002';
const ROWS = [
  summary({ id: FAILED_ID, netsuiteSyncStatus: 'failed', total: '99.00', promoCode: 'SAVE5' }),
  summary({ id: PLAIN_ID, netsuiteSyncStatus: 'not_configured', status: 'shipped', carrier: 'UPS', trackingNumber: '1Z999', customerName: 'Barbara Liskov', paymentState: 'partially_refunded', refunded: '12.50' }),
];

/** The order list answering ROWS with a capped total, recording each request's body. */
function listReply(page: Reply = { status: 200, body: ROWS, headers: { 'X-Total-Count': '1000', 'X-Total-Capped': 'true' } }) {
  return () => page;
}

const listCalls = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/admin/orders').map((c) => c.body as Record<string, unknown>);
const lastList = (calls: Call[]) => listCalls(calls).at(-1)!;

const ordersPage = (path = '/admin-orders') => renderAdmin(path, { signedIn: [{ path: '/admin-orders', Component: OrderManagerPage }] });

describe('the order table', () => {
  it('has column headers, the words staff read, and a capped total as "1,000+ orders"', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('fulfilment') },
      'POST /api/admin/orders': listReply(),
    });
    ordersPage();
    const table = await screen.findByRole('table', { name: 'Orders' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent?.replace(/\s*\(.*\)$/, ''))).toEqual(['Order', 'Placed', 'Customer', 'Status', 'Payment', 'NetSuite', 'Promo', 'Total']);
    const failed = screen.getByTestId(`order-${FAILED_ID}`);
    expect(within(failed).getByRole('link', { name: '#1a2b3c4d' }).getAttribute('href')).toBe(`/admin-orders/${FAILED_ID}`);
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('SAVE5')).toBeTruthy();
    expect(within(failed).getByText('$99.00')).toBeTruthy();
    const plain = screen.getByTestId(`order-${PLAIN_ID}`);
    expect(within(plain).getByText('Not configured')).toBeTruthy();
    expect(within(plain).getByText('Shipped')).toBeTruthy();
    expect(within(plain).getByText('UPS 1Z999')).toBeTruthy();
    expect(screen.getByTestId('orders-count').textContent).toBe('1–2 of 1,000+ orders');
    // The first request: newest first, the first page.
    expect(lastList(calls)).toEqual({ storeCode: 'NH', sort: 'createdAt', direction: 'desc', limit: 50, offset: 0 });
    // Fulfilment neither retries syncs nor exports.
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByTestId('bulk-retry')).toBeNull();
    expect(screen.queryByTestId('export-panel')).toBeNull();
  });

  it('sorts by total and date on the server, pages on the server', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('support') },
      'POST /api/admin/orders': listReply({ status: 200, body: ROWS, headers: { 'X-Total-Count': '120', 'X-Total-Capped': 'false' } }),
    });
    const router = ordersPage();
    await screen.findByTestId(`order-${FAILED_ID}`);
    const placed = screen.getByRole('columnheader', { name: /Placed/ });
    expect(placed.getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(within(screen.getByRole('columnheader', { name: /Total/ })).getByRole('button'));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ sort: 'total', direction: 'desc', offset: 0 }));
    expect(screen.getByRole('columnheader', { name: /Total/ }).getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: /Placed/ }).getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Total/ })).getByRole('button'));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ sort: 'total', direction: 'asc' }));
    expect(router.state.location.search).toBe('?sort=total&dir=asc');

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ sort: 'total', direction: 'asc', offset: 50, limit: 50 }));
    expect(screen.getByTestId('orders-count').textContent).toBe('51–52 of 120 orders');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ offset: 0 }));

    // A click on a row opens the order.
    fireEvent.click(within(screen.getByTestId(`order-${PLAIN_ID}`)).getByText('Barbara Liskov'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin-orders/${PLAIN_ID}`));
  });

  it('opens an order clicked while the search box is still settling, even when its screen is slow to load', async () => {
    stubApi({ 'GET /api/admin/me': { status: 200, body: staffAs('support') }, 'POST /api/admin/orders': listReply() });
    // The order's screen arrives later than the typing delay, as a code chunk on a slow connection does.
    const slowDetail = { path: '/admin-orders/:id', lazy: () => new Promise<{ Component: () => ReactNode }>((done) => setTimeout(() => done({ Component: () => <p>the order</p> }), 800)) };
    const router = renderAdmin('/admin-orders', { signedIn: [{ path: '/admin-orders', Component: OrderManagerPage }, slowDetail] });
    await screen.findByTestId(`order-${PLAIN_ID}`);
    fireEvent.change(screen.getByLabelText('Search orders'), { target: { value: 'Barbara' } });
    fireEvent.click(within(screen.getByTestId(`order-${PLAIN_ID}`)).getByText('Barbara Liskov'));
    expect(await screen.findByText('the order', undefined, { timeout: 3000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/admin-orders/${PLAIN_ID}`);
  });

  it('filters by status, NetSuite status (in words), dates, promo code and search; refuses a reversed range without asking', async () => {
    const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: staffAs('support') }, 'POST /api/admin/orders': listReply() });
    ordersPage();
    await screen.findByTestId(`order-${FAILED_ID}`);
    const user = userEvent.setup();

    await user.click(screen.getByRole('combobox', { name: 'NetSuite status' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Any NetSuite status', 'Pending', 'Synced', 'Failed', 'Not configured']);
    await user.click(screen.getByRole('option', { name: 'Not configured' }));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ netsuiteStatus: 'not_configured' }));

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Shipped' }));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ status: 'shipped', netsuiteStatus: 'not_configured' }));

    await user.type(screen.getByLabelText('Promo code'), 'save5');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ promo: 'SAVE5' }));
    await user.type(screen.getByLabelText('Search orders'), 'Edsger');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ search: 'Edsger', promo: 'SAVE5', offset: 0 }));

    fireEvent.change(screen.getByLabelText('Placed from'), { target: { value: '2025-03-05' } });
    await waitFor(() => expect(lastList(calls)).toMatchObject({ from: '2025-03-05' }));
    const asked = listCalls(calls).length;
    fireEvent.change(screen.getByLabelText('Placed to'), { target: { value: '2025-03-01' } });
    expect(await screen.findByText('The "from" date must be on or before the "to" date.')).toBeTruthy();
    expect(screen.getByText('Correct the dates to see orders.')).toBeTruthy();
    expect(listCalls(calls)).toHaveLength(asked);
    fireEvent.change(screen.getByLabelText('Placed to'), { target: { value: '2025-03-09' } });
    await waitFor(() => expect(lastList(calls)).toMatchObject({ from: '2025-03-05', to: '2025-03-09' }));

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastList(calls)).toEqual({ storeCode: 'NH', sort: 'createdAt', direction: 'desc', limit: 50, offset: 0 }));
    expect(screen.getByLabelText<HTMLInputElement>('Search orders').value).toBe('');
  });

  it('shows the payment state in words with what was refunded, and filters by it (issue 23)', async () => {
    const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: staffAs('support') }, 'POST /api/admin/orders': listReply() });
    ordersPage();
    const plain = await screen.findByTestId(`order-${PLAIN_ID}`);
    expect(within(plain).getByText('Partially refunded')).toBeTruthy();
    expect(within(plain).getByText('$12.50 refunded')).toBeTruthy();
    expect(within(screen.getByTestId(`order-${FAILED_ID}`)).getByText('Paid')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Payment' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Any payment', 'Paid', 'Partially refunded', 'Refunded', 'Voided', 'Not paid']);
    await user.click(screen.getByRole('option', { name: 'Refunded' }));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ paymentState: 'refunded', offset: 0 }));
    expect(paramsFromQuery({ ...DEFAULT_ORDER_QUERY, paymentState: 'voided' }).toString()).toBe('payment=voided');
    expect(queryFromParams(new URLSearchParams('payment=PARTIAL')).paymentState).toBe('');
  });

  it("the export follows the table's search and payment state (issue 23)", async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('owner') },
      'POST /api/admin/orders': listReply(),
      'POST /api/admin/orders/export': { status: 202, body: { exportId: '9d5ed678-fe57-4cca-a4a3-9b1b1e1e0001', status: 'queued' } },
      'POST /api/admin/orders/export/history': { status: 200, body: { exports: [] } },
      'POST /api/admin/orders/export/9d5ed678-fe57-4cca-a4a3-9b1b1e1e0001/status': { status: 200, body: {} },
      'POST /api/admin/sync/status': { status: 200, body: {} },
    });
    ordersPage('/admin-orders?q=ada&payment=refunded&promo=SAVE5');
    const panel = await screen.findByTestId('export-panel');
    fireEvent.click(within(panel).getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/orders/export')).toBe(true));
    expect(calls.find((c) => c.url === '/api/admin/orders/export')!.body).toMatchObject({ search: 'ada', paymentState: 'refunded', promo: 'SAVE5' });
  });

  it('retries the NetSuite sync of the failed orders chosen (sync.manage), and only failed orders can be chosen', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('manager') },
      'POST /api/admin/orders': listReply(),
      'POST /api/admin/sync/summary': { status: 200, body: { storeCode: 'NH', counts: { pending: 0, synced: 5, failed: 1, not_configured: 1 }, oldestPendingAt: null, failedSyncRows: 1, queue: null } },
      'POST /api/admin/orders/export/history': { status: 200, body: { exports: [] } },
      'POST /api/admin/sync/retry-failed': { status: 202, body: { retried: 1 } },
    });
    ordersPage();
    await screen.findByTestId(`order-${FAILED_ID}`);
    const retry = screen.getByRole('button', { name: /^Retry NetSuite sync/ });
    expect(retry).toHaveProperty('disabled', true);
    expect(within(screen.getByTestId(`order-${PLAIN_ID}`)).queryByRole('checkbox')).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select order #1a2b3c4d' }));
    expect(screen.getByTestId(`order-${FAILED_ID}`).getAttribute('data-state')).toBe('selected');
    expect(screen.getByRole('checkbox', { name: 'Select every failed order on this page' }).getAttribute('data-state')).toBe('checked');
    fireEvent.click(screen.getByRole('button', { name: 'Retry NetSuite sync (1)' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/sync/retry-failed')).toBe(true));
    expect(calls.find((c) => c.url === '/api/admin/sync/retry-failed')!.body).toEqual({ storeCode: 'NH', orderIds: [FAILED_ID] });
    expect(await screen.findByText('Sync retry queued')).toBeTruthy();
    expect(screen.getByText('1 order will be sent to NetSuite again.')).toBeTruthy();
    // The choice is spent and the page read again.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Retry NetSuite sync' })).toHaveProperty('disabled', true));
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(1));
  });

  it('lists store-credit movements whose NetSuite sync failed and retries one (issue 23)', async () => {
    const failed = [{ entryId: '42', kind: 'grant', amount: '12.50', customerId: PLAIN_ID, customerEmail: 'ada@example.com', errorMessage: 'INVALID_KEY_OR_REF', attempts: 5, lastAttemptAt: '2026-03-01T10:00:00.000Z', createdAt: '2026-03-01T09:00:00.000Z' }];
    let retried = false;
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: staffAs('manager') },
      'POST /api/admin/orders': listReply(),
      'POST /api/admin/sync/summary': { status: 200, body: { storeCode: 'NH', counts: { pending: 0, synced: 5, failed: 0, not_configured: 0 }, oldestPendingAt: null, failedSyncRows: 0, queue: null } },
      'POST /api/admin/orders/export/history': { status: 200, body: { exports: [] } },
      'POST /api/admin/sync/store-credit/failed': () => ({ status: 200, body: { failed: retried ? [] : failed } }),
      'POST /api/admin/sync/store-credit/42/retry': () => {
        retried = true;
        return { status: 202, body: { entryId: '42', status: 'pending' } };
      },
    });
    ordersPage();
    const list = await screen.findByRole('list', { name: 'Store-credit movements whose NetSuite sync failed' });
    expect(within(list).getByText(/Credit given \$12\.50 · ada@example\.com/)).toBeTruthy();
    expect(within(list).getByText('INVALID_KEY_OR_REF')).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The store-credit movement will be sent to NetSuite again.')).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/admin/sync/store-credit/42/retry')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Store-credit movements whose NetSuite sync failed' })).toBeNull());
  });
});

describe('the order table view in the URL', () => {
  it('reads and writes only what differs from the default, and asks the server for it', () => {
    const query = queryFromParams(new URLSearchParams('q=ada&status=shipped&netsuite=not_configured&from=2025-03-01&to=bad&promo=save5&sort=total&dir=asc&size=25&page=2'));
    expect(query).toEqual({ ...DEFAULT_ORDER_QUERY, search: 'ada', status: 'shipped', netsuiteStatus: 'not_configured', from: '2025-03-01', promo: 'save5', sort: 'total', direction: 'asc', pageSize: 25, page: 2 });
    expect(paramsFromQuery(query).toString()).toBe('q=ada&status=shipped&netsuite=not_configured&from=2025-03-01&promo=save5&sort=total&dir=asc&size=25&page=2');
    expect(requestOf(query)).toEqual({ search: 'ada', status: 'shipped', netsuiteStatus: 'not_configured', from: '2025-03-01', to: undefined, promo: 'save5', sort: 'total', direction: 'asc', limit: 25, offset: 50 });
    expect(queryFromParams(new URLSearchParams('status=lost&size=7&sort=name'))).toEqual(DEFAULT_ORDER_QUERY);
  });

  it('counts "1 order", "1,000+ orders" and knows when a next page exists past a capped count', () => {
    expect(totalText(1, false)).toBe('1 order');
    expect(totalText(0, false)).toBe('0 orders');
    expect(totalText(1000, true)).toBe('1,000+ orders');
    const page19 = { ...DEFAULT_ORDER_QUERY, page: 19 };
    expect(hasNextPage(page19, 50, 1000, false)).toBe(false);
    expect(hasNextPage(page19, 50, 1000, true)).toBe(true);
    expect(hasNextPage({ ...page19, page: 20 }, 12, 1000, true)).toBe(false);
  });
});
