/**
 * The Subscriptions screen's tools for many plans (issue 21): the bulk swap tab (preview, then start;
 * the runs with their progress in words) and the CSV export, shown only to the roles that may use them.
 */
import type { BulkSwapRun } from '@nh/shared/contracts/bulk-swap';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAdmin } from '../testing/render-admin';
import { stubApi, type Reply } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';
import SubscriptionsPage from './screens/subscriptions';

stubBrowserForRadix();

const SUPPORT: StaffMe = { id: 's4', email: 'sam@example.com', name: 'Sam Support', role: 'support' };
const MANAGER: StaffMe = { id: 's2', email: 'mia@example.com', name: 'Mia Manager', role: 'manager' };
const me = (staff: StaffMe): Reply => ({ status: 200, body: staff });
const PLAN_ID = '0f6d2b1c-9a7e-4c1d-8b2a-5e6f7a8b9c0d';
const RUN_ID = '1f6d2b1c-9a7e-4c1d-8b2a-5e6f7a8b9c0d';

const product = (id: number, name: string, status = 'active', variants: Array<{ label: string; price: string; sku: string }> = []) => ({ id, name, status, variants, slug: name, price: '20.00' });
const run: BulkSwapRun = {
  id: RUN_ID,
  status: 'running',
  from: 'Old Spray',
  to: 'New Spray',
  reason: 'Reformulated',
  total: 120,
  done: 40,
  changed: 38,
  skipped: 2,
  failed: 0,
  outcomes: { swapped: 37, merged: 1, 'skipped-changed': 2 },
  staffEmail: 'mia@example.com',
  createdAt: '2025-02-03T10:26:00.000Z',
  startedAt: '2025-02-03T10:26:05.000Z',
  finishedAt: null,
  error: null,
};
const base = (staff: StaffMe) => ({
  'GET /api/admin/me': me(staff),
  'GET /api/admin/subscriptions': { status: 200, body: { subscriptions: [], total: 0 } },
  'POST /api/admin/subscriptions/export/history': { status: 200, body: { exports: [] } },
});

describe('bulk swap and export on the Subscriptions screen', () => {
  it('support sees neither the bulk swap tab nor the export', async () => {
    stubApi(base(SUPPORT));
    renderAdmin('/admin/subscriptions?tab=bulk-swap', { signedIn: [{ path: '/admin/subscriptions', Component: SubscriptionsPage }] });
    expect(await screen.findByText('No plans match these filters.')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Bulk swap' })).toBeNull();
    expect(screen.queryByTestId('subscription-export-panel')).toBeNull();
  });

  it('a manager previews which plans would change, then starts the swap; the runs show their progress in words', async () => {
    const calls = stubApi({
      ...base(MANAGER),
      'POST /api/admin/products': { status: 200, body: [product(1, 'Old Spray', 'inactive'), product(2, 'New Spray'), product(3, 'Pods', 'active', [{ label: 'Large', price: '9.00', sku: 'P-L' }])] },
      'GET /api/admin/subscriptions/bulk-swap/runs': { status: 200, body: { runs: [run] } },
      'POST /api/admin/subscriptions/bulk-swap': (body) =>
        (body as { dryRun: boolean }).dryRun
          ? { status: 200, body: { dryRun: true, count: 1, plans: [{ id: PLAN_ID, customerName: 'Ada Saver', customerEmail: 'ada@example.com', status: 'paused' }], from: 'Old Spray', to: 'New Spray' } }
          : { status: 202, body: { ...run, status: 'queued', dryRun: false } },
    });
    renderAdmin('/admin/subscriptions?tab=bulk-swap', { signedIn: [{ path: '/admin/subscriptions', Component: SubscriptionsPage }] });
    const progress = await screen.findByTestId(`bulk-swap-run-${RUN_ID}`);
    expect(progress.textContent).toContain('Running: 40 of 120 plans done (38 changed, 2 skipped, 0 failed)');
    expect(progress.textContent).toContain('Skipped: the plan no longer has the product (changed meanwhile)');
    expect(progress.textContent).toContain('Started by mia@example.com on Feb 3, 2025');

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Swap away' }));
    await user.click(await screen.findByRole('option', { name: 'Old Spray (not on sale)' }));
    await user.click(screen.getByRole('combobox', { name: 'Swap to' }));
    // Only products on sale can be swapped to.
    expect(screen.queryByRole('option', { name: /Old Spray/ })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'New Spray' }));
    await user.type(screen.getByLabelText(/^Reason/), 'Reformulated');
    await user.click(screen.getByRole('button', { name: 'See which plans would change' }));
    const preview = await screen.findByTestId('bulk-swap-preview');
    expect(preview.textContent).toContain('1 plan would get New Spray instead of Old Spray.');
    expect(screen.getByRole('link', { name: 'Ada Saver' }).getAttribute('href')).toBe(`/admin/subscriptions/${PLAN_ID}`);

    await user.click(screen.getByRole('button', { name: 'Swap on 1 plan' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/admin/subscriptions/bulk-swap')).toHaveLength(2));
    const sent = calls.filter((c) => c.url === '/api/admin/subscriptions/bulk-swap').map((c) => c.body);
    expect(sent).toEqual([
      { fromProductId: 1, toProductId: 2, reason: 'Reformulated', dryRun: true },
      { fromProductId: 1, toProductId: 2, reason: 'Reformulated', dryRun: false },
    ]);
  });

  it('a manager starts the subscriptions export from the plan list', async () => {
    const calls = stubApi({
      ...base(MANAGER),
      'POST /api/admin/subscriptions/export': { status: 202, body: { exportId: RUN_ID, status: 'queued' } },
      [`POST /api/admin/subscriptions/export/${RUN_ID}/status`]: {
        status: 200,
        body: {
          exportId: RUN_ID,
          storeCode: 'NH',
          status: 'running',
          rowsDone: 5,
          rowsTotal: 10,
          error: null,
          fileName: null,
          createdAt: '2025-02-03T10:26:00.000Z',
          startedAt: null,
          finishedAt: null,
          staffEmail: 'mia@example.com',
          filters: { status: null },
          sizeBytes: null,
          expiresAt: null,
          fileDeletedAt: null,
          downloadable: false,
        },
      },
    });
    renderAdmin('/admin/subscriptions', { signedIn: [{ path: '/admin/subscriptions', Component: SubscriptionsPage }] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Exporting');
    expect(calls.find((c) => c.url === '/api/admin/subscriptions/export')!.body).toEqual({ storeCode: 'NH' });
  });
});
