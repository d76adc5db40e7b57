/**
 * A cadence that learns (issue 21): the plan's suggestion of a longer or shorter cadence (the server's,
 * from the shared rule), in kind words, with one tap to accept it (the usual change of frequency) and one
 * to decline it (hidden for three deliveries).
 */
import { cadenceSuggestionWords } from '@nh/shared/subscriptions/cadence-suggestion';
import type { SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { Lightbulb } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { useChangePlan } from '../api';

export function CadenceSuggestion({ subscription }: { subscription: SubscriptionView }) {
  const change = useChangePlan();
  const textId = useId();
  const suggestion = subscription.cadenceSuggestion;
  if (!suggestion) return null;
  const words = cadenceSuggestionWords(suggestion);
  const busy = change.isPending;
  return (
    <div role="group" aria-labelledby={textId} className="mt-4 rounded-lg border border-brand-100 bg-stone-50 px-4 py-3 text-sm" data-testid="cadence-suggestion">
      <p id={textId} className="flex gap-2 text-brand-900">
        <Lightbulb className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          {words.why} {words.question}
        </span>
      </p>
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        <Button variant="outline" size="sm" disabled={busy} onClick={() => change.mutate({ id: subscription.id, change: { action: 'dismiss-suggestion' } })}>
          No thanks
        </Button>
        <Button size="sm" disabled={busy} onClick={() => change.mutate({ id: subscription.id, change: { action: 'frequency', intervalCount: suggestion.intervalCount } })}>
          {words.accept}
        </Button>
      </div>
    </div>
  );
}
