import { formatPrice, LIMITS } from '@nh/shared';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import { cadenceWords, describeSkippedPeriod, longDay, pausedWords, SUBSCRIPTION_MESSAGES, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { CalendarDays, CreditCard, Package, Pause, Play, Repeat, SkipForward, XCircle } from 'lucide-react';
import { useId } from 'react';
import { usePaymentsStatus } from '@/components/card-entry/payments-status';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { formatLongDate } from '@/lib/format-date';
import { cardLabel, INTERVAL_LABEL, STATUS_LABEL } from '../subscription-model';
import { addressLine, ChangeAddressAction } from './change-address-dialog';
import { CadenceSuggestion } from './cadence-suggestion';
import type { PlanDialogKind } from './plan-change-dialogs';
import { PlanAddOns } from './one-time-items';

const STATUS_VARIANT: Record<SubscriptionView['status'], 'default' | 'warning' | 'outline'> = {
  active: 'default',
  paused: 'warning',
  cancelled: 'outline',
  expired: 'outline',
};

/** Ids the page uses to put focus back after a dialog closes. */
export const subscriptionCardId = (id: string) => `subscription-${id}`;
export const cancelButtonId = (id: string) => `cancel-subscription-${id}`;
export const resumeButtonId = (id: string) => `resume-subscription-${id}`;
export const planActionId = (kind: PlanDialogKind) => (id: string) => `${kind}-subscription-${id}`;

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="mt-0.5 font-medium text-stone-900">{value}</dd>
    </div>
  );
}

/** A paused plan's way back: disabled, with the checkout's message, while payments cannot be taken. */
function ResumeAction({ id, shortId, onResume }: { id: string; shortId: string; onResume: () => void }) {
  const status = usePaymentsStatus();
  const unavailableId = useId();
  const unavailable = status.isError || status.data?.configured === false;
  return (
    <div className="mt-5 flex flex-col items-end gap-2">
      <Button id={resumeButtonId(id)} size="sm" disabled={status.data?.configured !== true} aria-describedby={unavailable ? unavailableId : undefined} onClick={onResume}>
        <CreditCard aria-hidden="true" />
        Resume with a new card<span className="sr-only"> #{shortId}</span>
      </Button>
      {unavailable && (
        <p id={unavailableId} className="text-right text-sm text-red-700" data-testid="resume-unavailable">
          {CHECKOUT_MESSAGES.paymentsUnavailable}
        </p>
      )}
    </div>
  );
}

interface CardProps {
  subscription: SubscriptionView;
  /** Offered while active. */
  onCancel?: (subscription: SubscriptionView) => void;
  /** Offered while paused because a renewal could not be paid; never on a cancelled or expired plan. */
  onResume?: (subscription: SubscriptionView) => void;
  /** The shopper's changes: skip, move, pause, card and items while active; resume on the saved card when the shopper paused it. */
  onChange?: (kind: PlanDialogKind, subscription: SubscriptionView) => void;
}

const ACTIVE_ACTIONS: Array<{ kind: PlanDialogKind; label: string; icon: typeof Pause }> = [
  { kind: 'skip', label: 'Skip Next Delivery', icon: SkipForward },
  { kind: 'move', label: 'Change Date', icon: CalendarDays },
  { kind: 'items', label: 'Change Items', icon: Package },
  { kind: 'frequency', label: 'Change Frequency', icon: Repeat },
  { kind: 'card', label: 'Change Card', icon: CreditCard },
  { kind: 'pause', label: 'Pause', icon: Pause },
];

