import type { TimelineEvent } from '@nh/shared/contracts/order-timeline';
import { RESEND_MESSAGES } from '@nh/shared/contracts/order-timeline';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import OrderDetailPage from './screens/order-detail';
import { renderAdmin } from '../testing/render-admin';
import { order, ORDER_ID, staffAs } from '../testing/order-fixtures';
import { stubApi } from '../testing/stub-api';

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const event = (overrides: Partial<TimelineEvent>): TimelineEvent => ({ at: '2025-03-01T15:04:00.000Z', kind: 'placed', title: 'Order placed', detail: 'Total $53.19', actor: null, problem: false, replacementOrderId: null, ...overrides });

const EVENTS: TimelineEvent[] = [
  event({}),
  event({ at: '2025-03-01T15:04:01.000Z', kind: 'payment', title: 'Paid $53.19', detail: 'Visa ending 1111' }),
  event({ at: '2025-03-01T15:04:05.000Z', kind: 'email', title: 'Confirmation email sent', detail: 'edsger@example.com' }),
  event({ at: '2025-03-01T15:05:00.000Z', kind: 'sync', title: 'NetSuite sales order: failed (429)', detail: 'CONCURRENCY_LIMIT_EXCEEDED · 120 ms', problem: true }),
  event({ at: '2025-03-01T15:06:00.000Z', kind: 'sync', title: 'NetSuite sales order: saved (200)', detail: '240 ms' }),
  event({ at: '2025-03-02T09:00:00.000Z', kind: 'staff', title: 'Updated order', detail: 'status: pending → shipped', actor: 'fay@example.com' }),
  event({ at: '2025-03-03T09:00:00.000Z', kind: 'refund', title: 'Refunded $10.00', detail: 'Visa ending 1111 · Damaged in transit', actor: 'mia@example.com' }),
];

function detailPage(role: 'manager' | 'support', events = EVENTS) {
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: staffAs(role) },
    [`POST /api/admin/orders/${ORDER_ID}`]: { status: 200, body: order({ status: 'pending' }) },
    [`POST /api/admin/orders/${ORDER_ID}/timeline`]: { status: 200, body: { orderId: ORDER_ID, events } },
    [`POST /api/admin/orders/${ORDER_ID}/emails`]: { status: 202, body: { queued: true, message: RESEND_MESSAGES.queued } },
  });
  renderAdmin(`/admin-orders/${ORDER_ID}`, { signedIn: [{ path: '/admin-orders/:id', Component: OrderDetailPage }] });
  return calls;
}

describe("the order's timeline", () => {
  it('shows placed, paid, each email, each NetSuite request, staff actions and refunds, oldest first, with who and problems marked', async () => {
    const calls = detailPage('support');
    const timeline = await screen.findByRole('list', { name: 'Order timeline' });
    const items = within(timeline).getAllByTestId('timeline-event');
    expect(items.map((item) => item.getAttribute('data-kind'))).toEqual(['placed', 'payment', 'email', 'sync', 'sync', 'staff', 'refund']);
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual([
      'Order: Order placed',
      'Payment: Paid $53.19',
      'Email: Confirmation email sent',
      'NetSuite problem: NetSuite sales order: failed (429)',
      'NetSuite: NetSuite sales order: saved (200)',
      'Staff: Updated order',
      'Refund: Refunded $10.00',
    ]);
    expect(items[3]!.getAttribute('data-problem')).toBe('true');
    expect(within(items[3]!).getByText('CONCURRENCY_LIMIT_EXCEEDED · 120 ms')).toBeTruthy();
    expect(within(items[5]!).getByText(/by fay@example\.com/)).toBeTruthy();
    expect(within(items[5]!).getByText('status: pending → shipped')).toBeTruthy();
    expect(within(items[6]!).getByText(/by mia@example\.com/)).toBeTruthy();
    expect(within(items[0]!).getByText('Mar 1, 2025', { exact: false }).getAttribute('dateTime')).toBe('2025-03-01T15:04:00.000Z');
    expect(calls.find((c) => c.url.endsWith('/timeline'))!.body).toEqual({ storeCode: 'NH' });
  });

  it('links a claim’s replacement order', async () => {
    const replacement = '0f1e2d3c-0000-4000-8000-000000000001';
    detailPage('support', [
      event({ kind: 'staff', title: 'Resolved a damage claim', detail: 'Free replacement · Arrived leaking · replacement order 0f1e2d3c', actor: 'sam@example.com', replacementOrderId: replacement }),
    ]);
    const link = await screen.findByRole('link', { name: 'Replacement order 0f1e2d3c' });
    expect(link.getAttribute('href')).toBe(`/admin-orders/${replacement}`);
  });

  it('says when nothing happened yet; resends the confirmation, and the shipping notice only once shipped', async () => {
    const calls = detailPage('support', []);
    expect(await screen.findByText('Nothing has happened to this order yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend shipping notice' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Resend confirmation' }));
    expect(await screen.findByText(RESEND_MESSAGES.queued)).toBeTruthy();
    expect(calls.find((c) => c.url.endsWith('/emails'))!.body).toEqual({ storeCode: 'NH', email: 'confirmation' });
    // The timeline is read again (the resend is a staff action on it).
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/timeline')).length).toBe(2));
  });
});
