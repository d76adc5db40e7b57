import { useState } from 'react';
import { Loader2 } from 'lucide-react';
import type { CancelOffer } from '@nh/shared/contracts/cancellation';
import { longDay } from '@nh/shared/contracts/subscriptions';
import { Button } from '@/components/ui/button';

const months = (n: number) => (n === 1 ? 'every month' : `every ${n} months`);

/** The offer in words: what it does, and its button. */
export function offerWords(offer: CancelOffer): { text: string; button: string } {
  switch (offer.kind) {
    case 'longer-cadence':
      return { text: `Too much at once? Get your deliveries ${months(offer.intervalCount)} instead.`, button: `Deliver ${months(offer.intervalCount)}` };
    case 'shorter-cadence':
      return { text: `Running out? Get your deliveries ${months(offer.intervalCount)} instead.`, button: `Deliver ${months(offer.intervalCount)}` };
    case 'skip':
      return { text: `Skip your next delivery (${longDay(offer.period)}) and keep your plan.`, button: 'Skip next delivery' };
    case 'ship-now':
      return { text: 'Running out? We can charge and ship your next delivery today.', button: 'Ship it now' };
    case 'discount':
      return { text: `Stay, and take ${offer.percent}% off your next delivery (once).`, button: `Take ${offer.percent}% off` };
    case 'change-items':
      return { text: "Swap or remove the product you don't like, and keep the rest.", button: 'Change items' };
  }
}

interface Props {
  offer: CancelOffer;
  /** Taking it runs; the dialog's buttons wait. */
  pending: boolean;
  onAccept: (offer: CancelOffer) => void;
}

/** The one save offer matched to the reason, shown above the dialog's "Cancel subscription" button (never instead of it). */
export function CancelOfferPanel({ offer, pending, onAccept }: Props) {
  const [clicked, setClicked] = useState(false);
  const { text, button } = offerWords(offer);
  return (
    <div className="rounded-md border bg-muted/40 p-3 text-sm" data-testid="cancel-offer">
      <p>{text}</p>
      <Button
        type="button"
        size="sm"
        className="mt-2 w-full sm:w-auto"
        disabled={pending}
        onClick={() => {
          setClicked(true);
          onAccept(offer);
        }}
      >
        {pending && clicked && <Loader2 className="animate-spin" aria-hidden="true" />}
        {button}
      </Button>
    </div>
  );
}
