/**
 * The signed-in shopper, shared by every screen that asks "who is this" (header, checkout, reviews,
 * My Subscriptions): the current-user query and signing out.
 */
import type { AuthUser } from '@nh/shared/contracts/auth';
import { useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/query-client';

export const authUserQueryKey = ['/api/auth/user'] as const;

/** The signed-in shopper, or null when signed out (a 401 answers null; no retry). */
export function useAuth() {
  const { data, isLoading } = useQuery<AuthUser | null>({
    queryKey: authUserQueryKey,
    queryFn: getQueryFn<AuthUser>({ on401: 'returnNull' }),
    retry: false,
  });
  const user = data ?? null;
  return { user, isLoading, isAuthenticated: user !== null };
}

/**
 * Signs out with a full-page POST to /api/logout (the server ends the session and sends the shopper
 * home). A POST, not a link: a GET that signs out could be triggered by any other website.
 */
export function signOut(): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = '/api/logout';
  form.hidden = true;
  document.body.append(form);
  form.submit();
}
