import { SHIP_NOW_MESSAGES, SHIP_NOW_STATE_WORDS, ONE_TIME_ITEM_MESSAGES } from '@nh/shared/contracts/ship-now-add-ons';
import { nextBillingDate } from '@nh/shared/contracts/subscriptions';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLongDate } from '@/lib/format-date';
import type { FakeAnswer } from '@/testing/render-route';
import { shipNowDates } from './components/one-time-items';
import { planView } from './testing/plan-view';
import { callsTo, renderSignedIn } from './testing/render-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ID = '22222222-2222-4222-8222-222222222222';
const LINE_ID = '33333333-3333-4333-8333-333333333333';
const DAY_MS = 86_400_000;
/** Billed in 12 days at 15:00 UTC. */
const due = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + 12 * DAY_MS + 15 * 3_600_000).toISOString();

const plan = planView({
  id: ID,
  intervalCount: 2,
  nextBillingDate: due,
  oneTimeItems: [{ id: LINE_ID, productId: 12, productName: 'Bamboo Brush', variantSku: null, quantity: 1, priceToday: '6.00' }],
  nextDeliveryAmount: '42.23',
});
const SHOP = [
  { id: 12, name: 'Bamboo Brush', status: 'active', price: '6.00', variants: [] },
  { id: 9, name: 'Refill Pack', status: 'active', price: '18.00', variants: [{ sku: 'RP-128', label: '1 gal', price: '45.00' }] },
];

function renderPage(answers: Record<string, FakeAnswer>) {
  answers['/api/products'] ??= { status: 200, body: SHOP };
  return renderSignedIn(answers);
}

describe('Ship Now and one-time items on My Subscriptions', () => {
  it('confirms what is charged today and the new next date, sends one Idempotency-Key, then shows the charge as it stands', async () => {
    const user = userEvent.setup();
    const url = `/api/subscriptions/${ID}/ship-now`;
    const today = shipNowDates(plan).charged;
    const charging = { ...plan, nextBillingDate: today.toISOString(), shipNow: { period: today.toISOString().slice(0, 10), requestedAt: new Date().toISOString(), state: 'charging' as const } };
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [plan] }, [url]: { status: 202, body: charging } };
    const fetchMock = renderPage(answers);

    const extras = await screen.findByTestId('plan-add-ons');
    await user.click(within(extras).getByRole('button', { name: /^Ship Now/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Ship your next delivery today?' });
    const after = nextBillingDate(today, 'monthly', 2);
    expect(within(dialog).getByText(new RegExp(`We will charge \\$42\\.23 to your saved card today \\(your plan's items and your one-time item\\)`))).toBeTruthy();
    expect(within(dialog).getByText(new RegExp(`After it, your next delivery is on ${formatLongDate(after.toISOString())}`))).toBeTruthy();

    answers['/api/subscriptions'] = { status: 200, body: [charging] };
    await user.click(within(dialog).getByRole('button', { name: 'Ship Now' }));
    expect(await screen.findByText(SHIP_NOW_MESSAGES.accepted)).toBeTruthy();
    const [call] = callsTo(fetchMock, url);
    expect(call![1]).toMatchObject({ method: 'POST' });
    expect((call![1].headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await screen.findByTestId('ship-now-status')).textContent).toBe(SHIP_NOW_STATE_WORDS.charging);
    // While charging, Ship Now is not offered again; the page asks again and shows it charged with the new date.
    expect(within(await screen.findByTestId('plan-add-ons')).getByRole<HTMLButtonElement>('button', { name: /^Ship Now/ }).disabled).toBe(true);
    const charged = { ...charging, nextBillingDate: after.toISOString(), oneTimeItems: [], nextDeliveryAmount: '36.72', shipNow: { ...charging.shipNow, state: 'charged' as const } };
    answers['/api/subscriptions'] = { status: 200, body: [charged] };
    await waitFor(() => expect(screen.getByTestId('ship-now-status').textContent).toBe(`${SHIP_NOW_STATE_WORDS.charged} Your next delivery is on ${formatLongDate(after.toISOString())}.`), { timeout: 5000 });
  });

  it('lists the one-time items, adds one (its size sent as the size\'s SKU) and removes one', async () => {
    const user = userEvent.setup();
    const add = `/api/subscriptions/${ID}/one-time-items`;
    const remove = `${add}/${LINE_ID}`;
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [plan] }, [add]: { status: 201, body: plan }, [remove]: { status: 200, body: { ...plan, oneTimeItems: [] } } };
    const fetchMock = renderPage(answers);
    const extras = await screen.findByTestId('plan-add-ons');
    expect(within(extras).getByText('1 × Bamboo Brush')).toBeTruthy();
    expect(within(extras).getByText(/\$6\.00 each today, less your discount/)).toBeTruthy();

    const select = await within(extras).findByRole('combobox', { name: 'Add a one-time item' });
    await waitFor(() => expect((select as HTMLSelectElement).disabled).toBe(false));
    await user.selectOptions(select, '9:RP-128');
    const quantity = within(extras).getByLabelText('Quantity');
    await user.clear(quantity);
    await user.type(quantity, '2');
    await user.click(within(extras).getByRole('button', { name: 'Add to Next Delivery' }));
    expect(await screen.findByText(ONE_TIME_ITEM_MESSAGES.added)).toBeTruthy();
    expect(JSON.parse(String(callsTo(fetchMock, add)[0]![1].body))).toEqual({ productId: 9, size: 'RP-128', quantity: 2 });

    await user.click(within(await screen.findByTestId('plan-add-ons')).getByRole('button', { name: 'Remove Bamboo Brush' }));
    expect(await screen.findByText(ONE_TIME_ITEM_MESSAGES.removed)).toBeTruthy();
    expect(callsTo(fetchMock, remove)[0]![1]).toMatchObject({ method: 'DELETE' });
  });

  it('shows a refusal (an unavailable item) in words and keeps the dialog open', async () => {
    const user = userEvent.setup();
    const url = `/api/subscriptions/${ID}/ship-now`;
    const message = SHIP_NOW_MESSAGES.itemsUnavailable(['Surfy Surface Cleaner']);
    renderPage({ '/api/subscriptions': { status: 200, body: [plan] }, [url]: { status: 409, body: { code: 'SUBSCRIPTION_ITEM_UNAVAILABLE', message } } });
    await user.click(within(await screen.findByTestId('plan-add-ons')).getByRole('button', { name: /^Ship Now/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Ship Now' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
