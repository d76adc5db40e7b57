/**
 * The staff session in the browser: who is signed in (GET /api/admin/me), signing in and out, and
 * dropping to the sign-in screen when any admin call answers 401. The session lives in an httpOnly
 * cookie only; nothing is written to storage.
 */
import { STAFF_MESSAGES, type StaffMe } from '@nh/shared/contracts/staff';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { ADMIN_KEY, isSignInRequired, signIn, signOut, staffMeQuery } from './api';

/** The signed-in staff member, or null; `isPending` until the first answer. */
export function useStaff() {
  const me = useQuery(staffMeQuery);
  return { staff: me.data ?? null, isPending: me.isPending, isError: me.isError, refetch: me.refetch };
}

/** A new staff member is in: nothing fetched for the previous one is kept. */
export function setSignedIn(queryClient: QueryClient, staff: StaffMe): void {
  queryClient.removeQueries({ queryKey: ADMIN_KEY });
  queryClient.setQueryData(staffMeQuery.queryKey, staff);
}

const setSignedOut = (queryClient: QueryClient) => queryClient.setQueryData(staffMeQuery.queryKey, null);

/** POST /api/admin/session; the refusal's message is the mutation's error (shown by the form). */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (staff) => {
      setSignedIn(queryClient, staff);
      toast({ title: STAFF_MESSAGES.signedIn });
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      setSignedOut(queryClient);
      toast({ title: STAFF_MESSAGES.signedOut });
      await navigate('/admin');
    },
    onError: (error) => toast({ title: 'Sign out failed', description: serverMessageOf(error), variant: 'destructive' }),
  });
}

/** While mounted (the admin layout), a 401 from any admin query or mutation shows the sign-in screen. */
export function useSignInWhenSessionEnds(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const check = (error: unknown) => {
      if (isSignInRequired(error) && queryClient.getQueryData(staffMeQuery.queryKey)) setSignedOut(queryClient);
    };
    const queries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') check(event.action.error);
    });
    const mutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') check(event.action.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [queryClient]);
}

/** The signed-in staff member, provided by the admin layout to every screen inside it. */
export const SignedInStaff = createContext<StaffMe | null>(null);

export function useSignedInStaff(): StaffMe {
  const staff = useContext(SignedInStaff);
  if (!staff) throw new Error('useSignedInStaff is used outside the admin layout');
  return staff;
}