/** The changes an active plan offers; Change Card waits for payments to be available, Change Date for a day to move to. */
function ActiveActions({ subscription, shortId, onChange }: { subscription: SubscriptionView; shortId: string; onChange: NonNullable<CardProps['onChange']> }) {
  const payments = usePaymentsStatus();
  return (
    <>
      {ACTIVE_ACTIONS.map(({ kind, label, icon: Icon }) => (
        <Button
          key={kind}
          id={planActionId(kind)(subscription.id)}
          variant="outline"
          size="sm"
          disabled={
            (kind === 'card' && payments.data?.configured !== true) ||
            (kind === 'move' && subscription.rescheduleWindow === null) ||
            (kind === 'frequency' && subscription.paymentRetrying)
          }
          onClick={() => onChange(kind, subscription)}
        >
          <Icon aria-hidden="true" />
          {label}
          <span className="sr-only"> #{shortId}</span>
        </Button>
      ))}
    </>
  );
}

/** One plan: its items, what each delivery costs, its dates and card, and its actions (the changes and Cancel while active, Resume while paused). */
export function SubscriptionCard({ subscription, onCancel, onResume, onChange }: CardProps) {
  const titleId = useId();
  const { id, status, items, amount, discountPercent, interval, createdAt, nextBillingDate, cancelledAt, skippedPeriods } = subscription;
  const active = status === 'active';
  const paused = status === 'paused';
  // Paused with payments in order (by the shopper or by our team): resumed on the saved card; otherwise a new card is needed.
  const pausedByShopper = paused && subscription.resumableOnSavedCard;
  const pausedBy = subscription.pausedBy ?? { by: pausedByShopper ? 'shopper' : 'payment', reason: null };
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
            {subscription.intervalCount === 1 ? `${INTERVAL_LABEL[interval]} ` : ''}Subscription <span className="text-sm font-normal text-stone-500">#{shortId}</span>
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
        <Detail label="Delivery" value={cadenceWords(interval, subscription.intervalCount)} />
        {active ? (
          <Detail label="Next delivery" value={formatLongDate(nextBillingDate)} />
        ) : paused && subscription.resumesOn ? (
          <Detail label="Resumes on" value={longDay(subscription.resumesOn)} />
        ) : (
          cancelledAt && <Detail label="Cancelled on" value={formatLongDate(cancelledAt)} />
        )}
        {card && <Detail label="Payment" value={card} />}
        {subscription.shippingAddress && <Detail label="Ships to" value={addressLine(subscription.shippingAddress)} />}
      </dl>

      {skippedPeriods.length > 0 && (
        <ul className="mt-4 space-y-1 text-sm text-stone-600" aria-label="Skipped deliveries" data-testid="skipped-periods">
          {skippedPeriods.map((skipped) => (
            <li key={skipped.period}>{describeSkippedPeriod(skipped, 'shopper')}</li>
          ))}
        </ul>
      )}

      {subscription.paymentRetrying && (
        <p className="mt-4 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="payment-retrying">
          {SUBSCRIPTION_MESSAGES.paymentRetrying}
        </p>
      )}
      {paused && (
        <p className="mt-4 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="paused-notice">
          {pausedWords(pausedBy, subscription.resumesOn)}
        </p>
      )}
      {active && <CadenceSuggestion subscription={subscription} />}
      {paused && !pausedByShopper && onResume && <ResumeAction id={id} shortId={shortId} onResume={() => onResume(subscription)} />}
      {pausedByShopper && onChange && (
        <div className="mt-5 flex justify-end">
          <Button id={planActionId('unpause')(id)} size="sm" onClick={() => onChange('unpause', subscription)}>
            <Play aria-hidden="true" />
            Resume Subscription<span className="sr-only"> #{shortId}</span>
          </Button>
        </div>
      )}

      {active && onChange && <PlanAddOns subscription={subscription} />}

      {active && (onCancel || onChange) && (
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          {onChange && <ActiveActions subscription={subscription} shortId={shortId} onChange={onChange} />}
          {onChange && <ChangeAddressAction subscription={subscription} />}
          {onCancel && (
            <Button id={cancelButtonId(id)} variant="outline" size="sm" className="text-red-700 hover:text-red-800" onClick={() => onCancel(subscription)}>
              <XCircle aria-hidden="true" />
              Cancel Subscription<span className="sr-only"> #{shortId}</span>
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}
