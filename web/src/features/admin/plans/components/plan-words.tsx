/** Small pieces every plan screen shows: the status badge, the interval and the items in words. */
import {
  ADMIN_SUBSCRIPTION_INTERVAL_LABELS,
  ADMIN_SUBSCRIPTION_STATUS_LABELS,
  type AdminSubscriptionSummary,
} from '@nh/shared/contracts/admin-subscriptions';
import { cadenceWords, type SubscriptionInterval, type SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';

const STATUS_VARIANT: Record<SubscriptionStatus, 'default' | 'warning' | 'outline' | 'destructive'> = {
  active: 'default',
  paused: 'warning',
  cancelled: 'outline',
  expired: 'outline',
};

export function PlanStatusBadge({ status }: { status: SubscriptionStatus }) {
  return (
    <Badge variant={STATUS_VARIANT[status]} data-status={status}>
      {ADMIN_SUBSCRIPTION_STATUS_LABELS[status]}
    </Badge>
  );
}

/** "Monthly", "Every 3 months"; a plan billed every second interval reads "Every 2 months" (cadenceWords). */
export const intervalWords = (interval: SubscriptionInterval, count: number): string =>
  count <= 1 ? ADMIN_SUBSCRIPTION_INTERVAL_LABELS[interval] : cadenceWords(interval, count);

/** "2 × Surfy Cleaner, 1 × Dishy Pods". */
export const itemsWords = (items: AdminSubscriptionSummary['items']): string =>
  items.map((item) => `${item.quantity} × ${item.productName}`).join(', ');

/** The first 8 characters of a plan or order id, as staff quote it. */
export const shortId = (id: string): string => id.slice(0, 8);

/** A plan's customer as the plan tables show it: the name linking to the plan, the email, then `children` (the plan's line). */
export function PlanCustomer({ plan, children }: { plan: { id: string; customerName: string; customerEmail: string }; children: ReactNode }) {
  return (
    <>
      <Link to={`/admin/subscriptions/${plan.id}`} className="font-medium text-brand-700 hover:underline">
        {plan.customerName}
      </Link>
      <span className="block break-all text-xs text-stone-500">{plan.customerEmail}</span>
      {children}
    </>
  );
}
