/** The plan table: search, status, next billing dates and failed attempts (in the URL), paged. */
import { formatPrice } from '@nh/shared';
import { ADMIN_SUBSCRIPTION_STATUS_LABELS, adminSubscriptionsQuerySchema, type AdminSubscriptionSummary } from '@nh/shared/contracts/admin-subscriptions';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { columnsOf, DataTable } from '../../ui/data-table';
import { FilterButtons, FilterSelect, ProblemList } from '../../ui/filter-form';
import { filterParams } from '../../ui/filter-params';
import { Pager } from '../../ui/pager';
import { useFilterDraft } from '../../ui/use-filter-draft';
import { EMPTY_PLAN_FILTERS, PLAN_FILTER_KEYS, planQueries, PLANS_PAGE_SIZE, type PlanFilters } from '../api';
import { formatDay } from '../format';
import { intervalWords, itemsWords, PlanCustomer, PlanStatusBadge, shortId } from './plan-words';

const ANY = 'any';
const FAILED_CHOICES = [
  { value: '1', label: 'At least 1 (payment failing)' },
  { value: '2', label: 'At least 2' },
  { value: '3', label: 'At least 3' },
] as const;

/** The filters of the URL; an unknown status reads as "any". */
export function planFiltersOf(params: URLSearchParams): PlanFilters {
  const status = params.get('status') ?? '';
  const offset = Number.parseInt(params.get('offset') ?? '0', 10);
  return {
    search: params.get('search') ?? '',
    status: (SUBSCRIPTION_STATUSES as readonly string[]).includes(status) ? (status as SubscriptionStatus) : '',
    dueFrom: params.get('dueFrom') ?? '',
    dueTo: params.get('dueTo') ?? '',
    minFailedAttempts: params.get('minFailedAttempts') ?? '',
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}

export const planParamsOf = (filters: PlanFilters): URLSearchParams => filterParams(PLAN_FILTER_KEYS, filters);

function PlanFilterForm({ applied, onApply }: { applied: PlanFilters; onApply: (filters: PlanFilters) => void }) {
  const ids = { search: useId(), status: useId(), dueFrom: useId(), dueTo: useId(), failed: useId() };
  const { draft, set, problems, submit, clear } = useFilterDraft({
    applied,
    empty: EMPTY_PLAN_FILTERS,
    keys: PLAN_FILTER_KEYS,
    schema: adminSubscriptionsQuerySchema,
    onApply: (filters) => onApply({ ...filters, offset: 0 }),
  });

  return (
    <Card>
      <CardContent className="pt-6">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4" aria-label="Plan filters">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-5">
            <div className="space-y-1.5 lg:col-span-2">
              <Label htmlFor={ids.search}>Search plans</Label>
              <Input
                id={ids.search}
                value={draft.search}
                maxLength={200}
                placeholder="Name, email or plan id"
                onChange={(e) => set('search', e.target.value)}
              />
            </div>
            <FilterSelect
              id={ids.status}
              label="Status"
              value={draft.status}
              onChange={(v) => set('status', v)}
              anyLabel="Any status"
              options={SUBSCRIPTION_STATUSES}
              labelOf={(status) => ADMIN_SUBSCRIPTION_STATUS_LABELS[status]}
            />
            <div className="space-y-1.5 lg:col-span-2">
              <Label htmlFor={ids.failed}>Failed payment attempts</Label>
              <Select value={draft.minFailedAttempts || ANY} onValueChange={(v) => set('minFailedAttempts', v === ANY ? '' : v)}>
                <SelectTrigger id={ids.failed}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ANY}>Any number</SelectItem>
                  {FAILED_CHOICES.map((choice) => (
                    <SelectItem key={choice.value} value={choice.value}>
                      {choice.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={ids.dueFrom}>Next billing from</Label>
              <Input id={ids.dueFrom} type="date" value={draft.dueFrom} onChange={(e) => set('dueFrom', e.target.value)} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={ids.dueTo}>Next billing to</Label>
              <Input id={ids.dueTo} type="date" value={draft.dueTo} onChange={(e) => set('dueTo', e.target.value)} />
            </div>
          </div>
          <ProblemList problems={problems} />
          <FilterButtons onClear={clear} />
        </form>
      </CardContent>
    </Card>
  );
}

const column = columnsOf<AdminSubscriptionSummary>();

const PLAN_COLUMNS = [
  column.display({
    id: 'customer',
    header: 'Customer',
    cell: ({ row: { original: plan } }) => (
      <PlanCustomer plan={plan}>
        <span className="block font-mono text-xs text-stone-500">Plan {shortId(plan.id)}</span>
      </PlanCustomer>
    ),
  }),
  column.display({ id: 'items', header: 'Items', meta: { className: 'max-w-[18rem]' }, cell: ({ row }) => itemsWords(row.original.items) }),
  column.display({
    id: 'amount',
    header: 'Amount',
    meta: { className: 'text-right tabular-nums' },
    cell: ({ row: { original: plan } }) => (
      <>
        {formatPrice(plan.amount)}
        <span className="block text-xs text-stone-500">{intervalWords(plan.interval, plan.intervalCount)}</span>
      </>
    ),
  }),
  column.display({ id: 'next', header: 'Next billing', meta: { className: 'whitespace-nowrap' }, cell: ({ row }) => formatDay(row.original.nextBillingDate) }),
  column.display({
    id: 'failed',
    header: 'Failed attempts',
    meta: { className: 'text-right tabular-nums' },
    cell: ({ row: { original: plan } }) => (
      <>
        <span className={cn(plan.failedAttempts > 0 && 'font-semibold text-amber-800')}>{plan.failedAttempts}</span>
        {plan.retryAt && <span className="block text-xs text-stone-500">Retry {formatDay(plan.retryAt)}</span>}
      </>
    ),
  }),
  column.display({ id: 'status', header: 'Status', cell: ({ row }) => <PlanStatusBadge status={row.original.status} /> }),
];

function PlanRows({ filters, onPage }: { filters: PlanFilters; onPage: (offset: number) => void }) {
  const page = useQuery({ ...planQueries.list(filters), placeholderData: keepPreviousData });
  if (page.isPending) return <p className="text-stone-600">Loading plans...</p>;
  if (page.isError) return <p className="text-red-700">{serverMessageOf(page.error) ?? 'Failed to load plans.'}</p>;
  const { subscriptions, total } = page.data;
  if (subscriptions.length === 0) return <p className="py-8 text-center text-stone-600">No plans match these filters.</p>;

  return (
    <div className="grid grid-cols-1 gap-4">
      <Card>
        <CardContent className="overflow-x-auto p-0">
          <DataTable
            columns={PLAN_COLUMNS}
            data={subscriptions}
            rowId={(plan) => plan.id}
            className="min-w-[56rem]"
            caption="Subscribe & Save plans, soonest billing first"
            busy={page.isFetching}
            rowProps={({ id }) => ({ 'data-testid': `plan-${id}` })}
          />
        </CardContent>
      </Card>
      <Pager offset={filters.offset} shown={subscriptions.length} total={total} pageSize={PLANS_PAGE_SIZE} onPage={onPage} />
    </div>
  );
}

export function PlanTable({ filters, onApply }: { filters: PlanFilters; onApply: (filters: PlanFilters) => void }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <PlanFilterForm key={planParamsOf({ ...filters, offset: 0 }).toString()} applied={filters} onApply={onApply} />
      <PlanRows filters={filters} onPage={(offset) => onApply({ ...filters, offset })} />
    </div>
  );
}
