import type { CustomerDetail, CustomerNote, CustomerSummary } from '@nh/shared/contracts/admin-customers';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAdmin } from '../testing/render-admin';
import { stubApi } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';
import CustomersPage from './screens/customers';
import CustomerDetailPage from './screens/customer-detail';

stubBrowserForRadix();

const SUPPORT: StaffMe = { id: 's4', email: 'sam@example.com', name: 'Sam Support', role: 'support' };
const FULFILMENT: StaffMe = { id: 's3', email: 'fay@example.com', name: 'Fay Fulfilment', role: 'fulfilment' };
const ID = '11111111-2222-4333-8444-555555555555';
const ORDER = 'abcdef12-0000-4000-8000-000000000001';

const summary: CustomerSummary = {
  id: ID,
  email: 'grace@example.com',
  name: 'Grace Hopper',
  hasAccount: false,
  orderCount: 2,
  lifetimeSpend: 4500,
  firstOrderAt: '2026-01-02T10:00:00.000Z',
  lastOrderAt: '2026-03-04T10:00:00.000Z',
  tags: ['vip'],
  anonymised: false,
};

function detail(notes: CustomerNote[], tags: string[]): CustomerDetail {
  return {
    ...summary,
    tags,
    phone: null,
    signedUpAt: null,
    newsletter: true,
    refunded: 500,
    averageOrder: 2250,
    orders: [{ id: ORDER, createdAt: '2026-03-04T10:00:00.000Z', status: 'processing', statusLabel: 'Paid, being prepared', total: 3000, refunded: 500, itemCount: 2 }],
    plans: [],
    reviews: [],
    emails: [],
    notes,
    credit: null,
    timeline: [
      ...notes.map((n) => ({ kind: 'note' as const, at: n.at, title: 'Note', detail: n.body, by: n.author, orderId: null, subscriptionId: null, replacementOrderId: null })),
      { kind: 'refund', at: '2026-03-05T10:00:00.000Z', title: 'Refunded $5.00 of order abcdef12', detail: 'Leaking refill', by: 'Mia Manager', orderId: ORDER, subscriptionId: null, replacementOrderId: null },
      { kind: 'order', at: '2026-03-04T10:00:00.000Z', title: 'Order abcdef12 placed', detail: '$30.00, 2 items; now Paid, being prepared', by: null, orderId: ORDER, subscriptionId: null, replacementOrderId: null },
    ],
  };
}

describe('customers', () => {
  it('searches by email (in the URL) and lists customers in words with their figures', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: SUPPORT },
      'GET /api/admin/customers': { status: 200, body: { customers: [summary], page: 1, pageSize: 50, hasMore: false } },
    });
    const router = renderAdmin('/admin/customers', { signedIn: [{ path: '/admin/customers', Component: CustomersPage }] });
    const row = await screen.findByTestId(`customer-${ID}`);
    expect(row.textContent).toContain('Grace Hopper');
    expect(row.textContent).toContain('Guest');
    expect(row.textContent).toContain('$45.00');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search customers'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(calls.at(-1)?.url).toBe('/api/admin/customers?q=grace%40example.com'));
    expect(router.state.location.search).toBe('?q=grace%40example.com');
    await user.clear(screen.getByLabelText('Tag'));
    await user.type(screen.getByLabelText('Tag'), '!!');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A tag is 1 to 30 letters, digits, spaces or dashes');
  });

  it('shows the customer page as one timeline; a note is written and shown; tags are added', async () => {
    let notes: CustomerNote[] = [];
    let tags = ['vip'];
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: SUPPORT },
      [`GET /api/admin/customers/${ID}`]: () => ({ status: 200, body: detail(notes, tags) }),
      [`POST /api/admin/customers/${ID}/notes`]: (body) => {
        const note = { id: 1, body: (body as { body: string }).body, orderId: null, author: 'Sam Support', at: '2026-03-06T10:00:00.000Z' };
        notes = [note, ...notes];
        return { status: 201, body: note };
      },
      [`PUT /api/admin/customers/${ID}/tags`]: (body) => {
        tags = (body as { tags: string[] }).tags;
        return { status: 200, body: { tags } };
      },
    });
    renderAdmin(`/admin/customers/${ID}`, { signedIn: [{ path: '/admin/customers/:id', Component: CustomerDetailPage }] });
    const timeline = await screen.findByRole('list', { name: 'Timeline, newest first' });
    expect(within(timeline).getAllByRole('listitem').map((li) => li.getAttribute('data-kind'))).toEqual(['refund', 'order']);
    expect(timeline.textContent).toContain('Leaking refill');
    expect(screen.getByText('$22.50')).toBeTruthy(); // average order

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save note' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please write the note.');
    await user.type(screen.getByLabelText('Write a note on this customer'), 'Called, reship approved');
    await user.click(screen.getByRole('button', { name: 'Save note' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Timeline, newest first' })).getAllByRole('listitem')[0]!.textContent).toContain('Called, reship approved'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ body: 'Called, reship approved' }]);

    await user.type(screen.getByLabelText('Add a tag'), 'Leak Claim');
    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove tag leak claim' })).toBeTruthy());
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ tags: ['vip', 'leak claim'] }]);
    // Support does not get the privacy requests.
    expect(screen.queryByRole('button', { name: 'Anonymise' })).toBeNull();
  });

  it('shows fulfilment the role message and calls no customer API', async () => {
    const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: FULFILMENT } });
    renderAdmin('/admin/customers', { signedIn: [{ path: '/admin/customers', Component: CustomersPage }] });
    expect(await screen.findByText('Your role (Fulfilment) cannot view customers. Ask an owner if you need it.')).toBeTruthy();
    expect(calls.map((c) => c.url)).toEqual(['/api/admin/me']);
  });
});
