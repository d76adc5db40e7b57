import { ADMIN_REVIEW_MESSAGES, type AdminReview } from '@nh/shared/contracts/admin-reviews';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAdmin } from '../testing/render-admin';
import { stubApi } from '../testing/stub-api';
import ReviewsPage from './screens/reviews';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix();

const MANAGER: StaffMe = { id: 's2', email: 'mia@example.com', name: 'Mia Manager', role: 'manager' };
const SUPPORT: StaffMe = { id: 's4', email: 'sam@example.com', name: 'Sam Support', role: 'support' };

const review = (overrides: Partial<AdminReview>): AdminReview => ({
  id: 1,
  productId: 7,
  productName: 'Surfy Cleaner',
  customerName: 'Grace Hopper',
  customerEmail: 'grace@example.com',
  rating: 2,
  title: 'Streaky',
  comment: 'Left streaks on my glass.',
  verified: true,
  hidden: false,
  createdAt: '2025-03-01T10:00:00.000Z',
  ...overrides,
});

const PRODUCTS = [
  { id: 7, name: 'Surfy Cleaner' },
  { id: 8, name: 'Dishy Pods' },
];

function open(path = '/admin/reviews') {
  let reviews = [
    review({}),
    review({ id: 2, rating: 5, title: null, comment: 'Lovely.', customerName: 'Alan Turing', hidden: true, verified: false }),
  ];
  const calls = stubApi({
    'GET /api/admin/me': { status: 200, body: MANAGER },
    'POST /api/admin/products': { status: 200, body: PRODUCTS },
    'GET /api/admin/reviews': () => ({ status: 200, body: { reviews, total: reviews.length } }),
    'POST /api/admin/reviews/1/hide': () => {
      reviews = reviews.map((r) => (r.id === 1 ? { ...r, hidden: true } : r));
      return { status: 200, body: reviews[0] };
    },
    'POST /api/admin/reviews/2/show': () => {
      reviews = reviews.map((r) => (r.id === 2 ? { ...r, hidden: false } : r));
      return { status: 200, body: reviews[1] };
    },
    'DELETE /api/admin/reviews/1': () => {
      reviews = reviews.filter((r) => r.id !== 1);
      return { status: 204 };
    },
  });
  const router = renderAdmin(path, { signedIn: [{ path: '/admin/reviews', Component: ReviewsPage }] });
  return { calls, router };
}

const reviewCalls = (calls: ReturnType<typeof open>['calls']) =>
  calls.filter((c) => c.url.startsWith('/api/admin/reviews?')).map((c) => c.url);

describe('review moderation', () => {
  it('lists reviews with rating, visibility and who wrote them; hides and shows', async () => {
    const { calls } = open();
    const first = await screen.findByTestId('review-1');
    expect(first.textContent).toContain('2 out of 5 stars');
    expect(first.textContent).toContain('Shown on the shop');
    expect(first.textContent).toContain('Verified buyer');
    expect(first.textContent).toContain('Surfy Cleaner · Grace Hopper (grace@example.com)');
    expect(within(screen.getByTestId('review-2')).getByText('Hidden')).toBeTruthy();

    const user = userEvent.setup();
    await user.click(within(first).getByRole('button', { name: 'Hide "Streaky" by Grace Hopper' }));
    expect(await screen.findByText(ADMIN_REVIEW_MESSAGES.hidden)).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('review-1')).getByText('Hidden')).toBeTruthy());
    await user.click(within(screen.getByTestId('review-2')).getByRole('button', { name: 'Show the review by Alan Turing' }));
    expect(await screen.findByText(ADMIN_REVIEW_MESSAGES.shown)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.url.startsWith('/api/admin/reviews')).map((c) => c.url)).toEqual([
      '/api/admin/reviews/1/hide',
      '/api/admin/reviews/2/show',
    ]);
    expect(reviewCalls(calls)[0]).toBe('/api/admin/reviews?show=all&limit=50&offset=0');
  });

  it('deletes only after the confirmation', async () => {
    const { calls } = open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete "Streaky" by Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete review?' });
    expect(dialog.textContent).toContain('The review by Grace Hopper of Surfy Cleaner is removed for good');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete "Streaky" by Grace Hopper' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete review' }));
    expect(await screen.findByText(ADMIN_REVIEW_MESSAGES.deleted)).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('review-1')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/admin/reviews/1']);
  });

  it('filters by visibility, product and rating (kept in the URL)', async () => {
    const { calls, router } = open('/admin/reviews?show=hidden&rating=5');
    await screen.findByTestId('review-1');
    expect(reviewCalls(calls)[0]).toBe('/api/admin/reviews?show=hidden&limit=50&offset=0&rating=5');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Product' }));
    await user.click(await screen.findByRole('option', { name: 'Dishy Pods' }));
    await waitFor(() => expect(reviewCalls(calls).at(-1)).toBe('/api/admin/reviews?show=hidden&limit=50&offset=0&productId=8&rating=5'));
    expect(router.state.location.search).toBe('?show=hidden&productId=8&rating=5');
  });

  it('shows support the role message and calls no review API', async () => {
    const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: SUPPORT } });
    renderAdmin('/admin/reviews', { signedIn: [{ path: '/admin/reviews', Component: ReviewsPage }] });
    expect(await screen.findByText('Your role (Support) cannot moderate reviews. Ask an owner if you need it.')).toBeTruthy();
    expect(calls.map((c) => c.url)).toEqual(['/api/admin/me']);
  });
});
