/**
 * Change Address on My Subscriptions (issue 21): where the plan's next deliveries ship, checked as
 * checkout checks the shipping address (the same schema and messages; the server checks again). The
 * dialog stays open while the call runs and closes once the refreshed list shows the change; a refusal is
 * toasted with the server's message (useChangePlan) and keeps the dialog open. Fits a 360 px screen.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { LIMITS } from '@nh/shared';
import { changeAddressRequestSchema, type ChangeAddressRequest, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { MapPin } from 'lucide-react';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { AddressFields } from '@/components/address/address-fields';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useChangePlan } from '../api';
import { DialogActions } from './dialog-actions';

const EMPTY: ChangeAddressRequest = { address: '', city: '', state: '', zip: '' };

/** "12 Elm St, Portland, OR 97201" */
export const addressLine = (a: ChangeAddressRequest) => `${a.address}, ${a.city}, ${a.state} ${a.zip}`;

function AddressForm({ plan, pending, onSend, onKeep }: { plan: SubscriptionView; pending: boolean; onSend: (address: ChangeAddressRequest) => void; onKeep: () => void }) {
  const { register, handleSubmit, formState } = useForm<ChangeAddressRequest>({ resolver: zodResolver(changeAddressRequestSchema), defaultValues: plan.shippingAddress ?? EMPTY });
  return (
    <form onSubmit={handleSubmit(onSend)} noValidate aria-label="Delivery address" className="min-w-0 space-y-4">
      <AddressFields register={register} errors={formState.errors} />
      <DialogActions keep="Keep Address" label="Save Address" pending={pending} onKeep={onKeep} />
    </form>
  );
}

/** The Change Address button of a plan and its dialog (active and paused plans). */
export function ChangeAddressAction({ subscription }: { subscription: SubscriptionView }) {
  const [open, setOpen] = useState(false);
  const change = useChangePlan();
  const button = useRef<HTMLButtonElement>(null);
  const shortId = subscription.id.slice(0, LIMITS.orderIdDisplayLength);
  const current = subscription.shippingAddress;
  const send = async (address: ChangeAddressRequest) => {
    try {
      await change.mutateAsync({ id: subscription.id, change: { action: 'address', address } });
    } catch {
      return;
    }
    setOpen(false);
  };
  return (
    <>
      <Button ref={button} id={`address-subscription-${subscription.id}`} variant="outline" size="sm" onClick={() => setOpen(true)}>
        <MapPin aria-hidden="true" />
        Change Address
        <span className="sr-only"> #{shortId}</span>
      </Button>
      <Dialog open={open} onOpenChange={(isOpen) => !isOpen && !change.isPending && setOpen(false)}>
        <DialogContent
          hideClose={change.isPending}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            button.current?.focus();
          }}
        >
          <DialogHeader>
            <DialogTitle>Change the delivery address</DialogTitle>
            <DialogDescription>
              Subscription #{shortId}
              {current ? ` ships to ${addressLine(current)}.` : '.'} The new address is used from your next delivery on. We will email you to confirm.
            </DialogDescription>
          </DialogHeader>
          {open && <AddressForm plan={subscription} pending={change.isPending} onKeep={() => setOpen(false)} onSend={(address) => void send(address)} />}
        </DialogContent>
      </Dialog>
    </>
  );
}
