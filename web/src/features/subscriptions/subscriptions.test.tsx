import { CHECKOUT_MESSAGES, SANDBOX_TEST_CARD, type AcceptResponse, type PaymentsStatus } from '@nh/shared/contracts/checkout';
import { describeSkippedPeriod, SUBSCRIPTION_DISCOUNT_PERCENT, SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AcceptSecureData } from '@/components/card-entry/accept';
import { formatLongDate } from '@/lib/format-date';
import type { FakeAnswer } from '@/testing/render-route';
import { PLAN_ID, planView } from './testing/plan-view';
import { callsTo, renderMySubscriptions, SANDBOX_STATUS, SHOPPER } from './testing/render-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete window.Accept;
});

const CANCELLED_ID = '22222222-2222-4222-8222-222222222222';
const PAUSED_ID = '33333333-3333-4333-8333-333333333333';

const active = planView();
const cancelled = planView({
  id: CANCELLED_ID,
  status: 'cancelled',
  createdAt: '2025-01-05T15:00:00.000Z',
  items: [{ productId: 8, productName: 'Dishy Pods', variantSku: 'DP-30', quantity: 1, price: '14.99' }],
  amount: '13.76',
  cancelledAt: '2025-02-01T15:00:00.000Z',
  cardType: null,
  cardLastFour: null,
});
const paused = planView({ id: PAUSED_ID, status: 'paused', createdAt: '2024-12-01T15:00:00.000Z', items: [{ productId: 9, productName: 'Glassy Glass', variantSku: null, quantity: 3, price: '9.50' }] });

const region = (name: string) => screen.findByRole('region', { name });

