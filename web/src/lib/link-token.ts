import { useEffect, useState } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router-dom';

/** The `token` parameter of the address's fragment (`#token=…`), else of its query string (`?token=…`). */
export function linkTokenOf(location: Pick<Location, 'hash' | 'search'>): string | null {
  return new URLSearchParams(location.hash.replace(/^#/, '')).get('token') ?? new URLSearchParams(location.search).get('token');
}

const without = (params: string, strip: RegExp) => {
  const rest = new URLSearchParams(params.replace(strip, ''));
  rest.delete('token');
  return rest.toString();
};

/**
 * The single-use token of an emailed link (a password reset, an invitation, a guest's order link).
 * Links carry it in the address's fragment (`#token=…`), which a browser never sends to a server, so
 * no request log or proxy on the way sees it; links in emails sent before that carry `?token=…`, still
 * read while they last. Once read, the token is taken out of the address (replacing the history entry),
 * so it is not left in the history, a bookmark or a shared screenshot; the page keeps it in its state.
 * '' when the address has none.
 */
export function useLinkToken(): string {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => linkTokenOf(location) ?? '');
  useEffect(() => {
    if (linkTokenOf(location) === null) return;
    const search = without(location.search, /^\?/);
    const hash = without(location.hash, /^#/);
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: hash ? `#${hash}` : '' },
      { replace: true, state: location.state as unknown },
    );
  }, [location, navigate]);
  return token;
}
