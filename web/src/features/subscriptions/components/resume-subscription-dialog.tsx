import { formatPrice, LIMITS } from '@nh/shared';
import type { SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useResumeSubscription } from '../api';
import { NewCardForm } from './new-card-form';

interface Props {
  /** The paused plan being resumed; null closes the dialog. */
  subscription: SubscriptionView | null;
  onDismiss: () => void;
  /** The plan is active again (already toasted, and the list refreshed). */
  onResumed: (subscription: SubscriptionView) => void;
  /** Where focus goes once the dialog has closed (the trigger may have moved to Active). */
  onClosed: () => void;
}

/**
 * "Resume with a new card": the card is typed here and tokenised in the browser exactly as at checkout
 * (same fields, rules and script); only the opaque data goes to POST /api/subscriptions/{id}/resume.
 * A failed call keeps the dialog open, so another card can be tried.
 */
export function ResumeSubscriptionDialog({ subscription, onDismiss, onResumed, onClosed }: Props) {
  const [sending, setSending] = useState(false);
  return (
    <Dialog open={subscription !== null} onOpenChange={(open) => !open && !sending && onDismiss()}>
      <DialogContent
        hideClose={sending}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
      >
        <DialogHeader>
          <DialogTitle>Resume with a new card</DialogTitle>
          <DialogDescription>
            Subscription #{subscription?.id.slice(0, LIMITS.orderIdDisplayLength)} is paused because its last renewal could not be paid. Once the new
            card is saved the plan is active again, that delivery ({subscription ? formatPrice(subscription.amount) : ''}) is charged to it right away, and
            monthly deliveries carry on from there.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: each opening starts with an empty form. */}
        {subscription && <ResumeCardForm subscription={subscription} onSendingChange={setSending} onCancel={onDismiss} onResumed={onResumed} />}
      </DialogContent>
    </Dialog>
  );
}

function ResumeCardForm({ subscription, onSendingChange, onCancel, onResumed }: { subscription: SubscriptionView; onSendingChange: (sending: boolean) => void; onCancel: () => void; onResumed: (subscription: SubscriptionView) => void }) {
  const resume = useResumeSubscription();
  return (
    <NewCardForm
      submitLabel="Resume Subscription"
      cancelLabel="Keep Paused"
      onSendingChange={onSendingChange}
      onCancel={onCancel}
      send={async (card) => {
        try {
          await resume.mutateAsync({ id: subscription.id, card });
        } catch {
          return false; // toasted by the mutation; the dialog stays open for another card
        }
        onResumed(subscription);
        return true;
      }}
    />
  );
}
