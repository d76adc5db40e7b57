/**
 * Issue 21 on the storefront: Change Address on My Subscriptions (the checkout's address rules before
 * anything is sent, the server's answer shown on the plan), and the page of a card link staff emailed
 * (/subscriptions/update-card/:token): the plan's summary with its card masked, the card form, and a plain
 * message with a way to sign in when the link cannot be used.
 */
import type { AcceptResponse } from '@nh/shared/contracts/checkout';
import { CHECKOUT_MESSAGES, SANDBOX_TEST_CARD } from '@nh/shared/contracts/checkout';
import { PLAN_CARD_LINK_MESSAGES as LINK, type PlanCardLinkView } from '@nh/shared/contracts/plan-card-link';
import { SUBSCRIPTION_MESSAGES as MSG } from '@nh/shared/contracts/subscriptions';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AcceptSecureData } from '@/components/card-entry/accept';
import { Toaster } from '@/components/ui/toaster';
import { renderRoute, type FakeAnswer } from '@/testing/render-route';
import UpdateCardRoute from './routes/update-card';
import { PLAN_ID, planView } from './testing/plan-view';
import { callsTo, renderSignedIn, SANDBOX_STATUS } from './testing/render-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete window.Accept;
});

const OLD = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' };
const NEW = { address: '77 Harbor Road', city: 'Portland', state: 'OR', zip: '97201' };
const plan = planView({ shippingAddress: OLD });

