import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { EXPORT_MESSAGES, type ExportStatusResponse } from '@nh/shared/contracts/exports';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportAvailability, exportFiltersText, exportPercent, formatBytes } from './export-orders';
import OrderManagerPage from '../orders/screens/order-manager';
import { renderAdmin } from '../testing/render-admin';
import { staffAs } from '../testing/order-fixtures';
import { stubBrowserForRadix } from '../testing/jsdom';
import { stubApi, type Call } from '../testing/stub-api';

stubBrowserForRadix();
afterEach(() => vi.restoreAllMocks());

const EXPORT_ID = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
const OLD_ID = '9b2f5a10-0000-4000-8000-0000000000aa';

const exported = (overrides: Partial<ExportStatusResponse>): ExportStatusResponse => ({
  exportId: EXPORT_ID,
  storeCode: 'NH',
  status: 'queued',
  rowsDone: 0,
  rowsTotal: null,
  error: null,
  fileName: null,
  createdAt: '2025-03-10T12:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  staffEmail: 'manager@example.com',
  filters: { from: '2025-03-01', to: '2025-03-05', status: 'shipped', search: null, netsuiteStatus: null, promo: null, paymentState: null },
  sizeBytes: null,
  expiresAt: null,
  fileDeletedAt: null,
  downloadable: false,
  ...overrides,
});

const OLD = exported({
  exportId: OLD_ID,
  status: 'completed',
  rowsDone: 1200,
  rowsTotal: 1200,
  sizeBytes: 245_760,
  createdAt: '2025-03-09T08:00:00.000Z',
  expiresAt: '2025-03-10T08:00:00.000Z',
  downloadable: true,
  staffEmail: 'owner@example.com',
  filters: { from: null, to: null, status: null, search: null, netsuiteStatus: null, promo: null, paymentState: null },
});

function managerPage(progress: ExportStatusResponse[]) {
  let polled = 0;
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: staffAs('manager') },
    'POST /api/admin/orders': { status: 200, body: [], headers: { 'X-Total-Count': '0', 'X-Total-Capped': 'false' } },
    'POST /api/admin/sync/summary': { status: 200, body: { storeCode: 'NH', counts: { pending: 0, synced: 0, failed: 0, not_configured: 0 }, oldestPendingAt: null, failedSyncRows: 0, queue: null } },
    'POST /api/admin/orders/export': { status: 202, body: { exportId: EXPORT_ID, status: 'queued' } },
    [`POST /api/admin/orders/export/${EXPORT_ID}/status`]: () => ({ status: 200, body: progress[Math.min(polled++, progress.length - 1)] }),
    'POST /api/admin/orders/export/history': () => ({ status: 200, body: { exports: polled > 0 ? [progress[Math.min(polled, progress.length) - 1], OLD] : [OLD] } }),
  });
  renderAdmin('/admin-orders', { signedIn: [{ path: '/admin-orders', Component: OrderManagerPage }] });
  return calls;
}

const started = (calls: Call[]) => calls.filter((c) => c.url === '/api/admin/orders/export');

describe('the export panel', () => {
  it('starts an export with its filters, shows the live progress, then has the browser download the streamed file', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    const objectUrl = vi.fn(() => 'blob:nope');
    Object.defineProperty(URL, 'createObjectURL', { value: objectUrl, configurable: true });
    const calls = managerPage([
      exported({ status: 'running', rowsDone: 500, rowsTotal: 2000 }),
      exported({ status: 'completed', rowsDone: 2000, rowsTotal: 2000, sizeBytes: 1_572_864, fileName: 'nh-orders-2025-03-10.csv', expiresAt: '2025-03-11T12:00:00.000Z', downloadable: true }),
    ]);
    const panel = await screen.findByTestId('export-panel');
    // The history: who, what, rows, size, until when, and a plain download link.
    const old = await within(panel).findByTestId(`export-${OLD_ID}`);
    expect(within(old).getByText('owner@example.com')).toBeTruthy();
    expect(within(old).getByText('All orders')).toBeTruthy();
    expect(within(old).getByText('1,200')).toBeTruthy();
    expect(within(old).getByText('240.0 KB')).toBeTruthy();
    expect(within(old).getByText(/^Download until /)).toBeTruthy();
    expect(within(old).getByRole('link', { name: /^Download the export started/ }).getAttribute('href')).toBe(`/api/admin/orders/export/${OLD_ID}/download?storeCode=NH`);

    fireEvent.change(within(panel).getByLabelText('From'), { target: { value: '2025-03-05' } });
    fireEvent.change(within(panel).getByLabelText('To'), { target: { value: '2025-03-01' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Export CSV' }));
    expect(await within(panel).findByText(EXPORT_MESSAGES.range)).toBeTruthy();
    expect(started(calls)).toHaveLength(0);

    fireEvent.change(within(panel).getByLabelText('From'), { target: { value: '2025-03-01' } });
    fireEvent.change(within(panel).getByLabelText('To'), { target: { value: '2025-03-05' } });
    expect(within(panel).getByText('All orders placed Mar 1, 2025 – Mar 5, 2025')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(started(calls)).toHaveLength(1));
    expect(started(calls)[0]!.body).toEqual({ storeCode: 'NH', from: '2025-03-01', to: '2025-03-05' });

    const bar = await within(panel).findByRole('progressbar', { name: 'Export progress' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('25'));
    expect(within(panel).getByText('500 of 2,000 orders')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Exporting...' })).toHaveProperty('disabled', true);

    expect(await screen.findByText(ADMIN_MESSAGES.exportSucceeded)).toBeTruthy();
    expect(within(panel).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(clicked).toEqual([`/api/admin/orders/export/${EXPORT_ID}/download?storeCode=NH`]);
    // Not a Blob: no object URL was ever made.
    expect(objectUrl).not.toHaveBeenCalled();
    expect(within(panel).getByRole('button', { name: 'Export CSV' })).toHaveProperty('disabled', false);
    const row = await within(panel).findByTestId(`export-${EXPORT_ID}`);
    expect(within(row).getByText('Shipped orders placed Mar 1, 2025 – Mar 5, 2025')).toBeTruthy();
    expect(within(row).getByText('1.5 MB')).toBeTruthy();
  }, 20_000);

  it('tells a failed export', async () => {
    managerPage([exported({ status: 'failed', error: 'disk full' })]);
    const panel = await screen.findByTestId('export-panel');
    fireEvent.click(within(panel).getByRole('button', { name: 'Export CSV' }));
    expect(await within(panel).findByText(`${ADMIN_MESSAGES.exportFailed}: disk full`)).toBeTruthy();
    expect((await screen.findAllByText(ADMIN_MESSAGES.exportFailed)).length).toBeGreaterThan(0);
  });
});

describe('export words', () => {
  it('describes filters, size, progress and availability', () => {
    expect(exportFiltersText({ from: null, to: null, status: null })).toBe('All orders');
    expect(exportFiltersText({ from: '2025-03-01', to: null, status: 'delivered' })).toBe('Delivered orders placed from Mar 1, 2025');
    expect(exportFiltersText({ from: null, to: '2025-12-31', status: '' })).toBe('All orders placed until Dec 31, 2025');
    expect(formatBytes(512)).toBe('512 B');
    expect(exportPercent({ status: 'queued', rowsDone: 0, rowsTotal: null })).toBeNull();
    expect(exportPercent({ status: 'running', rowsDone: 1, rowsTotal: 3 })).toBe(33);
    expect(exportAvailability({ status: 'completed', downloadable: false, expiresAt: null, fileDeletedAt: '2025-03-11T12:00:00.000Z', error: null })).toMatch(/^File deleted /);
  });
});
