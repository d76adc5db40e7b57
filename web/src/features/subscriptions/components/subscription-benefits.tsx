import { SUBSCRIPTION_DISCOUNT_PERCENT } from '@nh/shared/contracts/subscriptions';
import { CalendarClock, Percent, Truck, XCircle, type LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';

const BENEFITS: { icon: LucideIcon; text: string }[] = [
  { icon: Percent, text: `${SUBSCRIPTION_DISCOUNT_PERCENT}% off every order` },
  { icon: Truck, text: 'Free shipping' },
  { icon: CalendarClock, text: 'Monthly delivery' },
  { icon: XCircle, text: 'Cancel anytime' },
];

/** The plan's promises, shown beside the lists (the page puts it in its <aside>). */
export function SubscriptionBenefits({ titleId }: { titleId?: string }) {
  return (
    <Card className="bg-cream p-6">
      <h2 id={titleId} className="text-lg font-semibold text-brand-900">
        Subscribe &amp; Save Benefits
      </h2>
      <ul className="mt-4 space-y-3 text-sm text-stone-700">
        {BENEFITS.map(({ icon: Icon, text }) => (
          <li key={text} className="flex items-center gap-3">
            <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-700">
              <Icon className="size-4" aria-hidden="true" />
            </span>
            {text}
          </li>
        ))}
      </ul>
    </Card>
  );
}
