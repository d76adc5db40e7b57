/**
 * Staff on the customer's behalf (issue 21): PUT /api/admin/subscriptions/{id}/items and /address, POST
 * /{id}/card-link, each with a reason; each answers the plan as the detail shows it. The mutation puts
 * that answer in the detail's cache and reads every other admin query again (lists, at-risk, audit), as
 * the other plan actions do.
 */
import type { AdminSubscriptionDetail, ChangeAddressByStaffRequest, ChangeItemsByStaffRequest, SendCardLinkRequest } from '@nh/shared/contracts/admin-subscriptions';
import { matchQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, readJson } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';
import { planQueries } from './api';

export type OnBehalfChange =
  | { action: 'items'; body: ChangeItemsByStaffRequest }
  | { action: 'address'; body: ChangeAddressByStaffRequest }
  | { action: 'card-link'; body: SendCardLinkRequest };

export async function changeForCustomer(id: string, change: OnBehalfChange): Promise<AdminSubscriptionDetail> {
  const method = change.action === 'card-link' ? 'POST' : 'PUT';
  return readJson<AdminSubscriptionDetail>(await apiRequest(method, `/api/admin/subscriptions/${encodeURIComponent(id)}/${change.action}`, change.body));
}

/** One change for the customer: toasts `done`, refreshes what shows the plan; a refusal is the caller's to show (it reads the plan again). */
export function useChangeForCustomer(planId: string, done: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: OnBehalfChange) => changeForCustomer(planId, change),
    onSuccess: (updated) => {
      toast({ title: done });
      queryClient.setQueryData(planQueries.detail(planId).queryKey, updated);
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEY, predicate: (query) => !matchQuery({ queryKey: planQueries.details }, query) });
    },
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: planQueries.detail(planId).queryKey });
    },
  });
}
