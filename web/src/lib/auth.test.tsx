import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/testing/render-route';
import { useAuth } from './auth';
import { createQueryClient } from './query-client';

function Who() {
  const { user, isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <p>loading</p>;
  return <p>{isAuthenticated ? `signed in as ${user?.email}` : 'guest'}</p>;
}

const renderWho = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Who />
    </QueryClientProvider>,
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useAuth', () => {
  it("takes the API's 200 null for a guest: signed out, one call, no error", async () => {
    const fetchMock = stubFetch({ '/api/auth/user': { status: 200, body: null } });
    renderWho();
    expect(await screen.findByText('guest')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('signs in with the user the API answers', async () => {
    stubFetch({ '/api/auth/user': { status: 200, body: { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: null, profileImageUrl: null } } });
    renderWho();
    expect(await screen.findByText('signed in as ada@example.com')).toBeTruthy();
  });

  it('still reads a 401 (a session ended mid-page) as signed out', async () => {
    stubFetch({ '/api/auth/user': { status: 401, body: { message: 'Not signed in' } } });
    renderWho();
    expect(await screen.findByText('guest')).toBeTruthy();
  });
});
