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
