/**
 * The customer's own changes to their plan on My Subscriptions (and the plan's own: a timed pause that
 * ended), newest first, beside the staff changes (the plan's audit trail): what, when (in words) and the
 * values before and after (times in words too).
 */
import type { AdminSubscriptionDetail, PlanCustomerChange } from '@nh/shared/contracts/admin-subscriptions';
import type { ShopperPlanChange } from '@nh/shared/contracts/subscriptions';
import { PLAN_CHANGE_VIA_WORDS } from '@nh/shared/contracts/email-actions';
import { formatStaffTime } from '@nh/shared/days';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { AuditChangeList } from '../../audit/components/audit-change-list';

/** Every change a shopper (or the plan itself) records, in words: a new kind without words is a type error. */
const KIND_WORDS: Record<ShopperPlanChange['kind'] | 'cancelled', string> = {
  paused: 'Paused the plan',
  resumed: 'Resumed the plan',
  skipped: 'Skipped the next delivery',
  rescheduled: 'Moved the next delivery',
  frequency: 'Changed how often it is delivered',
  items: 'Changed the items',
  address: 'Changed the delivery address',
  discount: 'Took the discount offered on the next delivery',
  card: 'Changed the card',
  'ship-now': 'Shipped the next delivery now',
  'one-time-added': 'Added a one-time item to the next delivery',
  'one-time-removed': 'Removed a one-time item from the next delivery',
  cancelled: 'Cancelled the plan',
};

/** "Customer: Paused the plan", "Customer: Skipped the next delivery (via email link)", "Plan: Resumed the plan (its timed pause ended)". */
export function changeWords(change: Pick<PlanCustomerChange, 'actor' | 'kind' | 'via'>): string {
  const what = (KIND_WORDS as Record<string, string | undefined>)[change.kind] ?? 'Changed the plan';
  if (change.actor === 'plan') return `${what} on its own (the pause the customer chose ended)`;
  return change.via ? `Customer: ${what} (${PLAN_CHANGE_VIA_WORDS[change.via]})` : `Customer: ${what}`;
}

export function PlanCustomerChanges({ plan }: { plan: Pick<AdminSubscriptionDetail, 'customerChanges'> }) {
  return (
    <Card data-testid="plan-customer-changes">
      <CardHeader>
        <CardTitle className="text-base">Customer's own changes</CardTitle>
      </CardHeader>
      <CardContent>
        {plan.customerChanges.length === 0 ? (
          <p className="text-stone-600">The customer has not changed this plan themselves.</p>
        ) : (
          <ol className="grid grid-cols-1 gap-3 text-sm">
            {plan.customerChanges.map((change) => (
              <li key={change.id} className="rounded-lg border border-stone-200 p-3" data-testid={`customer-change-${change.id}`}>
                <p className="font-medium">{changeWords(change)}</p>
                <p className="text-xs text-stone-600">{formatStaffTime(change.at)}</p>
                <AuditChangeList before={change.before} after={change.after} />
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
