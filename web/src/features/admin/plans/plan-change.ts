/**
 * A staff change to one plan (its actions, add-ons, changes for the customer): each answers the plan as the
 * detail shows it. The answer goes into the detail's cache and every other admin query is read again (plan
 * lists, the at-risk count, the audit trail, the dashboard's figures); a refusal reads the plan again (a
 * renewal or another staff member may have changed it meanwhile) and is the caller's to show.
 */
import type { AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import { matchQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { ADMIN_KEY } from '../shell/api';
import { planQueries } from './api';

/** The change `send` makes to plan `planId`, toasting `done` when it is made. */
export function usePlanChange<Input>(planId: string, send: (input: Input) => Promise<AdminSubscriptionDetail>, done: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
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
