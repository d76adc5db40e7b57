/** Server calls of the page that confirms a new email address (issue 23): read the change, then confirm it. */
import type { EmailChangeConfirmed, EmailChangeView } from '@nh/shared/contracts/email-change';
import { apiRequest } from '@/lib/query-client';

const url = (token: string) => `/api/account/email-change/${encodeURIComponent(token)}`;

/** GET: what the link would change (spends nothing). */
export async function fetchEmailChange(token: string): Promise<EmailChangeView> {
  return (await (await apiRequest('GET', url(token))).json()) as EmailChangeView;
}

/** POST: confirms the change (once). */
export async function confirmEmailChange(token: string): Promise<EmailChangeConfirmed> {
  return (await (await apiRequest('POST', url(token))).json()) as EmailChangeConfirmed;
}
