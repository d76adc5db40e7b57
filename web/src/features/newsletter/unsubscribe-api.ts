/** The unsubscribe page's calls: where the link's address stands, and unsubscribing it. */
import type { UnsubscribeState } from '@nh/shared/contracts/newsletter';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/query-client';

const unsubscribePath = (token: string) => `/api/newsletter/unsubscribe/${encodeURIComponent(token)}`;
const stateKey = (token: string) => ['newsletter-unsubscribe', token] as const;

/** GET: changes nothing (mail scanners open links); a 404 means the link is unknown. */
export function useUnsubscribeState(token: string) {
  return useQuery({
    queryKey: stateKey(token),
    queryFn: async () => (await (await apiRequest('GET', unsubscribePath(token))).json()) as UnsubscribeState,
  });
}

/** POST with no body (the same route a mail client's one-click uses); the answer replaces the state. */
export function useUnsubscribe(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await (await apiRequest('POST', unsubscribePath(token))).json()) as UnsubscribeState,
    onSuccess: (state) => queryClient.setQueryData(stateKey(token), state),
  });
}
