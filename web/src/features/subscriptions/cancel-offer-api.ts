/** Server calls of the cancel dialog (issue 22): the save offer for a reason, and taking it. */
import type { CancelOffer, CancelOfferAnswer, CancelReason } from '@nh/shared/contracts/cancellation';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessageOf } from '@/lib/query-client';
import { subscriptionsQueryKey } from './api';

/** GET /api/subscriptions/{id}/cancel-offer?reason=: the one offer to show beside the cancel button, or null. */
export async function fetchCancelOffer(id: string, reason: CancelReason): Promise<CancelOffer | null> {
  const res = await apiRequest('GET', `/api/subscriptions/${encodeURIComponent(id)}/cancel-offer?reason=${encodeURIComponent(reason)}`);
  return ((await res.json()) as CancelOfferAnswer).offer;
}

/**
 * Takes the offer: the change by its own endpoint (cadence, skip, ship now), then recorded as accepted;
 * the discount is written by the acceptance itself. Change items only records it (the items dialog follows).
 */
export async function takeCancelOffer(id: string, offer: CancelOffer, shipNowKey: string): Promise<void> {
  const base = `/api/subscriptions/${encodeURIComponent(id)}`;
  switch (offer.kind) {
    case 'longer-cadence':
    case 'shorter-cadence':
      await apiRequest('POST', `${base}/frequency`, { intervalCount: offer.intervalCount });
      break;
    case 'skip':
      await apiRequest('POST', `${base}/skip`, { period: offer.period });
      break;
    case 'ship-now':
      await apiRequest('POST', `${base}/ship-now`, {}, { 'Idempotency-Key': shipNowKey });
      break;
    default:
      break;
  }
  await apiRequest('POST', `${base}/cancel-offer/accept`, { kind: offer.kind });
}

/** Taking the offer: toasts the outcome and refreshes the list (the plan as it now is). */
export function useTakeCancelOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, offer }: { id: string; offer: CancelOffer }) => takeCancelOffer(id, offer, crypto.randomUUID()),
    onSuccess: async (_data, { offer }) => {
      toast({ title: offer.kind === 'change-items' ? 'Choose the items you want.' : 'Done: your plan is updated and stays active.' });
      await queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey });
    },
    onError: (error) => {
      toast({ title: 'That did not work', description: serverMessageOf(error) || 'Please try again, or cancel if you prefer.', variant: 'destructive' });
    },
  });
}
