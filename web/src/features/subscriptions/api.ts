/** Server calls of My Subscriptions: the signed-in shopper's plans, cancelling one, resuming a paused one, and the changes to a plan. */
import { formatPrice } from '@nh/shared';
import {
  longDay,
  SUBSCRIPTION_MESSAGES,
  subscriptionViewSchema,
  type ChangeAddressRequest,
  type ChangeCardRequest,
  type ChangeItemsRequest,
  type ResumeSubscriptionRequest,
  type SubscriptionView,
} from '@nh/shared/contracts/subscriptions';
import type { CancelSubscriptionRequest } from '@nh/shared/contracts/cancellation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { toast } from '@/components/ui/use-toast';
import { formatLongDate } from '@/lib/format-date';
import { ApiError, apiRequest, serverMessageOf } from '@/lib/query-client';

export const subscriptionsQueryKey = ['/api/subscriptions'] as const;

const subscriptionListSchema = z.array(subscriptionViewSchema);

/**
 * GET /api/subscriptions, checked against the contract. A 401 (the session ended after the page
 * learnt who was signed in) answers null, which the page shows as Login Required.
 */
export async function fetchSubscriptions(): Promise<SubscriptionView[] | null> {
  try {
    const res = await apiRequest('GET', '/api/subscriptions');
    return subscriptionListSchema.parse(await res.json());
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The list, fetched only once the shopper is known to be signed in (spec §7: "only when signed in"). */
export function useSubscriptions(signedIn: boolean) {
  return useQuery({ queryKey: subscriptionsQueryKey, queryFn: fetchSubscriptions, enabled: signedIn });
}

/** POST /api/subscriptions/{id}/cancel: an empty body, or the optional reason and comment (issue 22); answers the updated subscription. */
export async function cancelSubscription(call: string | { id: string; input: CancelSubscriptionRequest }): Promise<SubscriptionView> {
  const { id, input } = typeof call === 'string' ? { id: call, input: undefined } : call;
  const body = input && (input.reason || input.comment) ? input : undefined;
  const res = await apiRequest('POST', `/api/subscriptions/${encodeURIComponent(id)}/cancel`, body);
  return subscriptionViewSchema.parse(await res.json());
}

/** The text under 'Cancellation failed': the server's message, else the generic sentence (spec §8). */
export function cancelFailureMessage(error: unknown): string {
  return serverMessageOf(error) || SUBSCRIPTION_MESSAGES.cancelFailed;
}

/**
 * Cancelling: toasts the outcome and, on success, refreshes the list before the mutation settles, so
 * a confirmation dialog kept open while pending closes on a list that already shows the change.
 */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: async () => {
      toast({ title: SUBSCRIPTION_MESSAGES.cancelled });
      await queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey });
    },
    onError: (error) => {
      toast({ title: SUBSCRIPTION_MESSAGES.cancelFailedTitle, description: cancelFailureMessage(error), variant: 'destructive' });
    },
  });
}

/**
 * POST /api/subscriptions/{id}/resume with the new card's opaque data; answers the updated plan. Any 2xx
 * is a success even when its body breaks the contract (null): the card was charged, so the shopper must
 * not be told it failed; the list refresh shows the plan as it is.
 */
export async function resumeSubscription(id: string, card: ResumeSubscriptionRequest): Promise<SubscriptionView | null> {
  const res = await apiRequest('POST', `/api/subscriptions/${encodeURIComponent(id)}/resume`, card);
  const parsed = subscriptionViewSchema.safeParse(await res.json().catch(() => null));
  return parsed.success ? parsed.data : null;
}

/** The text under 'Resume failed': the server's message (a decline's reason included), else the generic sentence. */
export function resumeFailureMessage(error: unknown): string {
  return serverMessageOf(error) || SUBSCRIPTION_MESSAGES.resumeFailed;
}

/**
 * Resuming a paused plan with a tokenised card: toasts the outcome and, on success, refreshes the list
 * before the mutation settles (as cancelling does), so the dialog closes on a list showing the plan as Active.
 */
export function useResumeSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, card }: { id: string; card: ResumeSubscriptionRequest }) => resumeSubscription(id, card),
    onSuccess: async () => {
      toast({ title: SUBSCRIPTION_MESSAGES.resumed });
      await queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey });
    },
    onError: (error) => {
      toast({ title: SUBSCRIPTION_MESSAGES.resumeFailedTitle, description: resumeFailureMessage(error), variant: 'destructive' });
    },
  });
}

