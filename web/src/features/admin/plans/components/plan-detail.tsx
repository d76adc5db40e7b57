/** One plan (GET /api/admin/subscriptions/{id}): its terms, the actions staff may take, each billing period and every order. */
import { formatPrice } from '@nh/shared';
import { formatOrderDate, ORDER_STATUSES, type OrderStatus } from '@nh/shared/contracts/admin';
import {
  ADMIN_SUBSCRIPTION_MESSAGES,
  BILLING_OUTCOME_LABELS,
  PAUSE_CAUSE_LABELS,
  type AdminSubscriptionDetail,
  type BillingOutcome,
} from '@nh/shared/contracts/admin-subscriptions';
import { describeSkippedPeriod } from '@nh/shared/contracts/subscriptions';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError, serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { EntityHistory } from '../../audit/components/entity-history';
import { OrderStatusBadge } from '../../orders/components/order-status-badge';
import { useCan } from '../../shell/role-gate';
import { columnsOf, DataTable } from '../../ui/data-table';
import { planQueries } from '../api';
import { formatDay } from '../format';
import { OnBehalfActions } from './on-behalf-actions';
import { PlanActions } from './plan-actions';
import { PlanConsent } from './plan-consent';
import { PlanCustomerChanges } from './plan-customer-changes';
import { PlanAddOnActions } from './plan-add-ons';
import { intervalWords, PlanStatusBadge, shortId } from './plan-words';
import { cardBrandName, cardEnding } from '@nh/shared/cards';

const OUTCOME_STYLE: Record<BillingOutcome, string> = {
  charged: 'bg-green-100 text-green-900',
  pending: 'bg-violet-100 text-violet-900',
  declined: 'bg-red-100 text-red-900',
  failed: 'bg-amber-100 text-amber-900',
  refunded: 'bg-blue-100 text-blue-900',
  skipped: 'bg-stone-100 text-stone-800',
};

/** "Paused by the customer until Mar 3, 2027", "Paused by staff: customer away"; a failed payment's words otherwise. */
function pauseWords(plan: AdminSubscriptionDetail): string {
  if (plan.pauseCause !== 'staff' || !plan.pausedBy) return plan.pauseCause ? PAUSE_CAUSE_LABELS[plan.pauseCause] : '';
  const until = plan.resumesOn ? ` until ${formatDay(plan.resumesOn)}` : '';
  return plan.pausedBy.by === 'customer' ? `Paused by the customer${until}` : `Paused by staff${plan.pausedBy.reason ? `: ${plan.pausedBy.reason}` : ''}${until}`;
}

const isOrderStatus = (status: string): status is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(status);

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="mt-0.5">{children}</dd>
    </div>
  );
}

function OrderLink({ id }: { id: string }) {
  return (
    <Link to={`/admin-orders/${id}`} className="font-mono text-brand-700 hover:underline" aria-label={`Order ${shortId(id)}`}>
      #{shortId(id)}
    </Link>
  );
}

const card = (plan: Pick<AdminSubscriptionDetail, 'cardType' | 'cardLastFour'>) =>
  cardEnding(plan.cardType, plan.cardLastFour) ?? cardBrandName(plan.cardType) ?? 'No card recorded';

const column = {
  item: columnsOf<AdminSubscriptionDetail['items'][number]>(),
  billing: columnsOf<AdminSubscriptionDetail['history'][number]>(),
};

const ITEM_COLUMNS = [
  column.item.display({
    id: 'product',
    header: 'Product',
    cell: ({ row: { original: item } }) => (
      <>
        {item.productName}
        {item.variantSku && <span className="block text-xs text-stone-500">{item.variantSku}</span>}
      </>
    ),
  }),
  column.item.display({ id: 'quantity', header: 'Quantity', meta: { className: 'text-right tabular-nums' }, cell: ({ row }) => row.original.quantity }),
  column.item.display({ id: 'price', header: 'Unit price', meta: { className: 'text-right tabular-nums' }, cell: ({ row }) => formatPrice(row.original.price) }),
];

const BILLING_COLUMNS = [
  column.billing.display({ id: 'date', header: 'Billing date', meta: { className: 'whitespace-nowrap' }, cell: ({ row }) => formatDay(row.original.period) }),
  column.billing.display({
    id: 'outcome',
    header: 'Outcome',
    cell: ({ row: { original: entry } }) => (
      <Badge variant="outline" className={cn('border-transparent', OUTCOME_STYLE[entry.outcome])}>
        {BILLING_OUTCOME_LABELS[entry.outcome]}
      </Badge>
    ),
  }),
  column.billing.display({
    id: 'amount',
    header: 'Amount',
    meta: { className: 'text-right tabular-nums' },
    cell: ({ row }) => (row.original.amount ? formatPrice(row.original.amount) : '—'),
  }),
  column.billing.display({
    id: 'details',
    header: 'Details',
    cell: ({ row: { original: entry } }) => (
      <>
        {entry.skipReason ? describeSkippedPeriod({ period: entry.period, reason: entry.skipReason }, 'staff') : entry.message}
        {entry.cardLastFour && <span className="block text-xs text-stone-500">{card(entry)}</span>}
      </>
    ),
  }),
  column.billing.display({ id: 'order', header: 'Order', cell: ({ row }) => (row.original.orderId ? <OrderLink id={row.original.orderId} /> : '—') }),
];