describe('My Subscriptions', () => {
  it('shows a loading state while the shopper or the list is still loading', async () => {
    renderMySubscriptions({ '/api/auth/user': 'pending' });
    expect(screen.getByRole('status').textContent).toBe('Loading your subscriptions...');
    cleanup();

    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/subscriptions': 'pending' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('My Subscriptions'));
    expect(screen.getByRole('status').textContent).toBe('Loading your subscriptions...');
    expect(screen.getByTestId('subscriptions-loading')).toBeTruthy();
  });

  it('asks a signed-out shopper to log in, without asking for the list', async () => {
    const fetchMock = renderMySubscriptions({ '/api/auth/user': { status: 200, body: null } });
    await screen.findByRole('heading', { name: SUBSCRIPTION_MESSAGES.loginRequiredTitle });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Login Required');
    expect(screen.getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/api/login');
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/subscriptions');
  });

  it('shows Login Required when the list answers 401 (the session ended)', async () => {
    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/subscriptions': { status: 401, body: { message: SUBSCRIPTION_MESSAGES.listLoginRequired } } });
    expect((await screen.findByRole('heading', { name: 'Login Required' })).tagName).toBe('H1');
  });

  it('shows the load failure alert on a server error or an answer that breaks the contract', async () => {
    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/subscriptions': { status: 500, body: { message: 'boom' } } });
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load subscriptions. Please try again later.');
    cleanup();

    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/subscriptions': { status: 200, body: [{ id: 'not-a-uuid' }] } });
    expect((await screen.findByRole('alert')).textContent).toBe(SUBSCRIPTION_MESSAGES.loadFailed);
  });

  it('shows the empty state with a Shop Now link', async () => {
    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/subscriptions': { status: 200, body: [] } });
    expect((await screen.findByRole('heading', { name: 'No subscriptions yet' })).tagName).toBe('H2');
    expect(screen.getByRole('link', { name: 'Shop Now' }).getAttribute('href')).toBe('/shop');
    expect(screen.queryByRole('region', { name: 'Active Subscriptions' })).toBeNull();
  });

  it('lists active and paused plans under Active (a paused plan is not past), the ended ones under Past, with the benefits card', async () => {
    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/subscriptions': { status: 200, body: [cancelled, paused, active] } });
    const activeRegion = await region('Active Subscriptions');
    const pastRegion = screen.getByRole('region', { name: 'Past Subscriptions' });

    const [card, pausedArticle] = within(activeRegion).getAllByRole('article');
    expect(within(activeRegion).getAllByRole('article')).toHaveLength(2);
    const activeCard = within(card!);
    expect(activeCard.getByText('Surfy Surface Cleaner')).toBeTruthy();
    expect(activeCard.getByText('Qty 2 × $20.00 each')).toBeTruthy();
    expect(activeCard.getByText('$36.72')).toBeTruthy();
    expect(activeCard.getByText('15% off')).toBeTruthy();
    expect(activeCard.getByText('Active')).toBeTruthy();
    expect(activeCard.getByText(`Started ${formatLongDate(active.createdAt)}`)).toBeTruthy();
    expect(activeCard.getByText('Next delivery').nextElementSibling!.textContent).toBe(formatLongDate(active.nextBillingDate));
    expect(activeCard.getByText('Visa ending in 1111')).toBeTruthy();
    expect(activeCard.getByRole('button', { name: /^Cancel Subscription/ })).toBeTruthy();

    const pastCards = within(pastRegion).getAllByRole('article');
    expect(pastCards).toHaveLength(1);
    const cancelledCard = within(pastCards[0]!);
    const pausedCard = within(pausedArticle!);
    expect(cancelledCard.getByText('Dishy Pods')).toBeTruthy();
    expect(cancelledCard.getByText('Cancelled')).toBeTruthy();
    expect(cancelledCard.getByText('Cancelled on').nextElementSibling!.textContent).toBe(formatLongDate(cancelled.cancelledAt!));
    expect(cancelledCard.queryByText('Next delivery')).toBeNull();
    expect(cancelledCard.queryByText('Payment')).toBeNull();
    expect(pausedCard.getByText('Paused')).toBeTruthy();
    expect(pausedCard.getByText('Glassy Glass')).toBeTruthy();
    expect(within(pastRegion).queryByRole('button', { name: /Cancel Subscription/ })).toBeNull();

    const benefits = screen.getByRole('complementary', { name: 'Subscribe & Save Benefits' });
    for (const text of [`${SUBSCRIPTION_DISCOUNT_PERCENT}% off every order`, 'Free shipping', 'Monthly delivery', 'Cancel anytime']) {
      expect(within(benefits).getByText(text)).toBeTruthy();
    }
  });

  it('says which deliveries were skipped and why, on the calendar day each names; a plan with none shows nothing', async () => {
    const caughtUp = planView({
      skippedPeriods: [
        { period: '2026-10-01', reason: 'renewals-late' },
        { period: '2026-11-01', reason: 'plan-paused' },
      ],
    });
    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/subscriptions': { status: 200, body: [caughtUp, cancelled] } });
    const list = within(await region('Active Subscriptions')).getByRole('list', { name: 'Skipped deliveries' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Skipped: October 1, 2026 — not charged (our renewals were paused)',
      'Skipped: November 1, 2026 — not charged (your plan was paused)',
    ]);
    expect(within(screen.getByRole('region', { name: 'Past Subscriptions' })).queryByRole('list', { name: 'Skipped deliveries' })).toBeNull();
    // Staff read the same facts in their own words (admin order detail).
    expect(caughtUp.skippedPeriods.map((p) => describeSkippedPeriod(p, 'staff'))).toEqual([
      'Skipped: Oct 1, 2026 — not charged (renewals did not run on time)',
      'Skipped: Nov 1, 2026 — not charged (the plan was paused)',
    ]);
  });

  it('cancels after confirmation: posts an empty body, toasts, and the refreshed list shows it under Past', async () => {
    const user = userEvent.setup();
    const cancelledNow = { ...active, status: 'cancelled' as const, cancelledAt: '2025-03-20T15:00:00.000Z' };
    const answers: Record<string, FakeAnswer> = {
      '/api/auth/user': SHOPPER,
      '/api/subscriptions': { status: 200, body: [active] },
      [`/api/subscriptions/${PLAN_ID}/cancel`]: { status: 200, body: cancelledNow },
    };
    const fetchMock = renderMySubscriptions(answers);
    const activeRegion = await region('Active Subscriptions');

    // Dismissing the confirmation changes nothing.
    await user.click(within(activeRegion).getByRole('button', { name: /^Cancel Subscription/ }));
    await user.click(await screen.findByRole('button', { name: 'Keep Subscription' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/cancel'))).toBe(false);

    await user.click(within(activeRegion).getByRole('button', { name: /^Cancel Subscription/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this subscription?' });
    answers['/api/subscriptions'] = { status: 200, body: [cancelledNow] };
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Subscription' }));

    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.cancelled)).toBeTruthy();
    // The stub's signature names only the URL; fetch also received its options.
    const cancelCall = fetchMock.mock.calls.find(([url]) => url === `/api/subscriptions/${PLAN_ID}/cancel`) as unknown[] | undefined;
    expect(cancelCall?.[1]).toMatchObject({ method: 'POST', body: undefined, credentials: 'include' });

    const pastRegion = await region('Past Subscriptions');
    expect(within(pastRegion).getByText('Surfy Surface Cleaner')).toBeTruthy();
    expect(within(await region('Active Subscriptions')).getByText('You have no active subscriptions.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Focus goes to the card that moved, not to the page's start.
    await waitFor(() => expect(document.activeElement).toBe(within(pastRegion).getByRole('article')));
  });

  it("shows 'Cancellation failed' with the server's message, else the generic sentence, and keeps the plan active", async () => {
    const user = userEvent.setup();
    const answers: Record<string, FakeAnswer> = {
      '/api/auth/user': SHOPPER,
      '/api/subscriptions': { status: 200, body: [active] },
      [`/api/subscriptions/${PLAN_ID}/cancel`]: { status: 409, body: { message: SUBSCRIPTION_MESSAGES.alreadyEnded } },
    };
    renderMySubscriptions(answers);
    const activeRegion = await region('Active Subscriptions');

    await user.click(within(activeRegion).getByRole('button', { name: /^Cancel Subscription/ }));
    await user.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.cancelFailedTitle)).toBeTruthy();
    expect(screen.getByText('This subscription has already ended.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(activeRegion).getByText('Surfy Surface Cleaner')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Cancel Subscription/));

    answers[`/api/subscriptions/${PLAN_ID}/cancel`] = { status: 502 };
    await user.click(within(activeRegion).getByRole('button', { name: /^Cancel Subscription/ }));
    await user.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    expect(await screen.findByText('Failed to cancel subscription. Please try again.')).toBeTruthy();
    expect(screen.getByText('Cancellation failed')).toBeTruthy();
  });
});

const OPAQUE = { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: 'token-123' };
const resumeUrl = `/api/subscriptions/${PAUSED_ID}/resume`;

/** Stands in for the tokenising script (already on the page): answers `response` to every card. */
function stubAccept(response: AcceptResponse = { opaqueData: OPAQUE, messages: { resultCode: 'Ok', message: [] } }) {
  const dispatchData = vi.fn((_data: AcceptSecureData, handler: (r: AcceptResponse) => void) => handler(response));
  window.Accept = { dispatchData };
  return dispatchData;
}

async function openResumeDialog() {
  const pastRegion = await region('Active Subscriptions');
  const button = await within(pastRegion).findByRole('button', { name: /^Resume with a new card/ });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  await userEvent.click(button);
  return screen.findByRole('dialog', { name: 'Resume with a new card' });
}

interface TypedCard {
  number: string;
  expiry: string;
  cvv: string;
  zip: string;
}

async function fillCard(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, card: TypedCard = { number: SANDBOX_TEST_CARD.number, expiry: '12/30', cvv: '123', zip: '12345' }) {
  const d = within(dialog);
  await user.type(d.getByLabelText('Card Number'), card.number);
  await user.type(d.getByLabelText('Expiration Date'), card.expiry);
  await user.type(d.getByLabelText('CVV'), card.cvv);
  await user.type(d.getByLabelText('ZIP Code'), card.zip);
}

const resumeCalls = (fetchMock: ReturnType<typeof renderMySubscriptions>) => callsTo(fetchMock, resumeUrl);

describe('Resume with a new card', () => {
  const expired = planView({ id: '44444444-4444-4444-8444-444444444444', status: 'expired', createdAt: '2024-11-01T15:00:00.000Z' });

  it('is offered only on a paused plan, with a line saying the last renewal could not be paid', async () => {
    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/payments/status': { status: 200, body: SANDBOX_STATUS }, '/api/subscriptions': { status: 200, body: [active, cancelled, paused, expired] } });
    await region('Active Subscriptions');
    const pastCards = within(screen.getByRole('region', { name: 'Past Subscriptions' })).getAllByRole('article');
    const pausedCard = within(screen.getByRole('region', { name: 'Active Subscriptions' }))
      .getAllByRole('article')
      .find((card) => within(card).queryByText('Paused'))!;

    expect(within(pausedCard).getByTestId('paused-notice').textContent).toBe('The last renewal could not be paid, so this plan is paused.');
    const button = within(pausedCard).getByRole('button', { name: /^Resume with a new card/ });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));

    expect(screen.getAllByRole('button', { name: /Resume with a new card/ })).toHaveLength(1);
    expect(screen.getAllByTestId('paused-notice')).toHaveLength(1);
    for (const card of pastCards) expect(within(card).queryByRole('button')).toBeNull();
  });

  it('is disabled with the checkout message when payments are not configured', async () => {
    const notConfigured: PaymentsStatus = { ...SANDBOX_STATUS, configured: false, publicClientKey: null, apiLoginID: null, acceptJsUrl: null };
    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/payments/status': { status: 200, body: notConfigured }, '/api/subscriptions': { status: 200, body: [paused] } });
    const pastRegion = await region('Active Subscriptions');
    const message = await within(pastRegion).findByText(CHECKOUT_MESSAGES.paymentsUnavailable);
    const button = within(pastRegion).getByRole<HTMLButtonElement>('button', { name: /^Resume with a new card/ });
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe(message.id);
  });

  it('checks the card fields with the checkout rules and messages before tokenising', async () => {
    const user = userEvent.setup();
    const dispatchData = stubAccept();
    const fetchMock = renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/payments/status': { status: 200, body: SANDBOX_STATUS }, '/api/subscriptions': { status: 200, body: [paused] } });
    const dialog = await openResumeDialog();
    const d = within(dialog);
    // Sandbox mode: the test card is shown, as at checkout.
    expect(d.getByTestId('sandbox-alert').textContent).toContain(SANDBOX_TEST_CARD.number);

    await user.click(d.getByRole('button', { name: 'Resume Subscription' }));
    for (const message of [CHECKOUT_MESSAGES.cardNumberShort, CHECKOUT_MESSAGES.expirationDate, CHECKOUT_MESSAGES.cardCodeShort, CHECKOUT_MESSAGES.zip]) {
      expect(await d.findByText(message)).toBeTruthy();
    }
    expect(d.getByLabelText('Card Number').getAttribute('aria-invalid')).toBe('true');

    await user.type(d.getByLabelText('Card Number'), '41111111111111111111');
    await user.type(d.getByLabelText('Expiration Date'), '13/30');
    await user.type(d.getByLabelText('CVV'), '12');
    await user.type(d.getByLabelText('ZIP Code'), '12345-67890');
    await user.click(d.getByRole('button', { name: 'Resume Subscription' }));
    for (const message of ['Card number must be at most 19 digits', 'Use MM/YY format', 'CVV is required', 'ZIP code is too long']) {
      expect(await d.findByText(message)).toBeTruthy();
    }
    expect(dispatchData).not.toHaveBeenCalled();
    expect(resumeCalls(fetchMock)).toHaveLength(0);
  });

  it('shows the tokeniser\'s own error on the form and sends nothing', async () => {
    const user = userEvent.setup();
    stubAccept({ messages: { resultCode: 'Error', message: [{ code: 'E_WC_05', text: 'Please provide valid credit card number.' }] } });
    const fetchMock = renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/payments/status': { status: 200, body: SANDBOX_STATUS }, '/api/subscriptions': { status: 200, body: [paused] } });
    const dialog = await openResumeDialog();
    await fillCard(user, dialog, { number: '4111 1111 1111 1112', expiry: '12/30', cvv: '123', zip: '12345' });
    await user.click(within(dialog).getByRole('button', { name: 'Resume Subscription' }));
    expect((await within(dialog).findByTestId('tokenizer-error')).textContent).toBe('Please provide valid credit card number.');
    expect(resumeCalls(fetchMock)).toHaveLength(0);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('reads Processing... and cannot be closed while sending', async () => {
    const user = userEvent.setup();
    stubAccept();
    renderMySubscriptions({ '/api/auth/user': SHOPPER, '/api/payments/status': { status: 200, body: SANDBOX_STATUS }, '/api/subscriptions': { status: 200, body: [paused] }, [resumeUrl]: 'pending' });
    const dialog = await openResumeDialog();
    await fillCard(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Resume Subscription' }));
    const sending = await within(dialog).findByRole('button', { name: 'Processing...' });
    expect((sending as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Keep Paused' }).disabled).toBe(true);
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Resume with a new card' })).toBeTruthy();
  });

  it('tokenises the card as the checkout does, posts only the opaque data, toasts, closes and lists the plan under Active', async () => {
    const user = userEvent.setup();
    const dispatchData = stubAccept();
    const resumed = { ...paused, status: 'active' as const, nextBillingDate: '2025-05-01T15:00:00.000Z' };
    const answers: Record<string, FakeAnswer> = {
      '/api/auth/user': SHOPPER,
      '/api/payments/status': { status: 200, body: SANDBOX_STATUS },
      '/api/subscriptions': { status: 200, body: [paused] },
      [resumeUrl]: { status: 200, body: resumed },
    };
    const fetchMock = renderMySubscriptions(answers);
    const dialog = await openResumeDialog();
    await fillCard(user, dialog);
    answers['/api/subscriptions'] = { status: 200, body: [resumed] };
    await user.click(within(dialog).getByRole('button', { name: 'Resume Subscription' }));

    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.resumed)).toBeTruthy();
    expect(dispatchData).toHaveBeenCalledTimes(1);
    expect(dispatchData.mock.calls[0]![0]).toEqual({
      authData: { clientKey: 'client-key', apiLoginID: 'login-id' },
      cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345' },
    });
    const [call] = resumeCalls(fetchMock);
    expect(call![1]).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(JSON.parse(String(call![1].body))).toEqual(OPAQUE);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const activeRegion = await region('Active Subscriptions');
    expect(within(activeRegion).getByText('Glassy Glass')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Past Subscriptions' })).toBeNull();
    // Focus goes to the card that moved.
    await waitFor(() => expect(document.activeElement).toBe(within(activeRegion).getByRole('article')));
  });

  it("shows 'Resume failed' with the server's message, else the generic sentence, and keeps the dialog open for another card", async () => {
    const user = userEvent.setup();
    stubAccept();
    const answers: Record<string, FakeAnswer> = {
      '/api/auth/user': SHOPPER,
      '/api/payments/status': { status: 200, body: SANDBOX_STATUS },
      '/api/subscriptions': { status: 200, body: [paused] },
      [resumeUrl]: { status: 402, body: { message: 'This transaction has been declined.' } },
    };
    const fetchMock = renderMySubscriptions(answers);
    const dialog = await openResumeDialog();
    await fillCard(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Resume Subscription' }));

    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.resumeFailedTitle)).toBeTruthy();
    expect(screen.getByText('This transaction has been declined.')).toBeTruthy();
    const button = await within(dialog).findByRole('button', { name: 'Resume Subscription' });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByRole('dialog', { name: 'Resume with a new card' })).toBe(dialog);
    expect(within(dialog).getByLabelText<HTMLInputElement>('Card Number').value).toBe(SANDBOX_TEST_CARD.number);

    answers[resumeUrl] = { status: 502 };
    await user.click(button);
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.resumeFailed)).toBeTruthy();
    expect(screen.getByText('Resume failed')).toBeTruthy();
    expect(resumeCalls(fetchMock)).toHaveLength(2);
    expect(screen.getByRole('dialog', { name: 'Resume with a new card' })).toBeTruthy();

    // Giving up leaves the plan paused, and focus back on its button.
    await user.click(within(dialog).getByRole('button', { name: 'Keep Paused' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(await region('Active Subscriptions')).getByText('Glassy Glass')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Resume with a new card/));
  });
});
