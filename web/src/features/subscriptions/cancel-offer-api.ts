/** Server calls of the cancel dialog (issue 22): the save offer for a reason, and taking it. */
import type { CancelOffer, CancelOfferAnswer, CancelOfferRequest, CancelReason, TakeCancelOfferRequest } from '@nh/shared/contracts/cancellation';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessageOf } from '@/lib/query-client';
import { subscriptionsQueryKey } from './api';

/**
 * POST /api/subscriptions/{id}/cancel-offer {reason}: the one offer to show beside the cancel button, or
 * null. A POST: the server records the offer as shown.
 */
export async function fetchCancelOffer(id: string, reason: CancelReason): Promise<CancelOffer | null> {
  const res = await apiRequest('POST', `/api/subscriptions/${encodeURIComponent(id)}/cancel-offer`, { reason } satisfies CancelOfferRequest);
  return ((await res.json()) as CancelOfferAnswer).offer;
}

/** What the accept call sends of an offer: its kind, and the cadence or period the dialog showed. */
export function offerTaken(offer: CancelOffer): TakeCancelOfferRequest {
  if ('intervalCount' in offer) return { kind: offer.kind, intervalCount: offer.intervalCount };
  if ('period' in offer) return { kind: offer.kind, period: offer.period };
  return { kind: offer.kind };
}

/**
 * Takes the offer in one request: the server makes the change (cadence, skip, ship now, discount) and
 * records it accepted together. A ship-now carries an Idempotency-Key (a retry is not a second
 * delivery). Change items only records it (the items dialog follows).
 */
export async function takeCancelOffer(id: string, offer: CancelOffer, shipNowKey: string): Promise<void> {
  const headers = offer.kind === 'ship-now' ? { 'Idempotency-Key': shipNowKey } : undefined;
  await apiRequest('POST', `/api/subscriptions/${encodeURIComponent(id)}/cancel-offer/accept`, offerTaken(offer), headers);
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
