/** Active plans whose next renewal may fail (GET /api/admin/subscriptions/at-risk), soonest billing first. */
import { formatPrice } from '@nh/shared';
import {
  AT_RISK_REASON_LABELS,
  AT_RISK_REASONS,
  UNAVAILABLE_ITEM_PROBLEM_LABELS,
  type AtRiskPlan,
  type AtRiskReason,
  type ShortItem,
} from '@nh/shared/contracts/admin-subscriptions';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { serverMessageOf } from '@/lib/query-client';
import { FilterSelect } from '../../ui/filter-form';
import { columnsOf, DataTable } from '../../ui/data-table';
import { Pager } from '../../ui/pager';
import { planQueries, PLANS_PAGE_SIZE } from '../api';
import { formatDay } from '../format';
import { itemsWords, PlanCustomer, shortId } from './plan-words';

/** An at-risk reason in words (one added by a later release shows as sent). */
const reasonLabel = (reason: string): string => (AT_RISK_REASON_LABELS as Record<string, string>)[reason] ?? reason;

/** A short item in staff words: what is in stock, and from which renewal day it is not enough. */
export function shortWords(item: ShortItem): string {
  return `${item.inStock} in stock, not enough for the renewals and sales due by this delivery (short from ${formatDay(item.runsShortOn)})`;
}

function Problems({ plan }: { plan: AtRiskPlan }) {
  return (
    <ul className="grid grid-cols-1 gap-1 text-sm">
      {plan.unavailableItems.map((item) => (
        <li key={item.productId}>
          <span className="font-medium">{item.productName}</span>: {UNAVAILABLE_ITEM_PROBLEM_LABELS[item.problem]}
          {item.problem === 'out-of-stock' && ` (needs ${item.wanted}, ${item.available} in stock)`}
        </li>
      ))}
      {plan.shortItems.map((item) => (
        <li key={`short-${item.productId}`}>
          <span className="font-medium">{item.productName}</span>: {shortWords(item)}
        </li>
      ))}
      {plan.reasons.includes('card-expiring') && plan.cardExpiresOn && (
        <li>
          <span className="font-medium">Saved card good until {formatDay(plan.cardExpiresOn)}</span>
          <span className="block text-stone-600">The customer needs to give a new card before {formatDay(plan.nextBillingDate)}.</span>
        </li>
      )}
      {plan.reasons.includes('dunning') && (
        <li>
          <span className="font-medium">
            {plan.failedAttempts} failed payment {plan.failedAttempts === 1 ? 'attempt' : 'attempts'}
            {plan.retryAt && `, next try ${formatDay(plan.retryAt)}`}
          </span>
          {plan.lastPaymentMessage && <span className="block text-stone-600">Last answer: {plan.lastPaymentMessage}</span>}
        </li>
      )}
    </ul>
  );
}

const column = columnsOf<AtRiskPlan>();

const AT_RISK_COLUMNS = [
  column.display({
    id: 'customer',
    header: 'Customer',
    cell: ({ row: { original: plan } }) => (
      <PlanCustomer plan={plan}>
        <span className="block text-xs text-stone-500">
          Plan {shortId(plan.id)} · {formatPrice(plan.amount)} · {itemsWords(plan.items)}
        </span>
      </PlanCustomer>
    ),
  }),
  column.display({ id: 'next', header: 'Next billing', meta: { className: 'whitespace-nowrap' }, cell: ({ row }) => formatDay(row.original.nextBillingDate) }),
  column.display({
    id: 'why',
    header: 'Why',
    cell: ({ row }) => (
      <div className="flex flex-wrap gap-1">
        {row.original.reasons.map((r) => (
          <Badge key={r} variant="warning">
            {reasonLabel(r)}
          </Badge>
        ))}
      </div>
    ),
  }),
  column.display({ id: 'details', header: 'Details', cell: ({ row }) => <Problems plan={row.original} /> }),
];

export function AtRiskList({
  reason,
  offset,
  onChange,
}: {
  reason: AtRiskReason | '';
  offset: number;
  onChange: (reason: AtRiskReason | '', offset: number) => void;
}) {
  const reasonId = useId();
  const page = useQuery({ ...planQueries.atRisk(reason, offset), placeholderData: keepPreviousData });

  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-end gap-4">
        <FilterSelect
          id={reasonId}
          label="Why at risk"
          value={reason}
          onChange={(v) => onChange(v, 0)}
          anyLabel="Any reason"
          options={AT_RISK_REASONS}
          labelOf={(r) => reasonLabel(r)}
          className="w-full sm:w-72"
        />
        <p className="text-sm text-stone-600">
          Active plans whose next renewal may fail. Customers are emailed a heads-up a few days before.
        </p>
      </div>
      {page.isPending ? (
        <p className="text-stone-600">Loading plans at risk...</p>
      ) : page.isError ? (
        <p className="text-red-700">{serverMessageOf(page.error) ?? 'Failed to load the plans at risk.'}</p>
      ) : page.data.plans.length === 0 ? (
        <p className="py-8 text-center text-stone-600">No plans at risk{reason ? ' for this reason' : ''}.</p>
      ) : (
        <>
          <Card>
            <CardContent className="overflow-x-auto p-0">
              <DataTable
                columns={AT_RISK_COLUMNS}
                data={page.data.plans}
                rowId={(plan) => plan.id}
                className="min-w-[52rem]"
                caption="Plans at risk, soonest billing first"
                busy={page.isFetching}
                rowProps={({ id }) => ({ 'data-testid': `at-risk-${id}` })}
              />
            </CardContent>
          </Card>
          <Pager
            offset={offset}
            shown={page.data.plans.length}
            total={page.data.total}
            pageSize={PLANS_PAGE_SIZE}
            onPage={(next) => onChange(reason, next)}
          />
        </>
      )}
    </div>
  );
}
