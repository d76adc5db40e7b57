/**
 * The page of a one-click link from a plan email (/email-actions/:token, issue 22): opening it only reads
 * (GET); it names the plan, the delivery and the effect, and one button confirms (POST); a cancel link
 * shows the reasons beside its one button; a used or out-of-date link is a plain message offering sign-in
 * by emailed code, with no button that acts.
 */
import { CANCEL_REASONS } from '@nh/shared/contracts/cancellation';
import { EMAIL_ACTION_MESSAGES as MSG, type EmailActionView } from '@nh/shared/contracts/email-actions';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import EmailActionRoute from './routes/email-action';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF';
const URL_ = `/api/email-actions/${TOKEN}`;
const VIEW: EmailActionView = {
  action: 'skip',
  label: 'Skip this delivery',
  effect:
    'Your delivery of April 10, 2025 will be skipped: nothing is sent or charged for it, and your plan carries on with the delivery after.',
  productNames: ['Surfy Surface Cleaner × 2', 'Dishy Pods'],
  amount: '36.72',
  interval: 'monthly',
  intervalCount: 2,
  status: 'active',
  deliveryDate: '2025-04-10T15:00:00.000Z',
  newIntervalCount: null,
};

/** A fetch answering `"METHOD url"` (the page's GET and POST share one address). */
function openPage(answers: Record<string, { status: number; body: unknown }>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const answer = answers[`${init?.method ?? 'GET'} ${url}`] ?? { status: 404, body: { message: 'Not found' } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  renderRoute('/email-actions/:token', `/email-actions/${TOKEN}`, () => <EmailActionRoute />);
  return fetchMock;
}

const posts = (fetchMock: ReturnType<typeof openPage>) => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

describe('the one-click email action page', () => {
  it('names the plan, the delivery and the effect; nothing is posted until the one button is pressed; then says what was done', async () => {
    const user = userEvent.setup();
    const fetchMock = openPage({
      [`GET ${URL_}`]: { status: 200, body: VIEW },
      [`POST ${URL_}`]: {
        status: 200,
        body: {
          action: 'skip',
          done: 'Your delivery of April 10, 2025 is skipped.',
          status: 'active',
          nextBillingDate: '2025-06-10T15:00:00.000Z',
        },
      },
    });
    const summary = await screen.findByTestId('plan-summary');
    expect(summary.textContent).toContain('Surfy Surface Cleaner × 2, Dishy Pods');
    expect(summary.textContent).toContain('$36.72 · every 2 months');
    expect(summary.textContent).toContain('April 10, 2025');
    expect(screen.getByTestId('email-action-effect').textContent).toBe(VIEW.effect);
    expect(screen.getByRole('heading', { name: 'Skip this delivery?' })).toBeTruthy();
    expect(posts(fetchMock)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Skip this delivery' }));
    expect((await screen.findByTestId('email-action-done')).textContent).toBe('Your delivery of April 10, 2025 is skipped.');
    expect(screen.getByText(/Your next delivery is on June 10, 2025/)).toBeTruthy();
    expect(posts(fetchMock).map(([u, init]) => [u, JSON.parse(String(init!.body))])).toEqual([[URL_, {}]]);
    // The token is only in the path: never in a query string.
    expect(fetchMock.mock.calls.every(([u]) => !String(u).includes('?'))).toBe(true);
  });

  it('a cancel link shows the reasons (optional) beside its one button, and sends the reason chosen', async () => {
    const user = userEvent.setup();
    const fetchMock = openPage({
      [`GET ${URL_}`]: {
        status: 200,
        body: { ...VIEW, action: 'cancel', label: 'Cancel subscription', effect: 'Your subscription is cancelled at once.' },
      },
      [`POST ${URL_}`]: {
        status: 200,
        body: {
          action: 'cancel',
          done: 'Your subscription is cancelled.',
          status: 'cancelled',
          nextBillingDate: '2025-04-10T15:00:00.000Z',
        },
      },
    });
    await screen.findByTestId('plan-summary');
    for (const words of Object.values(CANCEL_REASONS)) expect(screen.getByLabelText(words)).toBeTruthy();
    await user.click(screen.getByLabelText(CANCEL_REASONS.price));
    await user.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    expect((await screen.findByTestId('email-action-done')).textContent).toBe('Your subscription is cancelled.');
    expect(screen.queryByText(/Your next delivery is on/)).toBeNull();
    expect(posts(fetchMock).map(([, init]) => JSON.parse(String(init!.body)))).toEqual([{ reason: 'price' }]);
  });

  it('a cancel link with "Something else" sends the words typed; with no reason, an empty body', async () => {
    const user = userEvent.setup();
    const fetchMock = openPage({
      [`GET ${URL_}`]: {
        status: 200,
        body: { ...VIEW, action: 'cancel', label: 'Cancel subscription', effect: 'Your subscription is cancelled at once.' },
      },
      [`POST ${URL_}`]: {
        status: 200,
        body: {
          action: 'cancel',
          done: 'Your subscription is cancelled.',
          status: 'cancelled',
          nextBillingDate: '2025-04-10T15:00:00.000Z',
        },
      },
    });
    await screen.findByTestId('plan-summary');
    expect(screen.queryByLabelText('Tell us more (optional)')).toBeNull();
    await user.click(screen.getByLabelText(CANCEL_REASONS.other));
    await user.type(screen.getByLabelText('Tell us more (optional)'), 'Moving abroad');
    await user.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    await screen.findByTestId('email-action-done');
    expect(posts(fetchMock).map(([, init]) => JSON.parse(String(init!.body)))).toEqual([{ reason: 'other', comment: 'Moving abroad' }]);
  });

  it.each([
    ['used', 410, 'EMAIL_ACTION_USED', MSG.used],
    ['out-of-date', 410, 'EMAIL_ACTION_STALE', MSG.stale],
    ['unknown', 404, 'EMAIL_ACTION_INVALID', MSG.invalid],
  ])('a %s link is a plain message offering sign-in by emailed code, and no button that acts', async (_kind, status, code, message) => {
    openPage({ [`GET ${URL_}`]: { status, body: { code, message } } });
    expect((await screen.findByTestId('link-unusable')).textContent).toBe(message);
    expect(screen.getByRole('link', { name: 'Sign In with an Emailed Code' }).getAttribute('href')).toBe('/api/login');
    expect(screen.queryByRole('button', { name: 'Skip this delivery' })).toBeNull();
  });

  it('a link used in another tab meanwhile: the confirm answers 410 and the page says so', async () => {
    const user = userEvent.setup();
    openPage({
      [`GET ${URL_}`]: { status: 200, body: VIEW },
      [`POST ${URL_}`]: { status: 410, body: { code: 'EMAIL_ACTION_USED', message: MSG.used } },
    });
    await user.click(await screen.findByRole('button', { name: 'Skip this delivery' }));
    expect((await screen.findByTestId('link-unusable')).textContent).toBe(MSG.used);
  });

  it('a refusal that is not about the link (409) is shown beside the button, which stays', async () => {
    const user = userEvent.setup();
    openPage({
      [`GET ${URL_}`]: { status: 200, body: VIEW },
      [`POST ${URL_}`]: { status: 409, body: { code: 'SUBSCRIPTION_CHARGE_BEING_CHECKED', message: 'Your payment is being checked.' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Skip this delivery' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your payment is being checked.');
    expect(screen.getByRole('button', { name: 'Skip this delivery' })).toBeTruthy();
  });
});
