/** Server calls of Ship Now and one-time add-ons on My Subscriptions (issue 21). */
import { SUBSCRIPTION_MESSAGES, subscriptionViewSchema, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { ONE_TIME_ITEM_MESSAGES, SHIP_NOW_MESSAGES } from '@nh/shared/contracts/ship-now-add-ons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessageOf } from '@/lib/query-client';
import { subscriptionsQueryKey } from './api';

export type AddOnCall =
  /** `key`: the Idempotency-Key of this Ship Now (the same for a repeat of the same confirmation). */
  | { action: 'ship-now'; key: string }
  | { action: 'add'; productId: number; size: string | null; quantity: number }
  | { action: 'remove'; lineId: string };

const TOAST: Record<AddOnCall['action'], string> = { 'ship-now': SHIP_NOW_MESSAGES.accepted, add: ONE_TIME_ITEM_MESSAGES.added, remove: ONE_TIME_ITEM_MESSAGES.removed };

export async function callAddOn(id: string, call: AddOnCall): Promise<SubscriptionView | null> {
  const base = `/api/subscriptions/${encodeURIComponent(id)}`;
  const res = await (() => {
    switch (call.action) {
      case 'ship-now':
        return apiRequest('POST', `${base}/ship-now`, {}, { 'Idempotency-Key': call.key });
      case 'add':
        return apiRequest('POST', `${base}/one-time-items`, { productId: call.productId, ...(call.size ? { size: call.size } : {}), quantity: call.quantity });
      case 'remove':
        return apiRequest('DELETE', `${base}/one-time-items/${encodeURIComponent(call.lineId)}`);
    }
  })();
  const parsed = subscriptionViewSchema.safeParse(await res.json().catch(() => null));
  return parsed.success ? parsed.data : null;
}

/** Any of the three: toasts what happened and refreshes the list; a refusal toasts the server's sentence. */
export function useAddOnCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, call }: { id: string; call: AddOnCall }) => callAddOn(id, call),
    onSuccess: async (_plan, { call }) => {
      toast({ title: TOAST[call.action] });
      await queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey });
    },
    onError: (error, { call }) => {
      toast({
        title: call.action === 'ship-now' ? SHIP_NOW_MESSAGES.shipNowFailedTitle : SUBSCRIPTION_MESSAGES.changeFailedTitle,
        description: serverMessageOf(error) || SUBSCRIPTION_MESSAGES.planChanged,
        variant: 'destructive',
      });
    },
  });
}
