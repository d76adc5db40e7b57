import { AUDIT_MESSAGES, type AuditEntry } from '@nh/shared/contracts/audit';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAdmin } from '../testing/render-admin';
import { stubApi } from '../testing/stub-api';
import AuditTrailPage from './screens/audit-trail';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix();

const MANAGER: StaffMe = { id: 's1', email: 'mia@example.com', name: 'Mia Manager', role: 'manager' };
const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  at: '2025-03-01T15:04:00.000Z',
  actorId: 's1',
  actorEmail: 'mia@example.com',
  actorRole: 'manager',
  action: 'order.updated',
  entityType: 'order',
  entityId: ORDER_ID,
  before: { status: 'pending', trackingNumber: null },
  after: { status: 'shipped', trackingNumber: '1Z999' },
  ip: '203.0.113.9',
  userAgent: 'Firefox',
  requestId: 'r1',
  ...overrides,
});

const auditPage = (path = '/admin/audit') => renderAdmin(path, { signedIn: [{ path: '/admin/audit', Component: AuditTrailPage }] });

describe('the Audit Trail screen', () => {
  it('shows who did what to which record in words, with before and after, and a CSV link', async () => {
    stubApi({
      'GET /api/admin/me': { status: 200, body: MANAGER },
      'GET /api/admin/audit': {
        status: 200,
        body: { entries: [entry({}), entry({ id: 2, action: 'staff.signed_in', entityType: 'staff', entityId: 's1', before: null, after: null, actorRole: null })], total: 2 },
      },
    });
    auditPage();
    const row = await screen.findByTestId('audit-1');
    expect(within(row).getByText('Updated order')).toBeTruthy();
    expect(within(row).getByText('Order')).toBeTruthy();
    expect(within(row).getByText('Manager')).toBeTruthy();
    expect(within(row).getByRole('link', { name: ORDER_ID }).getAttribute('href')).toBe(`/admin-orders/${ORDER_ID}`);
    expect(within(row).getByText('Status')).toBeTruthy();
    expect(within(row).getAllByTestId('audit-before').map((e) => e.textContent)).toEqual(['Pending', '(none)']);
    expect(within(row).getAllByTestId('audit-after').map((e) => e.textContent)).toEqual(['Shipped', '1Z999']);
    expect(within(screen.getByTestId('audit-2')).getByText('Signed in')).toBeTruthy();
    expect(within(screen.getByTestId('audit-2')).getByText('Staff account')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/api/admin/audit.csv');
    expect(screen.getByText('1–2 of 2')).toBeTruthy();
  });

  it('filters by kind, action and dates (checked first), pages, and downloads with the same filters', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: MANAGER },
      'GET /api/admin/audit': (_body, url) => {
        const offset = Number(new URL(url, 'http://x').searchParams.get('offset'));
        return { status: 200, body: { entries: [entry({ id: offset + 1 })], total: 120 } };
      },
    });
    auditPage();
    await screen.findByTestId('audit-1');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Record kind' }));
    await user.click(await screen.findByRole('option', { name: 'Order' }));
    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Updated order' }));
    await user.type(screen.getByLabelText('Staff email'), 'mia');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-02' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-03-01' } });
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText(AUDIT_MESSAGES.dateOrder)).toBeTruthy();
    const before = calls.length;

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-02-01' } });
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const filters = 'actor=mia&entityType=order&action=order.updated&from=2025-02-01&to=2025-03-01';
    await waitFor(() => expect(calls.slice(before).map((c) => c.url)).toContain(`/api/admin/audit?${filters}&limit=50&offset=0`));
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(`/api/admin/audit.csv?${filters}`);

    await user.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByTestId('audit-51')).toBeTruthy();
    expect(calls.at(-1)?.url).toBe(`/api/admin/audit?${filters}&limit=50&offset=50`);
    expect(screen.getByText('51–51 of 120')).toBeTruthy();
  });

  it('reads its filters from the address (a link from an order can open its history)', async () => {
    const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: MANAGER }, 'GET /api/admin/audit': { status: 200, body: { entries: [], total: 0 } } });
    auditPage(`/admin/audit?entityType=order&entityId=${ORDER_ID}&action=nonsense`);
    expect(await screen.findByText('No audit entries match these filters.')).toBeTruthy();
    expect(calls.at(-1)?.url).toBe(`/api/admin/audit?entityType=order&entityId=${ORDER_ID}&limit=50&offset=0`);
    expect(screen.getByLabelText<HTMLInputElement>('Record id').value).toBe(ORDER_ID);
  });

  it('is not offered to fulfilment: the role message, no API call', async () => {
    const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: { ...MANAGER, role: 'fulfilment' } } });
    auditPage();
    expect(await screen.findByText('Your role (Fulfilment) cannot read the audit trail. Ask an owner if you need it.')).toBeTruthy();
    expect(calls.map((c) => c.url)).toEqual(['/api/admin/me']);
  });
});
