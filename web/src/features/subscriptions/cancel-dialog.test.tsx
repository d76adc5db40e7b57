/** Issue 22: the cancel dialog asks why (optional), shows the matched offer beside the cancel button, cancels in one click. */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { renderRoute, stubFetch, type FakeAnswer } from '@/testing/render-route';
import SubscriptionsPage from './routes/subscriptions';
import { PLAN_ID, planView } from './testing/plan-view';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const USER = { status: 200, body: { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', profileImageUrl: null } };
const ID = PLAN_ID;
const active = planView();
const cancelledNow = { ...active, status: 'cancelled' as const, cancelledAt: '2025-03-20T15:00:00.000Z' };

function renderPage(answers: Record<string, FakeAnswer>) {
  const fetchMock = stubFetch(answers);
  renderRoute('/subscriptions', '/subscriptions', () => (
    <>
      <SubscriptionsPage />
      <Toaster />
    </>
  ));
  return fetchMock;
}
const callTo = (fetchMock: ReturnType<typeof stubFetch>, url: string) => fetchMock.mock.calls.find(([u]) => u === url) as unknown[] | undefined;

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  const region = await screen.findByRole('region', { name: 'Active Subscriptions' });
  await user.click(within(region).getByRole('button', { name: /^Cancel Subscription/ }));
  return screen.findByRole('dialog', { name: 'Cancel this subscription?' });
}

describe('the cancel dialog', () => {
  it('shows the offer for the reason with the cancel button beside it, and cancels in one click with the reason', async () => {
    const user = userEvent.setup();
    const answers: Record<string, FakeAnswer> = {
      '/api/auth/user': USER,
      '/api/subscriptions': { status: 200, body: [active] },
      [`/api/subscriptions/${ID}/cancel-offer`]: { status: 200, body: { offer: { kind: 'discount', percent: 15 } } },
      [`/api/subscriptions/${ID}/cancel`]: { status: 200, body: cancelledNow },
    };
    const fetchMock = renderPage(answers);
    const dialog = await openDialog(user);
    // No reason chosen: no offer asked for, and the cancel button is there already.
    expect(within(dialog).getByRole('button', { name: 'Cancel Subscription' })).toBeTruthy();
    expect(within(dialog).queryByTestId('cancel-offer')).toBeNull();

    await user.click(within(dialog).getByRole('radio', { name: 'It costs too much' }));
    const offer = await within(dialog).findByTestId('cancel-offer');
    // Asked for by a POST (the server records the offer as shown), never a GET.
    expect(callTo(fetchMock, `/api/subscriptions/${ID}/cancel-offer`)![1]).toMatchObject({ method: 'POST', body: JSON.stringify({ reason: 'price' }) });
    expect(within(offer).getByText(/15% off your next delivery/)).toBeTruthy();
    expect(within(offer).getByRole('button', { name: 'Take 15% off' })).toBeTruthy();
    // Same screen: the cancel button is still in the dialog, enabled.
    const cancelButton = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Cancel Subscription' });
    expect(cancelButton.disabled).toBe(false);

    answers['/api/subscriptions'] = { status: 200, body: [cancelledNow] };
    await user.click(cancelButton);
    await waitFor(() => expect(callTo(fetchMock, `/api/subscriptions/${ID}/cancel`)).toBeTruthy());
    expect(callTo(fetchMock, `/api/subscriptions/${ID}/cancel`)![1]).toMatchObject({ method: 'POST', body: JSON.stringify({ reason: 'price' }) });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('takes the offer instead in one request (the change and its acceptance together), the plan stays, the dialog closes', async () => {
    const user = userEvent.setup();
    const answers: Record<string, FakeAnswer> = {
      '/api/auth/user': USER,
      '/api/subscriptions': { status: 200, body: [active] },
      [`/api/subscriptions/${ID}/cancel-offer`]: { status: 200, body: { offer: { kind: 'longer-cadence', intervalCount: 2 } } },
      [`/api/subscriptions/${ID}/cancel-offer/accept`]: { status: 200, body: { ...active, intervalCount: 2 } },
    };
    const fetchMock = renderPage(answers);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: 'I have too much product' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Deliver every 2 months' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callTo(fetchMock, `/api/subscriptions/${ID}/cancel-offer/accept`)![1]).toMatchObject({ method: 'POST', body: JSON.stringify({ kind: 'longer-cadence', intervalCount: 2 }) });
    expect(callTo(fetchMock, `/api/subscriptions/${ID}/frequency`)).toBeUndefined();
    expect(callTo(fetchMock, `/api/subscriptions/${ID}/cancel`)).toBeUndefined();
  });

  it('takes a ship-now offer with an Idempotency-Key', async () => {
    const user = userEvent.setup();
    const answers: Record<string, FakeAnswer> = {
      '/api/auth/user': USER,
      '/api/subscriptions': { status: 200, body: [active] },
      [`/api/subscriptions/${ID}/cancel-offer`]: { status: 200, body: { offer: { kind: 'ship-now' } } },
      [`/api/subscriptions/${ID}/cancel-offer/accept`]: { status: 200, body: active },
    };
    const fetchMock = renderPage(answers);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: 'I run out before the next delivery' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Ship it now' }));
    await waitFor(() => expect(callTo(fetchMock, `/api/subscriptions/${ID}/cancel-offer/accept`)).toBeTruthy());
    const init = callTo(fetchMock, `/api/subscriptions/${ID}/cancel-offer/accept`)![1] as { body: string; headers: Record<string, string> };
    expect(init.body).toBe(JSON.stringify({ kind: 'ship-now' }));
    expect(init.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(callTo(fetchMock, `/api/subscriptions/${ID}/ship-now`)).toBeUndefined();
  });

  it('sends "Something else" with its comment', async () => {
    const user = userEvent.setup();
    const answers: Record<string, FakeAnswer> = {
      '/api/auth/user': USER,
      '/api/subscriptions': { status: 200, body: [active] },
      [`/api/subscriptions/${ID}/cancel-offer`]: { status: 200, body: { offer: null } },
      [`/api/subscriptions/${ID}/cancel`]: { status: 200, body: cancelledNow },
    };
    const fetchMock = renderPage(answers);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: 'Something else' }));
    await user.type(within(dialog).getByLabelText('Tell us more (optional)'), 'Moving abroad');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Subscription' }));
    await waitFor(() => expect(callTo(fetchMock, `/api/subscriptions/${ID}/cancel`)![1]).toMatchObject({ body: JSON.stringify({ reason: 'other', comment: 'Moving abroad' }) }));
  });
});
