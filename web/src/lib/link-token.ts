import { useEffect, useState } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router-dom';

/** Where the token is kept once it is out of the address: the history entry's state (kept across a reload of the tab, never sent anywhere). */
const STATE_KEY = 'linkToken';

/** The `token` parameter of the address's fragment (`#token=…`), else of its query string (`?token=…`). */
export function linkTokenOf(location: Pick<Location, 'hash' | 'search'>): string | null {
  return new URLSearchParams(location.hash.replace(/^#/, '')).get('token') ?? new URLSearchParams(location.search).get('token');
}

const stateOf = (state: unknown): Record<string, unknown> =>
  state !== null && typeof state === 'object' ? (state as Record<string, unknown>) : {};

const tokenInState = (state: unknown): string | null => {
  const token = stateOf(state)[STATE_KEY];
  return typeof token === 'string' ? token : null;
};

const without = (params: string, strip: RegExp) => {
  const rest = new URLSearchParams(params.replace(strip, ''));
  rest.delete('token');
  return rest.toString();
};

/**
 * The single-use token of an emailed link (a password reset, an invitation, a guest's order link).
 * Links carry it in the address's fragment (`#token=…`), which a browser never sends to a server, so
 * no request log or proxy on the way sees it; links in emails sent before that carry `?token=…`, still
 * read while they last. Once read, the token is taken out of the address (the history entry is replaced
 * by one without it, which keeps it in its state), so it is not left in the address bar, a bookmark or a
 * shared screenshot, and a reload of the tab still has it. '' when there is none.
 */
export function useLinkToken(): string {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => linkTokenOf(location) ?? tokenInState(location.state) ?? '');
  useEffect(() => {
    const inAddress = linkTokenOf(location);
    if (inAddress === null) return;
    const search = without(location.search, /^\?/);
    const hash = without(location.hash, /^#/);
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: hash ? `#${hash}` : '' },
      { replace: true, state: { ...stateOf(location.state), [STATE_KEY]: inAddress } },
    );
  }, [location, navigate]);
  return token;
}
