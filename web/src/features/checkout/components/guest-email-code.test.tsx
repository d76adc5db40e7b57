import { AUTH_MESSAGES } from '@nh/shared/contracts/auth';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authUserQueryKey } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { stubFetch } from '@/testing/render-route';
import { GuestEmailCode } from './guest-email-code';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const user = { id: 'u1', email: 'nova@example.com', firstName: 'Nova', lastName: 'Newcomer', profileImageUrl: null };

function show(email = 'Nova@Example.com') {
  const client = createQueryClient();
  const onVerified = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <GuestEmailCode email={email} firstName="Nova" lastName="Newcomer" onVerified={onVerified} onCancel={() => {}} />
    </QueryClientProvider>,
  );
  return { client, onVerified };
}

describe("a guest's Subscribe & Save: the emailed code inside checkout", () => {
  it('asks for a sign-up code for the typed email, then verifies it with the names: the guest is signed in', async () => {
    const fetchMock = stubFetch({
      '/api/login/email-code': { status: 202, body: { message: AUTH_MESSAGES.codeSent } },
      '/api/login/email-code/verify': { status: 200, body: { user, redirectTo: '/' } },
    });
    const { client, onVerified } = show();
    const typist = userEvent.setup();
    await typist.click(screen.getByRole('button', { name: 'Email Me a Code' }));
    expect(await screen.findByText(AUTH_MESSAGES.codeSent)).toBeTruthy();
    await typist.type(screen.getByLabelText('Code from the email'), '123456');
    await typist.click(screen.getByRole('button', { name: 'Confirm Email' }));
    await vi.waitFor(() => expect(onVerified).toHaveBeenCalledTimes(1));
    const bodies = (fetchMock.mock.calls as unknown as Array<[string, RequestInit]>).map(([, init]) => JSON.parse(String(init.body)) as unknown);
    expect(bodies).toEqual([
      { email: 'nova@example.com', signUp: true },
      { email: 'nova@example.com', code: '123456', firstName: 'Nova', lastName: 'Newcomer' },
    ]);
    expect(client.getQueryData(authUserQueryKey)).toEqual(user);
  });

  it("shows the server's words for a wrong code and stays unverified", async () => {
    stubFetch({
      '/api/login/email-code': { status: 202, body: { message: AUTH_MESSAGES.codeSent } },
      '/api/login/email-code/verify': { status: 401, body: { message: AUTH_MESSAGES.codeWrong, code: 'SIGN_IN_CODE_INVALID' } },
    });
    const { onVerified } = show();
    const typist = userEvent.setup();
    await typist.click(screen.getByRole('button', { name: 'Email Me a Code' }));
    await typist.type(await screen.findByLabelText('Code from the email'), '000000');
    await typist.click(screen.getByRole('button', { name: 'Confirm Email' }));
    expect(await screen.findByText(AUTH_MESSAGES.codeWrong)).toBeTruthy();
    expect(onVerified).not.toHaveBeenCalled();
  });

  it('needs an email first', () => {
    stubFetch({});
    show('');
    expect(screen.getByText('Enter your email above first.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Email Me a Code' }).hasAttribute('disabled')).toBe(true);
  });
});
