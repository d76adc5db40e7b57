import { formatPrice, LIMITS } from '@nh/shared';
import type { SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { XCircle } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { formatLongDate } from '@/lib/format-date';
import { cardLabel, INTERVAL_LABEL, STATUS_LABEL } from '../subscription-model';

const STATUS_VARIANT: Record<SubscriptionView['status'], 'default' | 'warning' | 'outline'> = {
  active: 'default',
  paused: 'warning',
  cancelled: 'outline',
  expired: 'outline',
};

/** Ids the page uses to put focus back after the confirmation dialog closes. */
export const subscriptionCardId = (id: string) => `subscription-${id}`;
export const cancelButtonId = (id: string) => `cancel-subscription-${id}`;

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="mt-0.5 font-medium text-stone-900">{value}</dd>
    </div>
  );
}

/** One plan: its items, what each delivery costs, its dates and card, and (while active) a Cancel button. */
export function SubscriptionCard({ subscription, onCancel }: { subscription: SubscriptionView; onCancel?: (subscription: SubscriptionView) => void }) {
  const titleId = useId();
  const { id, status, items, amount, discountPercent, interval, createdAt, nextBillingDate, cancelledAt } = subscription;
  const active = status === 'active';
  const card = cardLabel(subscription);
  const shortId = id.slice(0, LIMITS.orderIdDisplayLength);

  return (
    <Card
      id={subscriptionCardId(id)}
      tabIndex={-1}
      role="article"
      aria-labelledby={titleId}
      data-testid="subscription-card"
      className="p-5 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={titleId} className="text-lg font-semibold leading-tight text-brand-900">
            {INTERVAL_LABEL[interval]} Subscription <span className="text-sm font-normal text-stone-500">#{shortId}</span>
          </h3>
          <p className="mt-1 text-sm text-stone-600">Started {formatLongDate(createdAt)}</p>
        </div>
        <Badge variant={STATUS_VARIANT[status]}>{STATUS_LABEL[status]}</Badge>
      </div>

      <ul className="mt-4 divide-y divide-stone-100 rounded-xl border border-stone-200" aria-label="Items">
        {items.map((item, index) => (
          <li key={`${item.productId}-${item.variantSku ?? ''}-${index}`} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3 text-sm">
            <span className="font-medium text-stone-900">{item.productName}</span>
            <span className="text-stone-600">
              Qty {item.quantity} × {formatPrice(item.price)} each
            </span>
          </li>
        ))}
      </ul>

      <dl className="mt-4 grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
        <Detail label="Per delivery" value={formatPrice(amount)} />
        <Detail label="Discount" value={`${discountPercent}% off`} />
        {active ? (
          <Detail label="Next delivery" value={formatLongDate(nextBillingDate)} />
        ) : (
          cancelledAt && <Detail label="Cancelled on" value={formatLongDate(cancelledAt)} />
        )}
        {card && <Detail label="Payment" value={card} />}
      </dl>

      {active && onCancel && (
        <div className="mt-5 flex justify-end">
          <Button id={cancelButtonId(id)} variant="outline" size="sm" className="text-red-700 hover:text-red-800" onClick={() => onCancel(subscription)}>
            <XCircle aria-hidden="true" />
            Cancel Subscription<span className="sr-only"> #{shortId}</span>
          </Button>
        </div>
      )}
    </Card>
  );
}