describe('Change Address on My Subscriptions', () => {
  it('checks the address as checkout does, then saves it: the card shows the new address and the toast confirms', async () => {
    const user = userEvent.setup();
    const url = `/api/subscriptions/${PLAN_ID}/address`;
    const moved = { ...plan, shippingAddress: NEW };
    const answers: Record<string, FakeAnswer> = { '/api/subscriptions': { status: 200, body: [plan] }, [url]: { status: 200, body: moved } };
    const fetchMock = renderSignedIn(answers);
    const region = await screen.findByRole('region', { name: 'Active Subscriptions' });
    expect(await within(region).findByText('1 Main St, Springfield, IL 62701')).toBeTruthy();
    await user.click(within(region).getByRole('button', { name: /^Change Address/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the delivery address' });
    const d = within(dialog);
    expect(d.getByLabelText<HTMLInputElement>('Address').value).toBe(OLD.address);

    await user.clear(d.getByLabelText('ZIP Code'));
    await user.type(d.getByLabelText('ZIP Code'), '972');
    await user.clear(d.getByLabelText('State'));
    await user.type(d.getByLabelText('State'), 'O');
    await user.click(d.getByRole('button', { name: 'Save Address' }));
    expect(await d.findByText(CHECKOUT_MESSAGES.zip)).toBeTruthy();
    expect(d.getByText(CHECKOUT_MESSAGES.stateShort)).toBeTruthy();
    const sent = () => callsTo(fetchMock, url);
    expect(sent()).toEqual([]);

    for (const [label, value] of [['Address', NEW.address], ['City', NEW.city], ['State', NEW.state], ['ZIP Code', NEW.zip]] as const) {
      await user.clear(d.getByLabelText(label));
      await user.type(d.getByLabelText(label), value);
    }
    answers['/api/subscriptions'] = { status: 200, body: [moved] };
    await user.click(d.getByRole('button', { name: 'Save Address' }));
    expect(await screen.findByText(MSG.addressChanged)).toBeTruthy();
    expect(sent().map(([, init]) => [init.method, JSON.parse(String(init.body))])).toEqual([['PUT', NEW]]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('77 Harbor Road, Portland, OR 97201')).toBeTruthy();
  });
});

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF';
const LINK_URL = `/api/subscriptions/update-card/${TOKEN}`;
const VIEW: PlanCardLinkView = {
  status: 'active',
  productNames: ['Surfy Surface Cleaner', 'Dishy Pods'],
  amount: '36.72',
  interval: 'monthly',
  intervalCount: 2,
  nextBillingDate: '2025-04-10T15:00:00.000Z',
  cardType: 'Visa',
  cardLastFour: '1111',
  resumesOnSave: false,
  expiresAt: '2025-04-05T15:00:00.000Z',
};

/** A fetch answering `"METHOD url"` (the page's GET and POST share one address). */
function stubByMethod(answers: Record<string, { status: number; body: unknown }>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const answer = answers[`${init?.method ?? 'GET'} ${url}`] ?? { status: 404, body: { message: 'Not found' } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function openLinkPage(answers: Record<string, { status: number; body: unknown }>) {
  const fetchMock = stubByMethod({ 'GET /api/payments/status': { status: 200, body: SANDBOX_STATUS }, ...answers });
  renderRoute('/subscriptions/update-card/:token', `/subscriptions/update-card/${TOKEN}`, () => (
    <>
      <UpdateCardRoute />
      <Toaster />
    </>
  ));
  return fetchMock;
}

describe('the card link page', () => {
  it('shows the plan with its card masked, sends only the tokenised card, and says what happened', async () => {
    const user = userEvent.setup();
    const opaque = { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: 'opaque-123' };
    const dispatchData = vi.fn((_data: AcceptSecureData, handler: (r: AcceptResponse) => void) => handler({ opaqueData: opaque, messages: { resultCode: 'Ok', message: [] } }));
    window.Accept = { dispatchData };
    const fetchMock = openLinkPage({
      [`GET ${LINK_URL}`]: { status: 200, body: VIEW },
      [`POST ${LINK_URL}`]: { status: 200, body: { status: 'active', cardType: 'MasterCard', cardLastFour: '0015', resumed: false } },
    });
    const summary = await screen.findByTestId('plan-summary');
    expect(summary.textContent).toContain('Surfy Surface Cleaner, Dishy Pods');
    expect(summary.textContent).toContain('$36.72 · every 2 months');
    expect(summary.textContent).toContain('April 10, 2025');
    expect(summary.textContent).toContain('Visa ending in 1111');
    expect(document.body.textContent).not.toContain('Sign In');

    await user.type(screen.getByLabelText('Card Number'), SANDBOX_TEST_CARD.number);
    await user.type(screen.getByLabelText('Expiration Date'), '12/30');
    await user.type(screen.getByLabelText('CVV'), '123');
    await user.type(screen.getByLabelText('ZIP Code'), '12345');
    await user.click(screen.getByRole('button', { name: 'Save Card' }));

    expect((await screen.findByTestId('card-saved')).textContent).toContain('Your plan now uses your Mastercard ending in 0015. You have not been charged for this change.');
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts.map(([u, init]) => [u, JSON.parse(String(init!.body))])).toEqual([[LINK_URL, opaque]]);
    expect(JSON.stringify(posts)).not.toContain(SANDBOX_TEST_CARD.number.replace(/ /g, ''));
  });

  it('says a paused plan is restarted by the new card before it is saved', async () => {
    openLinkPage({ [`GET ${LINK_URL}`]: { status: 200, body: { ...VIEW, status: 'paused', resumesOnSave: true } } });
    expect(await screen.findByText(/Saving a card restarts it, and the delivery that was due is charged to the new card right away/)).toBeTruthy();
  });

  it.each([
    ['used', 410, 'PLAN_CARD_LINK_USED', LINK.used],
    ['expired', 410, 'PLAN_CARD_LINK_EXPIRED', LINK.expired],
    ['unknown', 404, 'PLAN_CARD_LINK_INVALID', LINK.invalid],
  ])('a %s link is a plain message with a way to sign in, and no card form', async (_kind, status, code, message) => {
    openLinkPage({ [`GET ${LINK_URL}`]: { status, body: { code, message } } });
    expect((await screen.findByTestId('link-unusable')).textContent).toBe(message);
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/api/login');
    expect(screen.queryByLabelText('Card Number')).toBeNull();
  });
});
