import { LIMITS } from '@nh/shared';
import type { SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from './dialog-actions';
import { ChargeStands } from './plan-change-dialogs';

interface Props {
  /** The plan being cancelled; null closes the dialog. */
  subscription: SubscriptionView | null;
  pending: boolean;
  onConfirm: (subscription: SubscriptionView) => void;
  onDismiss: () => void;
  /** Where focus goes once the dialog has closed (the trigger may have moved to Past). */
  onClosed: () => void;
}

/** The confirmation before a cancel (same pattern as the admin product delete). It stays open while the call runs. */
export function CancelSubscriptionDialog({ subscription, pending, onConfirm, onDismiss, onClosed }: Props) {
  return (
    <Dialog open={subscription !== null} onOpenChange={(open) => !open && !pending && onDismiss()}>
      <DialogContent
        hideClose={pending}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
      >
        <DialogHeader>
          <DialogTitle>Cancel this subscription?</DialogTitle>
          <DialogDescription>
            Subscription #{subscription?.id.slice(0, LIMITS.orderIdDisplayLength)} will stop: no further deliveries or charges. Orders already placed are not
            affected.
          </DialogDescription>
        </DialogHeader>
        {subscription?.chargeBeingChecked && <ChargeStands />}
        <DialogActions
          keep="Keep Subscription"
          label="Confirm Cancellation"
          destructive
          pending={pending}
          onKeep={onDismiss}
          onConfirm={() => subscription && onConfirm(subscription)}
        />
      </DialogContent>
    </Dialog>
  );
}
