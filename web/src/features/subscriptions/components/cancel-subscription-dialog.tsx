import { useId, useState } from 'react';
import { LIMITS } from '@nh/shared';
import { CANCEL_REASON_VALUES, CANCEL_REASONS, COMMENT_MAX_LENGTH, type CancelOffer, type CancelReason, type CancelSubscriptionRequest } from '@nh/shared/contracts/cancellation';
import type { SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { useQuery } from '@tanstack/react-query';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
import { fetchCancelOffer } from '../cancel-offer-api';
import { CancelOfferPanel } from './cancel-offer-panel';
import { DialogActions } from './dialog-actions';
import { ChargeStands } from './plan-change-dialogs';

interface Props {
  /** The plan being cancelled; null closes the dialog. */
  subscription: SubscriptionView | null;
  pending: boolean;
  /** Cancel now, with the reason and comment if the shopper gave them (both optional). */
  onConfirm: (subscription: SubscriptionView, input: CancelSubscriptionRequest) => void;
  /** The shopper takes the save offer instead (issue 22); absent: no offer is asked for. */
  onAcceptOffer?: (subscription: SubscriptionView, offer: CancelOffer) => void;
  /** Taking the offer runs. */
  offerPending?: boolean;
  onDismiss: () => void;
  /** Where focus goes once the dialog has closed (the trigger may have moved to Past). */
  onClosed: () => void;
}

/**
 * The cancel dialog (issue 22): why (optional), the one save offer matched to the reason, and always the
 * cancel button on the same screen: one click cancels, with or without a reason, no second page
 * (docs/decisions/subscriptions.md, "Cancellation"). It stays open while the call runs.
 */
export function CancelSubscriptionDialog({ subscription, pending, onConfirm, onAcceptOffer, offerPending = false, onDismiss, onClosed }: Props) {
  const busy = pending || offerPending;
  return (
    <Dialog open={subscription !== null} onOpenChange={(open) => !open && !busy && onDismiss()}>
      <DialogContent
        hideClose={busy}
        className="max-h-[100dvh] overflow-y-auto"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
      >
        {subscription && (
          <CancelForm
            key={subscription.id}
            subscription={subscription}
            pending={pending}
            offerPending={offerPending}
            onConfirm={onConfirm}
            onAcceptOffer={onAcceptOffer}
            onDismiss={onDismiss}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function CancelForm({
  subscription,
  pending,
  offerPending,
  onConfirm,
  onAcceptOffer,
  onDismiss,
}: Pick<Props, 'pending' | 'onConfirm' | 'onAcceptOffer' | 'onDismiss'> & { subscription: SubscriptionView; offerPending: boolean }) {
  const [reason, setReason] = useState<CancelReason | null>(null);
  const [comment, setComment] = useState('');
  const name = useId();
  const commentId = useId();
  const busy = pending || offerPending;
  // Asked once per plan and reason (the server records each offer shown).
  const offer = useQuery({
    queryKey: ['cancel-offer', subscription.id, reason],
    queryFn: () => fetchCancelOffer(subscription.id, reason!),
    enabled: reason !== null && onAcceptOffer !== undefined,
    staleTime: Infinity,
    retry: false,
  });
  const input: CancelSubscriptionRequest = { ...(reason ? { reason } : {}), ...(reason === 'other' && comment.trim() ? { comment: comment.trim() } : {}) };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Cancel this subscription?</DialogTitle>
        <DialogDescription>
          Subscription #{subscription.id.slice(0, LIMITS.orderIdDisplayLength)} will stop: no further deliveries or charges. Orders already placed are not
          affected.
        </DialogDescription>
      </DialogHeader>
      {subscription.chargeBeingChecked && <ChargeStands />}
      <fieldset className="space-y-1 text-sm" disabled={busy}>
        <legend className="mb-1 font-medium">Why are you cancelling? (optional)</legend>
        {CANCEL_REASON_VALUES.map((value) => (
          <label key={value} className="flex items-center gap-2 py-0.5">
            <input type="radio" name={name} value={value} checked={reason === value} onChange={() => setReason(value)} />
            {CANCEL_REASONS[value]}
          </label>
        ))}
      </fieldset>
      {reason === 'other' && (
        <div className="space-y-1 text-sm">
          <label htmlFor={commentId} className="font-medium">
            Tell us more (optional)
          </label>
          <Textarea id={commentId} value={comment} maxLength={COMMENT_MAX_LENGTH} rows={2} disabled={busy} onChange={(event) => setComment(event.target.value)} />
        </div>
      )}
      {offer.data && onAcceptOffer && <CancelOfferPanel offer={offer.data} pending={busy} onAccept={(taken) => onAcceptOffer(subscription, taken)} />}
      <DialogActions keep="Keep Subscription" label="Cancel Subscription" destructive pending={pending} disabled={offerPending} onKeep={onDismiss} onConfirm={() => onConfirm(subscription, input)} />
    </>
  );
}
