import type { AcceptResponse, PaymentsStatus } from '@nh/shared/contracts/checkout';
import { SANDBOX_TEST_CARD } from '@nh/shared/contracts/checkout';
import { PLAN_MAX_LINES } from '@nh/shared/constants';
import { formatCents } from '@nh/shared/money';
import { pricePlan } from '@nh/shared/pricing';
import { SUBSCRIPTION_MESSAGES as MSG } from '@nh/shared/contracts/subscriptions';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AcceptSecureData } from '@/components/card-entry/accept';
import { formatLongDate } from '@/lib/format-date';
import type { FakeAnswer } from '@/testing/render-route';
import { PLAN_ID, planView } from './testing/plan-view';
import { callsTo, renderSignedIn, SANDBOX_STATUS } from './testing/render-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete window.Accept;
});

const plan = planView({
  items: [
    { productId: 7, productName: 'Surfy Surface Cleaner', variantSku: null, quantity: 2, price: '20.00' },
    { productId: 8, productName: 'Dishy Pods', variantSku: 'DP-30', quantity: 1, price: '14.99' },
  ],
  amount: '50.49',
  rescheduleWindow: { earliest: '2025-04-01', latest: '2025-05-09' },
  nextDeliveryAmount: '50.49',
});

const bodyOf = (call: [string, RequestInit] | undefined) => JSON.parse(String(call?.[1].body)) as unknown;

async function open(name: RegExp, dialogName: string, regionName = 'Active Subscriptions') {
  const region = await screen.findByRole('region', { name: regionName });
  const button = await within(region).findByRole('button', { name });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  await userEvent.click(button);
  return screen.findByRole('dialog', { name: dialogName });
}

