import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { linkTokenOf, useLinkToken } from './link-token';

afterEach(cleanup);

function Page() {
  const token = useLinkToken();
  return <p data-testid="token">{token || '(none)'}</p>;
}

const open = (path: string | { pathname: string; state: unknown }) => {
  const router = createMemoryRouter([{ path: '/link', Component: Page }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
};

describe('useLinkToken', () => {
  it('reads the token from the fragment and takes it out of the address, keeping the rest', async () => {
    const router = open('/link?utm_source=email#token=abc-DEF_123');
    expect((await screen.findByTestId('token')).textContent).toBe('abc-DEF_123');
    await expect.poll(() => router.state.location.hash).toBe('');
    expect(router.state.location.pathname).toBe('/link');
    expect(router.state.location.search).toBe('?utm_source=email');
    // Still the page's after the address changed.
    expect(screen.getByTestId('token').textContent).toBe('abc-DEF_123');
  });

  it('keeps the token in the history entry, so a reload of the tab still has it', async () => {
    const first = open('/link#token=abc-DEF_123');
    await expect.poll(() => first.state.location.hash).toBe('');
    const entry = { pathname: first.state.location.pathname, state: first.state.location.state as unknown };
    expect(entry.state).toEqual({ linkToken: 'abc-DEF_123' });
    cleanup();
    // The reloaded page: the same history entry, no token in the address.
    open(entry);
    expect((await screen.findByTestId('token')).textContent).toBe('abc-DEF_123');
  });

  it('still reads ?token= of a link emailed before the tokens moved to the fragment, and takes it out too', async () => {
    const router = open('/link?token=old-link&x=1');
    expect((await screen.findByTestId('token')).textContent).toBe('old-link');
    await expect.poll(() => router.state.location.search).toBe('?x=1');
    expect(screen.getByTestId('token').textContent).toBe('old-link');
  });

  it('gives nothing, and leaves the address alone, when there is no token', async () => {
    const router = open('/link?order=1#section');
    expect((await screen.findByTestId('token')).textContent).toBe('(none)');
    expect(router.state.location.search).toBe('?order=1');
    expect(router.state.location.hash).toBe('#section');
  });

  it('prefers the fragment to the query string', () => {
    expect(linkTokenOf({ hash: '#token=new', search: '?token=old' })).toBe('new');
    expect(linkTokenOf({ hash: '', search: '' })).toBeNull();
  });
});