function Terms({ plan }: { plan: AdminSubscriptionDetail }) {
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>{plan.customerName}</CardTitle>
          <p className="break-all text-sm text-stone-600">{plan.customerEmail}</p>
          <p className="break-all font-mono text-xs text-stone-500">{plan.id}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <PlanStatusBadge status={plan.status} />
          {plan.pauseCause && <Badge variant="outline">{pauseWords(plan)}</Badge>}
        </div>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        <dl className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <Fact label="Next billing">
            <span data-testid="plan-next-billing">
              {plan.status === 'cancelled' || plan.status === 'expired' ? '—' : formatDay(plan.nextBillingDate)}
            </span>
          </Fact>
          <Fact label="Each delivery">
            {formatPrice(plan.amount)} · {intervalWords(plan.interval, plan.intervalCount)}
            {plan.discountPercent > 0 && (
              <span className="block text-xs text-stone-500">{plan.discountPercent}% Subscribe &amp; Save discount</span>
            )}
          </Fact>
          <Fact label="Failed payment attempts">
            <span className={cn(plan.failedAttempts > 0 && 'font-semibold text-amber-800')}>{plan.failedAttempts}</span>
            {plan.retryAt && <span className="block text-xs text-stone-500">Next try {formatDay(plan.retryAt)}</span>}
          </Fact>
          <Fact label="Card">
            <span data-testid="plan-card">{card(plan)}</span>
            <span className="block text-xs text-stone-500">{plan.hasStoredCard ? 'Saved for renewals' : 'No saved card for renewals'}</span>
            {plan.cardExpiresOn && <span className="block text-xs text-stone-500">Good until {formatDay(plan.cardExpiresOn)}</span>}
          </Fact>
          <Fact label="Ships to">
            {plan.shippingAddress ? (
              <>
                {plan.shippingAddress.address}
                <span className="block">
                  {plan.shippingAddress.city}, {plan.shippingAddress.state} {plan.shippingAddress.zip}
                </span>
              </>
            ) : (
              '—'
            )}
          </Fact>
          <Fact label="Started">{formatDay(plan.createdAt)}</Fact>
          {plan.cancelledAt && <Fact label="Cancelled">{formatDay(plan.cancelledAt)}</Fact>}
        </dl>
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Items of each delivery">
          <DataTable
            columns={ITEM_COLUMNS}
            data={plan.items}
            rowId={(item) => `${item.productId}-${item.variantSku ?? ''}`}
            look="plain"
            className="min-w-[28rem]"
            caption="Items of each delivery"
            showCaption
          />
        </div>
      </CardContent>
    </Card>
  );
}

function BillingHistory({ plan }: { plan: AdminSubscriptionDetail }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Billing history</CardTitle>
      </CardHeader>
      <CardContent className="overflow-x-auto" tabIndex={0} role="region" aria-label="Billing history">
        {plan.history.length === 0 ? (
          <p className="text-stone-600">No billing periods yet.</p>
        ) : (
          <DataTable
            columns={BILLING_COLUMNS}
            data={plan.history}
            rowId={(entry) => `${entry.period}-${entry.at}`}
            look="plain"
            className="min-w-[44rem]"
            caption="Each billing period, newest first"
            rowProps={({ original }) => ({ 'data-testid': `billing-${original.period}` })}
          />
        )}
      </CardContent>
    </Card>
  );
}

function Orders({ plan }: { plan: AdminSubscriptionDetail }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Orders of this plan</CardTitle>
      </CardHeader>
      <CardContent>
        {plan.orders.length === 0 ? (
          <p className="text-stone-600">No orders yet.</p>
        ) : (
          <ul className="divide-y divide-stone-100 text-sm">
            {plan.orders.map((order) => (
              <li key={order.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="flex items-center gap-3">
                  <OrderLink id={order.id} />
                  <span className="text-stone-600">{formatOrderDate(order.createdAt)}</span>
                </span>
                <span className="flex items-center gap-3">
                  <span className="tabular-nums">{formatPrice(order.total)}</span>
                  {isOrderStatus(order.status) ? (
                    <OrderStatusBadge status={order.status} />
                  ) : (
                    <Badge variant="outline">{order.status}</Badge>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

export function PlanDetail({ id }: { id: string }) {
  const canAct = useCan('subscriptions.act');
  const canReadAudit = useCan('audit.view');
  const plan = useQuery(planQueries.detail(id));
  if (plan.isPending) return <p className="text-stone-600">Loading plan...</p>;
  if (plan.isError) {
    const notFound = plan.error instanceof ApiError && plan.error.status === 404;
    return (
      <p className={notFound ? 'py-12 text-center text-lg font-semibold text-brand-900' : 'text-red-700'}>
        {notFound ? ADMIN_SUBSCRIPTION_MESSAGES.notFound : (serverMessageOf(plan.error) ?? 'Failed to load the plan.')}
      </p>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-6">
      <Terms plan={plan.data} />
      {canAct && (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Act for the customer</CardTitle>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-3">
            <PlanActions plan={plan.data} />
            <OnBehalfActions plan={plan.data} />
          </CardContent>
        </Card>
      )}
      <PlanAddOnActions plan={plan.data} canAct={canAct} />
      <BillingHistory plan={plan.data} />
      <PlanConsent plan={plan.data} />
      <PlanCustomerChanges plan={plan.data} />
      <Orders plan={plan.data} />
      {canReadAudit && <EntityHistory entityType="subscription" entityId={plan.data.id} testId="plan-history" />}
    </div>
  );
}
