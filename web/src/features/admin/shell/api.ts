/**
 * The staff session's server calls, and what every area's calls share. The staff session cookie
 * (httpOnly, set by POST /api/admin/session) authenticates every admin call: no credential is kept by
 * the SPA or sent in a body. A 401 means signed out (the admin layout drops to sign-in); a 403
 * `STAFF_FORBIDDEN` means the role lacks the permission.
 */
import { STORE_CODE } from '@nh/shared/constants';
import type { StaffMe, StaffSignIn } from '@nh/shared/contracts/staff';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiRequest, readJson, throwIfResNotOk } from '@/lib/query-client';

/** The first part of every area's query keys: a new sign-in drops them all (the staff session has a key of its own). */
export const ADMIN_KEY = ['admin'] as const;

/** A state-changing call always sends a JSON body (an empty object when it has no fields). */
export const sendJson = (method: string, url: string, body: Record<string, unknown> = {}) => apiRequest(method, url, body);

/** The order, export and NetSuite calls name the store in their body. */
export const sendForStore = (method: string, url: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  apiRequest(method, url, { storeCode: STORE_CODE, ...body }, headers);

/** The `code` of a JSON error body (e.g. STAFF_SIGN_IN_REQUIRED), if there is one. */
export function errorCodeOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  try {
    const parsed = JSON.parse(error.body) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

/** A 401 from an admin call: the session is gone (expired, signed out elsewhere, account disabled). A refused sign-in is not one. */
export const isSignInRequired = (error: unknown): boolean => error instanceof ApiError && error.status === 401 && errorCodeOf(error) !== 'STAFF_SIGN_IN_FAILED';

/** GET /api/admin/me: the signed-in staff member, or null when signed out. */
async function fetchStaffMe(): Promise<StaffMe | null> {
  const res = await fetch('/api/admin/me', { credentials: 'include' });
  if (res.status === 401) return null;
  await throwIfResNotOk(res);
  return readJson<StaffMe>(res);
}

/** Who is signed in; asked once, then set by signing in and out. */
export const staffMeQuery = queryOptions({ queryKey: ['staff', 'me'], queryFn: fetchStaffMe, staleTime: Infinity, retry: false });

export const signIn = async (input: StaffSignIn) => readJson<StaffMe>(await sendJson('POST', '/api/admin/session', input));

export const signOut = async (): Promise<void> => {
  await sendJson('DELETE', '/api/admin/session');
};