// ---------------------------------------------------------------- the shopper's changes (issue 13, "Plans")

/** A change to one plan: its call, and the toast that confirms it. */
export type PlanChange =
  | { action: 'skip'; period: string }
  | { action: 'reschedule'; nextBillingDate: string }
  | { action: 'pause'; deliveries?: number }
  | { action: 'unpause' }
  | { action: 'dismiss-suggestion' }
  | { action: 'card'; card: ChangeCardRequest }
  | { action: 'items'; items: ChangeItemsRequest['items'] }
  | { action: 'frequency'; intervalCount: number }
  | { action: 'address'; address: ChangeAddressRequest };

const CHANGE_TOAST: Record<PlanChange['action'], string> = {
  skip: SUBSCRIPTION_MESSAGES.skipped,
  reschedule: SUBSCRIPTION_MESSAGES.rescheduled,
  pause: SUBSCRIPTION_MESSAGES.paused,
  unpause: SUBSCRIPTION_MESSAGES.resumed,
  card: SUBSCRIPTION_MESSAGES.cardChanged,
  items: SUBSCRIPTION_MESSAGES.itemsChanged,
  frequency: SUBSCRIPTION_MESSAGES.frequencyChanged,
  address: SUBSCRIPTION_MESSAGES.addressChanged,
  'dismiss-suggestion': SUBSCRIPTION_MESSAGES.suggestionDismissed,
};

/** The call of a change; answers the updated plan (null when a 2xx body breaks the contract: the list refresh shows it). */
export async function changePlan(id: string, change: PlanChange): Promise<SubscriptionView | null> {
  const base = `/api/subscriptions/${encodeURIComponent(id)}`;
  const res = await (() => {
    switch (change.action) {
      case 'skip':
        return apiRequest('POST', `${base}/skip`, { period: change.period });
      case 'reschedule':
        return apiRequest('POST', `${base}/reschedule`, { nextBillingDate: change.nextBillingDate });
      case 'pause':
        return apiRequest('POST', `${base}/pause`, change.deliveries ? { deliveries: change.deliveries } : undefined);
      case 'unpause':
        return apiRequest('POST', `${base}/unpause`);
      case 'dismiss-suggestion':
        return apiRequest('POST', `${base}/cadence-suggestion/dismiss`);
      case 'card':
        return apiRequest('POST', `${base}/card`, change.card);
      case 'items':
        return apiRequest('PUT', `${base}/items`, { items: change.items });
      case 'frequency':
        return apiRequest('POST', `${base}/frequency`, { intervalCount: change.intervalCount });
      case 'address':
        return apiRequest('PUT', `${base}/address`, change.address);
    }
  })();
  const parsed = subscriptionViewSchema.safeParse(await res.json().catch(() => null));
  return parsed.success ? parsed.data : null;
}

/** The toast's second line: when the next delivery is now (active plans), and after new items the server's new total. */
function changeDescription(plan: SubscriptionView | null, action: PlanChange['action']): string | undefined {
  if (plan?.status === 'paused' && plan.resumesOn) return `It resumes on ${longDay(plan.resumesOn)}, on your saved card.`;
  if (!plan || plan.status !== 'active' || action === 'dismiss-suggestion') return undefined;
  const next = `Your next delivery is on ${formatLongDate(plan.nextBillingDate)} (${formatPrice(plan.amount)}).`;
  return action === 'items' ? `Each delivery is now ${formatPrice(plan.amount)}. ${next}` : next;
}

/**
 * Any change to a plan: toasts what changed (and the next delivery) and refreshes the list before the
 * mutation settles, so a dialog kept open while pending closes on a card that shows the change. A refusal
 * toasts 'Change failed' with the server's message (a date outside the limits says which days are allowed).
 */
export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: PlanChange }) => changePlan(id, change),
    onSuccess: async (plan, { change }) => {
      toast({ title: CHANGE_TOAST[change.action], description: changeDescription(plan, change.action) });
      await queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey });
    },
    onError: (error) => {
      toast({ title: SUBSCRIPTION_MESSAGES.changeFailedTitle, description: serverMessageOf(error) || SUBSCRIPTION_MESSAGES.planChanged, variant: 'destructive' });
    },
  });
}
