import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMAIL_CHANGE_MESSAGES } from '@nh/shared/contracts/email-change';
import { ChangeEmail } from './change-email';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function stubFetch(replies: Array<{ status: number; body: unknown }>) {
  const calls: Array<{ url: string; method: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: String(init.method), body: JSON.parse(String(init.body)) });
      const reply = replies[Math.min(calls.length - 1, replies.length - 1)]!;
      return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <ChangeEmail currentEmail="ada@example.com" />
    </QueryClientProvider>,
  );

describe('changing my email from my account', () => {
  it('sends the new address and my password; a wrong password shows the server’s words; then the link is on its way', async () => {
    const calls = stubFetch([
      { status: 403, body: { message: EMAIL_CHANGE_MESSAGES.passwordWrong } },
      { status: 202, body: { message: EMAIL_CHANGE_MESSAGES.ownStarted, email: 'new@example.com', expiresAt: '2099-01-01T00:00:00.000Z' } },
    ]);
    show();
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Change my email address' }));

    // Not an address: said at once, nothing sent.
    await user.type(screen.getByLabelText('New email address'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Send a confirmation link' }));
    expect(screen.getByRole('alert').textContent).toBe(EMAIL_CHANGE_MESSAGES.email);
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByLabelText('New email address'));
    await user.type(screen.getByLabelText('New email address'), 'new@example.com');
    await user.type(screen.getByLabelText('Current password'), 'wrong one');
    await user.click(screen.getByRole('button', { name: 'Send a confirmation link' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(EMAIL_CHANGE_MESSAGES.passwordWrong));

    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Send a confirmation link' }));
    expect((await screen.findByRole('status')).textContent).toBe(EMAIL_CHANGE_MESSAGES.ownStarted);
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', '/api/account/email', { email: 'new@example.com', password: 'wrong one' }],
      ['POST', '/api/account/email', { email: 'new@example.com', password: 'correct horse battery' }],
    ]);
  });

  it('a passwordless account sends no password', async () => {
    const calls = stubFetch([{ status: 202, body: { message: EMAIL_CHANGE_MESSAGES.ownStarted, email: 'new@example.com', expiresAt: '2099-01-01T00:00:00.000Z' } }]);
    show();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Change my email address' }));
    await user.type(screen.getByLabelText('New email address'), 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Send a confirmation link' }));
    await screen.findByRole('status');
    expect(calls[0]!.body).toEqual({ email: 'new@example.com' });
  });
});