describe('changing a plan on My Subscriptions', () => {
  it('offers the changes on an active plan, in words; Change Date waits for a day to move to and Change Card for payments', async () => {
    const notConfigured: PaymentsStatus = { ...SANDBOX_STATUS, configured: false, publicClientKey: null, apiLoginID: null, acceptJsUrl: null };
    renderSignedIn({ '/api/payments/status': { status: 200, body: notConfigured }, '/api/subscriptions': { status: 200, body: [{ ...plan, rescheduleWindow: null }] } });
    const region = await screen.findByRole('region', { name: 'Active Subscriptions' });
    await within(region).findByText('Surfy Surface Cleaner');
    const names = within(region)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(names).toEqual(['Add to Next Delivery', 'Ship Now #11111111', `Skip Next Delivery #11111111`, 'Change Date #11111111', 'Change Items #11111111', 'Change Frequency #11111111', 'Change Card #11111111', 'Pause #11111111', 'Change Address #11111111', 'Cancel Subscription #11111111']);
    expect(within(region).getByRole<HTMLButtonElement>('button', { name: /^Change Date/ }).disabled).toBe(true);
    await waitFor(() => expect(within(region).getByRole<HTMLButtonElement>('button', { name: /^Change Card/ }).disabled).toBe(true));
  });

  it('while the renewal payment is being retried, says so and holds Change Date, Change Frequency and Ship Now', async () => {
    renderSignedIn({ '/api/subscriptions': { status: 200, body: [{ ...plan, paymentRetrying: true, rescheduleWindow: null }] } });
    const region = await screen.findByRole('region', { name: 'Active Subscriptions' });
    expect(await within(region).findByText(MSG.paymentRetrying)).toBeTruthy();
    for (const name of [/^Change Date/, /^Change Frequency/, /^Ship Now/]) expect(within(region).getByRole<HTMLButtonElement>('button', { name }).disabled).toBe(true);
    for (const name of [/^Skip Next Delivery/, /^Pause/]) expect(within(region).getByRole<HTMLButtonElement>('button', { name }).disabled).toBe(false);
  });

  it('skips the delivery shown after confirmation: posts its period, toasts the next delivery, closes on the refreshed card', async () => {
    const user = userEvent.setup();
    const skipped = { ...plan, nextBillingDate: '2025-05-10T15:00:00.000Z', skippedPeriods: [{ period: '2025-04-10', reason: 'shopper-skip' as const }] };
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [plan] }, [`/api/subscriptions/${PLAN_ID}/skip`]: { status: 200, body: skipped } };
    const fetchMock = renderSignedIn(answers);
    const dialog = await open(/^Skip Next Delivery/, 'Skip the next delivery?');
    expect(within(dialog).getByText(new RegExp(`the delivery due ${formatLongDate(plan.nextBillingDate)} will not be sent or charged`))).toBeTruthy();
    answers['/api/subscriptions'] = { status: 200, body: [skipped] };
    await user.click(within(dialog).getByRole('button', { name: 'Skip Delivery' }));

    expect(await screen.findByText(MSG.skipped)).toBeTruthy();
    expect(screen.getByText(`Your next delivery is on ${formatLongDate(skipped.nextBillingDate)} ($50.49).`)).toBeTruthy();
    expect(bodyOf(callsTo(fetchMock, `/api/subscriptions/${PLAN_ID}/skip`)[0])).toEqual({ period: '2025-04-10' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Skipped: April 10, 2025 — not charged (you skipped it)')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Skip Next Delivery/));
  });

  it('changes the delivery frequency among the cadences offered; the card shows the new cadence and next date', async () => {
    const user = userEvent.setup();
    const url = `/api/subscriptions/${PLAN_ID}/frequency`;
    const everyTwo = { ...plan, intervalCount: 2, nextBillingDate: '2025-05-10T15:00:00.000Z' };
    const answers: Record<string, FakeAnswer> = {
      '/api/subscriptions': { status: 200, body: [plan] },
      '/api/subscriptions/cadences': { status: 200, body: { months: [1, 2, 3] } },
      [url]: { status: 200, body: everyTwo },
    };
    const fetchMock = renderSignedIn(answers);
    const region = await screen.findByRole('region', { name: 'Active Subscriptions' });
    expect(await within(region).findByText('Every month')).toBeTruthy();
    const dialog = await open(/^Change Frequency/, 'Change delivery frequency');
    expect(within(dialog).getByText(/is delivered every month, \$50\.49 each time/)).toBeTruthy();
    const choices = within(dialog).getAllByRole<HTMLInputElement>('radio');
    expect(choices.map((c) => [c.labels?.[0]?.textContent, c.checked])).toEqual([
      ['Every month', true],
      ['Every 2 months', false],
      ['Every 3 months', false],
    ]);
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Change Frequency' }).disabled).toBe(true);
    await user.click(within(dialog).getByLabelText('Every 2 months'));
    answers['/api/subscriptions'] = { status: 200, body: [everyTwo] };
    await user.click(within(dialog).getByRole('button', { name: 'Change Frequency' }));

    expect(await screen.findByText(MSG.frequencyChanged)).toBeTruthy();
    expect(callsTo(fetchMock, url).map(bodyOf)).toEqual([{ intervalCount: 2 }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const after = await screen.findByRole('region', { name: 'Active Subscriptions' });
    expect(await within(after).findByText('Every 2 months')).toBeTruthy();
    expect(within(after).getByText(formatLongDate(everyTwo.nextBillingDate))).toBeTruthy();
  });

  it('moves the date within the window the server answered; a refusal shows its message and keeps the dialog open', async () => {
    const user = userEvent.setup();
    const url = `/api/subscriptions/${PLAN_ID}/reschedule`;
    const answers: Record<string, FakeAnswer> = {
      '/api/subscriptions': { status: 200, body: [plan] },
      [url]: { status: 422, body: { message: MSG.dateNotAllowed('2025-04-01', '2025-05-09'), code: 'SUBSCRIPTION_DATE_NOT_ALLOWED' } },
    };
    const fetchMock = renderSignedIn(answers);
    const dialog = await open(/^Change Date/, 'Change the next delivery date');
    const input = within(dialog).getByLabelText<HTMLInputElement>('New delivery date');
    expect([input.min, input.max, input.value]).toEqual(['2025-04-01', '2025-05-09', '2025-04-01']);
    expect(within(dialog).getByText('Any day from April 1, 2025 to May 9, 2025.')).toBeTruthy();

    await user.clear(input);
    await user.type(input, '2025-04-20');
    await user.click(within(dialog).getByRole('button', { name: 'Change Date' }));
    expect(await screen.findByText(MSG.changeFailedTitle)).toBeTruthy();
    expect(screen.getByText(MSG.dateNotAllowed('2025-04-01', '2025-05-09'))).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Change the next delivery date' })).toBe(dialog);

    const moved = { ...plan, nextBillingDate: '2025-04-20T15:00:00.000Z' };
    answers[url] = { status: 200, body: moved };
    answers['/api/subscriptions'] = { status: 200, body: [moved] };
    await user.click(within(dialog).getByRole('button', { name: 'Change Date' }));
    expect(await screen.findByText(MSG.rescheduled)).toBeTruthy();
    expect(callsTo(fetchMock, url).map(bodyOf)).toEqual([{ nextBillingDate: '2025-04-20' }, { nextBillingDate: '2025-04-20' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(await screen.findByRole('region', { name: 'Active Subscriptions' })).getByText(formatLongDate(moved.nextBillingDate))).toBeTruthy();
  });

  it('pauses until resumed: listed with the active plans, saying the shopper paused it, then resumes it on the saved card', async () => {
    const user = userEvent.setup();
    const pausedPlan = { ...plan, status: 'paused' as const, rescheduleWindow: null, resumableOnSavedCard: true, pausedBy: { by: 'shopper' as const, reason: null } };
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [plan] }, [`/api/subscriptions/${PLAN_ID}/pause`]: { status: 200, body: pausedPlan } };
    const fetchMock = renderSignedIn(answers);
    const dialog = await open(/^Pause/, 'Pause this subscription?');
    answers['/api/subscriptions'] = { status: 200, body: [pausedPlan] };
    await user.click(within(dialog).getByLabelText(/Pause until I resume it/));
    await user.click(within(dialog).getByRole('button', { name: 'Pause Subscription' }));
    expect(await screen.findByText(MSG.paused)).toBeTruthy();
    expect(callsTo(fetchMock, `/api/subscriptions/${PLAN_ID}/pause`)[0]![1]).toMatchObject({ method: 'POST', body: undefined });
    const current = await screen.findByRole('region', { name: 'Active Subscriptions' });
    expect(within(current).getByTestId('paused-notice').textContent).toBe('You paused this plan. No deliveries are sent or charged until it is resumed.');
    expect(within(current).queryByRole('button', { name: /Resume with a new card/ })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Past Subscriptions' })).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    answers[`/api/subscriptions/${PLAN_ID}/unpause`] = { status: 200, body: plan };
    const resume = await open(/^Resume Subscription/, 'Resume this subscription?');
    answers['/api/subscriptions'] = { status: 200, body: [plan] };
    await user.click(within(resume).getByRole('button', { name: 'Resume Subscription' }));
    expect(await screen.findByText(MSG.resumed)).toBeTruthy();
    expect(callsTo(fetchMock, `/api/subscriptions/${PLAN_ID}/unpause`)[0]![1]).toMatchObject({ method: 'POST', body: undefined });
    await waitFor(() => expect(screen.queryByTestId('paused-notice')).toBeNull());
  });

  it('pauses for 2 deliveries: each choice says the day it starts again; the plan shows when it resumes', async () => {
    const user = userEvent.setup();
    // Next delivery Apr 10, 2025, monthly: paused for 2 deliveries it starts again on Jun 10.
    const pausedPlan = { ...plan, status: 'paused' as const, rescheduleWindow: null, resumableOnSavedCard: true, pausedBy: { by: 'shopper' as const, reason: null }, resumesOn: '2025-06-10' };
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [plan] }, [`/api/subscriptions/${PLAN_ID}/pause`]: { status: 200, body: pausedPlan } };
    const fetchMock = renderSignedIn(answers);
    const dialog = await open(/^Pause/, 'Pause this subscription?');
    expect(within(dialog).getByText('Starts again on May 10, 2025')).toBeTruthy();
    expect(within(dialog).getByText('Starts again on July 10, 2025')).toBeTruthy();
    answers['/api/subscriptions'] = { status: 200, body: [pausedPlan] };
    await user.click(within(dialog).getByLabelText(/Pause for 2 deliveries/));
    await user.click(within(dialog).getByRole('button', { name: 'Pause Subscription' }));
    expect(await screen.findByText(MSG.paused)).toBeTruthy();
    expect(bodyOf(callsTo(fetchMock, `/api/subscriptions/${PLAN_ID}/pause`)[0])).toEqual({ deliveries: 2 });
    const current = await screen.findByRole('region', { name: 'Active Subscriptions' });
    expect(within(current).getByTestId('paused-notice').textContent).toBe('You paused this plan. It resumes on June 10, 2025; nothing is sent or charged until then.');
    expect(within(current).getByText('Resumes on').nextElementSibling!.textContent).toBe('June 10, 2025');
    expect(within(current).getByRole('button', { name: /^Resume Subscription/ })).toBeTruthy();
  });

  it('a plan our team paused says so, with the reason staff gave', async () => {
    const pausedPlan = { ...plan, status: 'paused' as const, rescheduleWindow: null, resumableOnSavedCard: true, pausedBy: { by: 'shop' as const, reason: 'Customer is away until spring.' } };
    renderSignedIn({ '/api/subscriptions': { status: 200, body: [pausedPlan] } });
    const notice = await screen.findByTestId('paused-notice');
    expect(notice.textContent).toBe('Our team paused this plan (Customer is away until spring). No deliveries are sent or charged until it is resumed.');
    expect(notice.textContent).not.toContain('You paused');
  });

  it('changes the card: tokenised as at checkout, only the opaque data posted, the new card shown', async () => {
    const user = userEvent.setup();
    const opaque = { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: 'token-456' };
    const dispatchData = vi.fn((_data: AcceptSecureData, handler: (r: AcceptResponse) => void) => handler({ opaqueData: opaque, messages: { resultCode: 'Ok', message: [] } }));
    window.Accept = { dispatchData };
    const changed = { ...plan, cardType: 'MasterCard', cardLastFour: '0015' };
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [plan] }, [`/api/subscriptions/${PLAN_ID}/card`]: { status: 200, body: changed } };
    const fetchMock = renderSignedIn(answers);
    const dialog = await open(/^Change Card/, 'Change the card');
    const d = within(dialog);
    await user.type(d.getByLabelText('Card Number'), SANDBOX_TEST_CARD.number);
    await user.type(d.getByLabelText('Expiration Date'), '12/30');
    await user.type(d.getByLabelText('CVV'), '123');
    await user.type(d.getByLabelText('ZIP Code'), '12345');
    answers['/api/subscriptions'] = { status: 200, body: [changed] };
    await user.click(d.getByRole('button', { name: 'Save Card' }));

    expect(await screen.findByText(MSG.cardChanged)).toBeTruthy();
    expect(dispatchData).toHaveBeenCalledTimes(1);
    expect(bodyOf(callsTo(fetchMock, `/api/subscriptions/${PLAN_ID}/card`)[0])).toEqual(opaque);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Mastercard ending in 0015')).toBeTruthy();
  });

  it('changes the quantities: 0 removes an item, none left is refused on the form, the server prices the plan', async () => {
    const user = userEvent.setup();
    const url = `/api/subscriptions/${PLAN_ID}/items`;
    const updated = { ...plan, items: [{ ...plan.items[0]!, quantity: 3 }], amount: '55.08' };
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [plan] }, [url]: { status: 200, body: updated } };
    const fetchMock = renderSignedIn(answers);
    const dialog = await open(/^Change Items/, 'Change items');
    const d = within(dialog);
    const first = d.getByLabelText<HTMLInputElement>(/^Surfy Surface Cleaner/);
    const second = d.getByLabelText<HTMLInputElement>(/^Dishy Pods/);
    expect([first.value, second.value]).toEqual(['2', '1']);

    await user.clear(first);
    await user.type(first, '0');
    await user.clear(second);
    await user.type(second, '0');
    expect(d.getByRole('alert').textContent).toBe('Choose from 0 to 10 of each item, and keep at least one.');
    expect(d.getByRole<HTMLButtonElement>('button', { name: 'Save Items' }).disabled).toBe(true);

    await user.clear(first);
    await user.type(first, '3');
    answers['/api/subscriptions'] = { status: 200, body: [updated] };
    await user.click(d.getByRole('button', { name: 'Save Items' }));
    expect(await screen.findByText(MSG.itemsChanged)).toBeTruthy();
    const [call] = callsTo(fetchMock, url);
    expect(call![1]).toMatchObject({ method: 'PUT' });
    expect(bodyOf(call)).toEqual({
      items: [
        { productId: 7, variantSku: null, quantity: 3 },
        { productId: 8, variantSku: 'DP-30', quantity: 0 },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('$55.08')).toBeTruthy();
  });

  it('adds a product or a size from the shop\'s active products; the toast and the card show the server\'s new total', async () => {
    const user = userEvent.setup();
    const url = `/api/subscriptions/${PLAN_ID}/items`;
    const shop = [
      { id: 7, name: 'Surfy Surface Cleaner', status: 'active', price: '20.00', variants: [] },
      { id: 9, name: 'Refill Pack', status: 'active', price: '18.00', variants: [{ sku: 'RP-32', label: '32 oz', price: '18.00' }, { sku: 'RP-128', label: '1 gal', price: '45.00' }] },
      { id: 10, name: 'Retired Spray', status: 'inactive', price: '5.00', variants: [] },
      { id: 11, name: 'Sold Out Wipes', status: 'out_of_stock', price: '6.00', variants: [] },
    ];
    const added = { productId: 9, productName: 'Refill Pack - 1 gal', variantSku: 'RP-128', quantity: 2, price: '45.00' };
    const updated = { ...plan, items: [...plan.items, added], amount: '142.31' };
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [plan] }, '/api/products': { status: 200, body: shop }, [url]: { status: 200, body: updated } };
    const fetchMock = renderSignedIn(answers);
    const dialog = await open(/^Change Items/, 'Change items');
    const d = within(dialog);
    const select = d.getByLabelText<HTMLSelectElement>('Add a product');
    // Active products only, each size its own choice, not what the plan already has (Surfy).
    await waitFor(() => expect(select.disabled).toBe(false));
    expect([...select.options].map((o) => o.textContent)).toEqual(['Choose a product', 'Refill Pack - 1 gal – $45.00', 'Refill Pack - 32 oz – $18.00']);
    expect(d.getByRole<HTMLButtonElement>('button', { name: 'Add' }).disabled).toBe(true);

    await user.selectOptions(select, 'Refill Pack - 1 gal – $45.00');
    await user.click(d.getByRole('button', { name: 'Add' }));
    const line = d.getByLabelText<HTMLInputElement>(/^Refill Pack - 1 gal/);
    expect(line.value).toBe('1');
    expect([...select.options].map((o) => o.textContent)).toEqual(['Choose a product', 'Refill Pack - 32 oz – $18.00']);
    await user.clear(line);
    await user.type(line, '2');
    answers['/api/subscriptions'] = { status: 200, body: [updated] };
    await user.click(d.getByRole('button', { name: 'Save Items' }));

    expect(await screen.findByText(MSG.itemsChanged)).toBeTruthy();
    expect(await screen.findByText(`Each delivery is now $142.31. Your next delivery is on ${formatLongDate(plan.nextBillingDate)} ($142.31).`)).toBeTruthy();
    // No price goes to the server: it prices every line.
    expect(bodyOf(callsTo(fetchMock, url)[0])).toEqual({
      items: [
        { productId: 7, variantSku: null, quantity: 2 },
        { productId: 8, variantSku: 'DP-30', quantity: 1 },
        { productId: 9, variantSku: 'RP-128', quantity: 2 },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Refill Pack - 1 gal')).toBeTruthy();
  });

  it('previews the new price per delivery as quantities change, by the server\'s pricing rule at today\'s prices', async () => {
    const user = userEvent.setup();
    const shop = [
      { id: 7, name: 'Surfy Surface Cleaner', status: 'active', price: '22.00', variants: [] },
      { id: 8, name: 'Dishy Pods', status: 'active', price: '14.00', variants: [{ sku: 'DP-30', label: '30 pods', price: '15.49' }] },
    ];
    renderSignedIn({ '/api/subscriptions': { status: 200, body: [plan] }, '/api/products': { status: 200, body: shop } });
    const d = within(await open(/^Change Items/, 'Change items'));
    const total = () => d.getByTestId('items-new-total').textContent;
    const priced = (surfy: number, dishy: number) =>
      formatCents(pricePlan([{ price: 2200, quantity: surfy }, { price: 1549, quantity: dishy }].filter((l) => l.quantity > 0), null).renewal.total);
    await waitFor(() => expect(total()).toBe(`Each delivery${priced(2, 1)}`));
    const surfy = d.getByLabelText<HTMLInputElement>(/^Surfy Surface Cleaner/);
    await user.clear(surfy);
    await user.type(surfy, '3');
    expect(total()).toBe(`Each delivery after this change${priced(3, 1)} (now $50.49)`);
    await user.clear(d.getByLabelText<HTMLInputElement>(/^Dishy Pods/));
    await user.type(d.getByLabelText<HTMLInputElement>(/^Dishy Pods/), '0');
    expect(total()).toBe(`Each delivery after this change${priced(3, 0)} (now $50.49)`);
    expect(priced(3, 0)).not.toBe(priced(3, 1));
  });

  it('suggests a longer cadence after two skips: one tap changes the frequency, "No thanks" declines it', async () => {
    const user = userEvent.setup();
    const suggested = { ...plan, cadenceSuggestion: { direction: 'longer' as const, intervalCount: 2, reason: 'skipped-twice' as const } };
    const every2 = { ...plan, intervalCount: 2 };
    const frequencyUrl = `/api/subscriptions/${PLAN_ID}/frequency`;
    const dismissUrl = `/api/subscriptions/${PLAN_ID}/cadence-suggestion/dismiss`;
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [suggested] }, [frequencyUrl]: { status: 200, body: every2 }, [dismissUrl]: { status: 200, body: plan } };
    const fetchMock = renderSignedIn(answers);
    const box = within(await screen.findByTestId('cadence-suggestion'));
    expect(box.getByText('You skipped your last two deliveries. Would a delivery every 2 months suit you better?')).toBeTruthy();

    answers['/api/subscriptions'] = { status: 200, body: [plan] };
    await user.click(box.getByRole('button', { name: 'No thanks' }));
    expect(await screen.findByText(MSG.suggestionDismissed)).toBeTruthy();
    expect(callsTo(fetchMock, dismissUrl)[0]![1]).toMatchObject({ method: 'POST', body: undefined });
    await waitFor(() => expect(screen.queryByTestId('cadence-suggestion')).toBeNull());
    expect(callsTo(fetchMock, frequencyUrl)).toHaveLength(0);
  });

  it('accepting the suggestion is the usual change of frequency', async () => {
    const user = userEvent.setup();
    const suggested = { ...plan, cadenceSuggestion: { direction: 'longer' as const, intervalCount: 2, reason: 'skipped-twice' as const } };
    const every2 = { ...plan, intervalCount: 2 };
    const frequencyUrl = `/api/subscriptions/${PLAN_ID}/frequency`;
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [suggested] }, [frequencyUrl]: { status: 200, body: every2 } };
    const fetchMock = renderSignedIn(answers);
    const box = within(await screen.findByTestId('cadence-suggestion'));
    answers['/api/subscriptions'] = { status: 200, body: [every2] };
    await user.click(box.getByRole('button', { name: 'Deliver every 2 months' }));
    expect(await screen.findByText(MSG.frequencyChanged)).toBeTruthy();
    expect(bodyOf(callsTo(fetchMock, frequencyUrl)[0])).toEqual({ intervalCount: 2 });
    await waitFor(() => expect(screen.queryByTestId('cadence-suggestion')).toBeNull());
    expect(screen.getByText('Every 2 months')).toBeTruthy();
  });

  it('shows each kept item at today\'s catalogue price (not the plan\'s stored one), out of stock or no longer sold, with a note on pricing', async () => {
    const withGone = { ...plan, items: [...plan.items, { productId: 12, productName: 'Retired Spray', variantSku: null, quantity: 1, price: '5.00' }] };
    const shop = [
      { id: 7, name: 'Surfy Surface Cleaner', status: 'active', price: '22.00', variants: [] },
      { id: 8, name: 'Dishy Pods', status: 'out_of_stock', price: '14.00', variants: [{ sku: 'DP-30', label: '30 pods', price: '15.49' }] },
    ];
    renderSignedIn({ '/api/subscriptions': { status: 200, body: [withGone] }, '/api/products': { status: 200, body: shop } });
    const d = within(await open(/^Change Items/, 'Change items'));
    expect(d.getByText(/^Each delivery is priced at today's prices, with your discount/)).toBeTruthy();
    const labelOf = (name: RegExp) => d.getAllByText(name, { selector: 'label' })[0]!.textContent;
    await waitFor(() => expect(labelOf(/^Surfy Surface Cleaner/)).toBe('Surfy Surface Cleaner ($22.00 each today)'));
    expect(labelOf(/^Dishy Pods/)).toBe('Dishy Pods ($15.49 each today, out of stock)');
    expect(labelOf(/^Retired Spray/)).toBe('Retired Spray (no longer sold: set it to 0 to remove it)');
    expect(d.queryByText(/\$20\.00|\$14\.99/)).toBeNull();
  });

  it('stops adding at the most lines a plan may have, and toasts a refusal with the server\'s message, keeping the dialog open', async () => {
    const user = userEvent.setup();
    const url = `/api/subscriptions/${PLAN_ID}/items`;
    const full = { ...plan, items: Array.from({ length: PLAN_MAX_LINES }, (_, i) => ({ productId: 100 + i, productName: `Item ${i}`, variantSku: null, quantity: 1, price: '1.00' })) };
    const shop = [{ id: 9, name: 'Refill Pack', status: 'active', price: '18.00', variants: [] }];
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [full] }, '/api/products': { status: 200, body: shop } };
    renderSignedIn(answers);
    let d = within(await open(/^Change Items/, 'Change items'));
    expect(d.getByLabelText<HTMLSelectElement>('Add a product').disabled).toBe(true);
    expect(d.getByText(`A subscription can have at most ${PLAN_MAX_LINES} different items.`)).toBeTruthy();
    // Removing one makes room.
    const first = d.getByLabelText<HTMLInputElement>(/^Item 0/);
    await user.clear(first);
    await user.type(first, '0');
    await waitFor(() => expect(d.getByLabelText<HTMLSelectElement>('Add a product').disabled).toBe(false));
    await user.selectOptions(d.getByLabelText('Add a product'), 'Refill Pack – $18.00');
    await user.click(d.getByRole('button', { name: 'Add' }));
    // Putting the removed one back would make one line too many.
    await user.clear(first);
    await user.type(first, '1');
    expect(d.getByRole('alert').textContent).toBe(MSG.tooManyItems);
    expect(d.getByRole<HTMLButtonElement>('button', { name: 'Save Items' }).disabled).toBe(true);
    await user.clear(first);
    await user.type(first, '0');

    answers[url] = { status: 409, body: { message: MSG.productNotSold, code: 'SUBSCRIPTION_ITEM_NOT_SOLD', productId: 9 } };
    await user.click(d.getByRole('button', { name: 'Save Items' }));
    expect(await screen.findByText(MSG.changeFailedTitle)).toBeTruthy();
    expect(await screen.findByText(MSG.productNotSold)).toBeTruthy();
    d = within(screen.getByRole('dialog', { name: 'Change items' }));
    expect(d.getByLabelText<HTMLInputElement>(/^Refill Pack/).value).toBe('1');
  });
});
