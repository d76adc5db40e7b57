/**
 * The dialogs of the changes a shopper makes to a plan (issue 13, "Plans"): skip the next delivery,
 * pause, resume on the saved card (a confirmation each), move the next delivery (a day within the
 * limits the server answered), a new card (tokenised as at checkout) and new quantities or added products
 * (./items-form.tsx, priced by the server), and how often it is delivered. Each stays open while its call runs and closes once the refreshed list shows the change; a
 * refusal is toasted with the server's message and keeps the dialog open.
 */
import { formatPrice, LIMITS } from '@nh/shared';
import { billingPeriodOf, cadenceWords, INTERVAL_MONTHS, longDay, SUBSCRIPTION_MESSAGES, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { CadenceChoice } from '@/components/plan-cadence/cadence-choice';
import { formatLongDate } from '@/lib/format-date';
import { useChangePlan, type PlanChange } from '../api';
import { DialogActions } from './dialog-actions';
import { ItemsForm } from './items-form';
import { PauseForm } from './pause-form';
import { NewCardForm } from './new-card-form';

export type PlanDialogKind = 'skip' | 'move' | 'pause' | 'unpause' | 'card' | 'items' | 'frequency';

interface Props {
  /** The dialog open, and for which plan; null closes it. */
  open: { kind: PlanDialogKind; subscription: SubscriptionView } | null;
  onDismiss: () => void;
  /** Where focus goes once the dialog has closed. */
  onClosed: () => void;
}

const shortId = (s: SubscriptionView) => s.id.slice(0, LIMITS.orderIdDisplayLength);

const TITLES: Record<PlanDialogKind, string> = {
  skip: 'Skip the next delivery?',
  move: 'Change the next delivery date',
  pause: 'Pause this subscription?',
  unpause: 'Resume this subscription?',
  card: 'Change the card',
  items: 'Change items',
  frequency: 'Change delivery frequency',
};

/** One dialog for every change: its title, what it does, and its form. */
export function PlanChangeDialog({ open, onDismiss, onClosed }: Props) {
  const change = useChangePlan();
  const [sendingCard, setSendingCard] = useState(false);
  const busy = change.isPending || sendingCard;
  const plan = open?.subscription ?? null;

  /** Sends the change; closes on success (the list already refreshed), stays open on a refusal (toasted). */
  const send = async (planChange: PlanChange): Promise<boolean> => {
    if (!plan) return false;
    try {
      await change.mutateAsync({ id: plan.id, change: planChange });
    } catch {
      return false;
    }
    onDismiss();
    return true;
  };

  return (
    <Dialog open={open !== null} onOpenChange={(isOpen) => !isOpen && !busy && onDismiss()}>
      <DialogContent
        hideClose={busy}
        // One column that may shrink below its content's widest line (a native select's longest option):
        // every plan dialog fits a 360 px wide screen.
        className="grid-cols-[minmax(0,1fr)] p-5 sm:p-6"
        data-testid="plan-dialog"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
      >
        {open && plan && (
          <>
            <DialogHeader>
              <DialogTitle>{TITLES[open.kind]}</DialogTitle>
              <DialogDescription>{describe(open.kind, plan)}</DialogDescription>
            </DialogHeader>
            {open.kind === 'pause' && plan.chargeBeingChecked && <ChargeStands />}
            {open.kind === 'skip' && (
              <Confirm label="Skip Delivery" keep="Keep Delivery" pending={change.isPending} onKeep={onDismiss} onConfirm={() => void send({ action: 'skip', period: billingPeriodOf(new Date(plan.nextBillingDate)) })} />
            )}
            {open.kind === 'pause' && <PauseForm plan={plan} pending={change.isPending} onKeep={onDismiss} onSend={(deliveries) => void send({ action: 'pause', deliveries })} />}
            {open.kind === 'unpause' && <Confirm label="Resume Subscription" keep="Keep Paused" pending={change.isPending} onKeep={onDismiss} onConfirm={() => void send({ action: 'unpause' })} />}
            {open.kind === 'move' && <MoveDateForm plan={plan} pending={change.isPending} onKeep={onDismiss} onSend={(day) => void send({ action: 'reschedule', nextBillingDate: day })} />}
            {open.kind === 'items' && <ItemsForm plan={plan} pending={change.isPending} onKeep={onDismiss} onSend={(items) => void send({ action: 'items', items })} />}
            {open.kind === 'frequency' && (
              <FrequencyForm plan={plan} pending={change.isPending} onKeep={onDismiss} onSend={(intervalCount) => void send({ action: 'frequency', intervalCount })} />
            )}
            {open.kind === 'card' && (
              <NewCardForm submitLabel="Save Card" cancelLabel="Keep Current Card" onSendingChange={setSendingCard} onCancel={onDismiss} send={(card) => send({ action: 'card', card })} />
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function describe(kind: PlanDialogKind, plan: SubscriptionView): ReactNode {
  const next = formatLongDate(plan.nextBillingDate);
  const emailed = 'We will email you to confirm.';
  const cadence = cadenceWords(plan.interval, plan.intervalCount).toLowerCase();
  switch (kind) {
    case 'skip':
      return `Subscription #${shortId(plan)}: the delivery due ${next} will not be sent or charged. The one after it comes ${cadence === 'every month' ? 'a month' : cadence.replace('every ', '')} later as usual. ${emailed}`;
    case 'move':
      return `Subscription #${shortId(plan)}: the next delivery is due ${next}. Choose another day; later deliveries follow ${cadence} from it. ${emailed}`;
    case 'pause':
      return `Subscription #${shortId(plan)}: pause it for a few deliveries (it starts again on its own, on your saved card) or until you resume it. Nothing is sent or charged while it is paused. ${emailed}`;
    case 'unpause':
      return `Subscription #${shortId(plan)} starts again on your saved card. Deliveries that fell due while it was paused are skipped, not charged. ${emailed}`;
    case 'card':
      return `Subscription #${shortId(plan)}: the new card is saved with our payment service, not charged now. The next delivery (${formatPrice(plan.amount)}, ${next}) is charged to it. ${emailed}`;
    case 'frequency':
      return `Subscription #${shortId(plan)} is delivered ${cadence}, ${formatPrice(plan.amount)} each time with your ${plan.discountPercent}% discount and free shipping. With a new frequency your next delivery comes that long after your last one (tomorrow at the earliest). ${emailed}`;
    case 'items':
      return `Subscription #${shortId(plan)}: choose how many of each item you want (0 removes it), or add a product. The new price per delivery is worked out from today's prices with your ${plan.discountPercent}% discount. ${emailed}`;
  }
}

function Confirm({ label, keep, pending, onKeep, onConfirm }: { label: string; keep: string; pending: boolean; onKeep: () => void; onConfirm: () => void }) {
  return <DialogActions keep={keep} label={label} pending={pending} onKeep={onKeep} onConfirm={onConfirm} />;
}

interface FormProps<T> {
  plan: SubscriptionView;
  pending: boolean;
  onKeep: () => void;
  onSend: (value: T) => void;
}

/** A day from the window the server answered (the server checks it again). */
function MoveDateForm({ plan, pending, onKeep, onSend }: FormProps<string>) {
  const window = plan.rescheduleWindow;
  const [day, setDay] = useState(window?.earliest ?? '');
  const inputId = useId();
  const hintId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (day) onSend(day);
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Delivery date">
      <div className="space-y-1.5">
        <Label htmlFor={inputId}>New delivery date</Label>
        <Input
          id={inputId}
          type="date"
          required
          value={day}
          min={window?.earliest}
          max={window?.latest}
          aria-describedby={hintId}
          onChange={(event) => setDay(event.target.value)}
        />
        <p id={hintId} className="text-sm text-stone-600">
          {window ? `Any day from ${longDay(window.earliest)} to ${longDay(window.latest)}.` : 'The next delivery cannot be moved now.'}
        </p>
      </div>
      <DialogActions keep="Keep Date" label="Change Date" pending={pending} disabled={!day} onKeep={onKeep} />
    </form>
  );
}

/** Every 1, 2 or 3 months (the cadences offered); the server checks the choice and works out the next date. */
function FrequencyForm({ plan, pending, onKeep, onSend }: FormProps<number>) {
  const current = INTERVAL_MONTHS[plan.interval] * plan.intervalCount;
  const [months, setMonths] = useState(current);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSend(months);
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Delivery frequency">
      <CadenceChoice label="Deliver" value={months} onChange={setMonths} disabled={pending} />
      <DialogActions keep="Keep Frequency" label="Change Frequency" pending={pending} disabled={months === current} onKeep={onKeep} />
    </form>
  );
}

/** While the next delivery's payment is being checked (held, or its answer lost): a pause or cancel goes through, and that charge stands. */
export function ChargeStands() {
  return (
    <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="charge-stands">
      {SUBSCRIPTION_MESSAGES.chargeStands}
    </p>
  );
}
