import { ACCOUNT_MESSAGES } from '@nh/shared/contracts/account';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { stubFetch } from '@/testing/render-route';
import ResetPasswordPage from './routes/reset-password';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TOKEN = 'b'.repeat(43);

function openPage(path: string) {
  const router = createMemoryRouter([{ path: '/account/reset-password', Component: ResetPasswordPage }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

async function choosePassword() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('New password'), 'second password 2');
  await user.type(screen.getByLabelText('Confirm new password'), 'second password 2');
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('the shopper’s password reset page', () => {
  it.each([
    ['the fragment (#token=, as emails send it now)', `/account/reset-password#token=${TOKEN}`],
    ['the query string (?token=, a link emailed before)', `/account/reset-password?token=${TOKEN}`],
  ])('reads the token from %s, takes it out of the address and sends it with the new password', async (_, path) => {
    const fetchMock = stubFetch({ '/api/password/reset': { status: 200, body: { message: ACCOUNT_MESSAGES.resetDone } } });
    const router = openPage(path);
    await screen.findByLabelText('New password');
    await vi.waitFor(() => expect(router.state.location).toMatchObject({ pathname: '/account/reset-password', search: '', hash: '' }));
    await choosePassword();
    expect(await screen.findByText(ACCOUNT_MESSAGES.resetDone)).toBeTruthy();
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ token: TOKEN, password: 'second password 2' });
  });

  it('says the link is not valid when the address has no token', async () => {
    const fetchMock = stubFetch({});
    openPage('/account/reset-password');
    expect(await screen.findByText(ACCOUNT_MESSAGES.resetInvalid)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
