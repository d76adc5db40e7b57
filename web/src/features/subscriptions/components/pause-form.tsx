/**
 * Pause: until the shopper resumes it, or for 1, 2 or 3 deliveries, each choice with the day the plan
 * starts again (shared resumeDayAfter, the server's own rule; the server works it out again).
 */
import { longDay, PAUSE_DELIVERY_CHOICES, resumeDayAfter, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { useId, useState, type FormEvent } from 'react';
import { DialogActions } from './dialog-actions';

interface Props {
  plan: SubscriptionView;
  pending: boolean;
  onKeep: () => void;
  /** `deliveries`: undefined pauses until resumed. */
  onSend: (deliveries: number | undefined) => void;
}

const deliveriesWords = (n: number) => (n === 1 ? '1 delivery' : `${n} deliveries`);

export function PauseForm({ plan, pending, onKeep, onSend }: Props) {
  const [choice, setChoice] = useState<number | 'open'>(1);
  const id = useId();
  const next = new Date(plan.nextBillingDate);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSend(choice === 'open' ? undefined : choice);
  };
  const options: Array<{ value: number | 'open'; label: string; hint: string }> = [
    ...PAUSE_DELIVERY_CHOICES.map((n) => ({
      value: n,
      label: `Pause for ${deliveriesWords(n)}`,
      hint: `Starts again on ${longDay(resumeDayAfter(next, plan.interval, plan.intervalCount, n))}`,
    })),
    { value: 'open', label: 'Pause until I resume it', hint: 'Resume it here whenever you like' },
  ];
  return (
    <form onSubmit={submit} noValidate className="min-w-0 space-y-4" aria-label="Pause">
      <fieldset className="min-w-0 space-y-2" disabled={pending}>
        <legend className="text-sm font-medium">How long?</legend>
        {options.map((option) => (
          <label key={String(option.value)} htmlFor={`${id}-${option.value}`} className="flex min-w-0 items-start gap-2 text-sm">
            <input
              id={`${id}-${option.value}`}
              type="radio"
              name={id}
              className="mt-1"
              checked={choice === option.value}
              onChange={() => setChoice(option.value)}
            />
            <span className="min-w-0">
              <span className="block font-medium text-stone-900">{option.label}</span>
              <span className="block text-stone-600">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <DialogActions keep="Keep Active" label="Pause Subscription" pending={pending} onKeep={onKeep} />
    </form>
  );
}
