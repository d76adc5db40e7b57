import { EMAIL_CHANGE_MESSAGES } from '@nh/shared/contracts/email-change';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import ConfirmEmailPage from './routes/confirm-email';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TOKEN = 'c'.repeat(43);
const URL_OF = `/api/account/email-change/${TOKEN}`;

/** A fetch answering GET and POST of the link's API separately; each call recorded as "METHOD url". */
function stubLinkApi(get: { status: number; body: unknown }, post: { status: number; body: unknown }) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      const method = (init?.method ?? 'GET').toUpperCase();
      calls.push(`${method} ${url}`);
      const answer = url !== URL_OF ? { status: 404, body: { message: 'Not found' } } : method === 'POST' ? post : get;
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

describe('the page that confirms a new email address', () => {
  it('shows the new address without changing anything, and confirms it on the customer’s click', async () => {
    const calls = stubLinkApi(
      { status: 200, body: { email: 'new@example.com', expiresAt: '2026-03-05T10:00:00.000Z' } },
      { status: 200, body: { message: EMAIL_CHANGE_MESSAGES.confirmed, email: 'new@example.com' } },
    );
    renderRoute('/account/confirm-email/:token', `/account/confirm-email/${TOKEN}`, ConfirmEmailPage);
    expect(await screen.findByText('new@example.com')).toBeTruthy();
    expect(calls).toEqual([`GET ${URL_OF}`]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm my new email address' }));
    expect((await screen.findByRole('status')).textContent).toBe(EMAIL_CHANGE_MESSAGES.confirmed);
    expect(calls).toEqual([`GET ${URL_OF}`, `POST ${URL_OF}`]);
  });

  it('says why a used or expired link does nothing, and offers no button', async () => {
    stubLinkApi({ status: 410, body: { code: 'EMAIL_CHANGE_LINK_EXPIRED', message: EMAIL_CHANGE_MESSAGES.linkExpired } }, { status: 500, body: {} });
    renderRoute('/account/confirm-email/:token', `/account/confirm-email/${TOKEN}`, ConfirmEmailPage);
    expect(await screen.findByText(EMAIL_CHANGE_MESSAGES.linkExpired)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm my new email address' })).toBeNull();
  });

  it('shows the refusal when the address was taken meanwhile', async () => {
    stubLinkApi(
      { status: 200, body: { email: 'taken@example.com', expiresAt: '2026-03-05T10:00:00.000Z' } },
      { status: 409, body: { code: 'CUSTOMER_EMAIL_TAKEN', message: EMAIL_CHANGE_MESSAGES.taken } },
    );
    renderRoute('/account/confirm-email/:token', `/account/confirm-email/${TOKEN}`, ConfirmEmailPage);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Confirm my new email address' }));
    expect(await screen.findByText(EMAIL_CHANGE_MESSAGES.taken)).toBeTruthy();
  });
});
