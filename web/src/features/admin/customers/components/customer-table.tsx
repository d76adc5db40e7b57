/** The customers list: search (name, email or order number), tag, sort (in the URL), 50 a page. */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { CUSTOMER_SORT_LABELS, CUSTOMER_SORTS, customerListQuerySchema, type CustomerSort, type CustomerSummary } from '@nh/shared/contracts/admin-customers';
import { formatCents } from '@nh/shared/money';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { serverMessageOf } from '@/lib/query-client';
import { columnsOf, DataTable } from '../../ui/data-table';
import { FilterButtons, ProblemList } from '../../ui/filter-form';
import { customerQueries, EMPTY_CUSTOMER_FILTERS, type CustomerFilters } from '../api';

function CustomerFilterForm({ applied, onApply }: { applied: CustomerFilters; onApply: (filters: CustomerFilters) => void }) {
  const ids = { q: useId(), tag: useId(), sort: useId() };
  const [draft, setDraft] = useState(applied);
  const [problems, setProblems] = useState<string[]>([]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = customerListQuerySchema.safeParse({ q: draft.q, tag: draft.tag, sort: draft.sort });
    if (!checked.success) {
      setProblems([...new Set(checked.error.issues.map((i) => i.message))]);
      return;
    }
    setProblems([]);
    onApply({ q: checked.data.q ?? '', tag: checked.data.tag ?? '', sort: checked.data.sort, page: 1 });
  };
  return (
    <Card>
      <CardContent className="pt-6">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4" aria-label="Customer filters">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <div className="space-y-1.5 lg:col-span-2">
              <Label htmlFor={ids.q}>Search customers</Label>
              <Input id={ids.q} value={draft.q} maxLength={200} placeholder="Name, email or order number" onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={ids.tag}>Tag</Label>
              <Input id={ids.tag} value={draft.tag} maxLength={30} placeholder="Any tag" onChange={(e) => setDraft({ ...draft, tag: e.target.value })} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={ids.sort}>Sort by</Label>
              <Select value={draft.sort} onValueChange={(v) => setDraft({ ...draft, sort: v as CustomerSort })}>
                <SelectTrigger id={ids.sort}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {CUSTOMER_SORTS.map((s) => (
                    <SelectItem key={s} value={s}>
                      {CUSTOMER_SORT_LABELS[s]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>
          <ProblemList problems={problems} />
          <FilterButtons
            onClear={() => {
              setDraft(EMPTY_CUSTOMER_FILTERS);
              setProblems([]);
              onApply(EMPTY_CUSTOMER_FILTERS);
            }}
          />
        </form>
      </CardContent>
    </Card>
  );
}

const column = columnsOf<CustomerSummary>();
const COLUMNS = [
  column.display({
    id: 'customer',
    header: 'Customer',
    meta: { rowHeader: true },
    cell: ({ row: { original: c } }) => (
      <>
        <Link to={`/admin/customers/${c.id}`} className="font-medium text-brand-700 hover:underline">
          {c.name ?? c.email}
        </Link>
        <span className="block break-all text-xs text-stone-500">{c.email}</span>
      </>
    ),
  }),
  column.display({
    id: 'kind',
    header: 'Account',
    cell: ({ row: { original: c } }) => (c.anonymised ? <Badge variant="outline">Anonymised</Badge> : c.hasAccount ? 'Account' : 'Guest'),
  }),
  column.display({ id: 'orders', header: 'Orders', meta: { className: 'text-right tabular-nums' }, cell: ({ row }) => row.original.orderCount }),
  column.display({ id: 'spend', header: 'Lifetime spend', meta: { className: 'text-right tabular-nums' }, cell: ({ row }) => formatCents(row.original.lifetimeSpend) }),
  column.display({
    id: 'last',
    header: 'Last order',
    meta: { className: 'whitespace-nowrap' },
    cell: ({ row }) => (row.original.lastOrderAt ? formatOrderDate(row.original.lastOrderAt) : 'No paid order yet'),
  }),
  column.display({
    id: 'tags',
    header: 'Tags',
    cell: ({ row }) => (
      <span className="flex flex-wrap gap-1">
        {row.original.tags.map((t) => (
          <Badge key={t} variant="secondary">
            {t}
          </Badge>
        ))}
      </span>
    ),
  }),
];

function CustomerRows({ filters, onPage }: { filters: CustomerFilters; onPage: (page: number) => void }) {
  const page = useQuery({ ...customerQueries.list(filters), placeholderData: keepPreviousData });
  if (page.isPending) return <p className="text-stone-600">Loading customers...</p>;
  if (page.isError) return <p className="text-red-700">{serverMessageOf(page.error) ?? 'Failed to load customers.'}</p>;
  const { customers, hasMore } = page.data;
  if (customers.length === 0) return <p className="py-8 text-center text-stone-600">No customers match these filters.</p>;
  const first = (filters.page - 1) * page.data.pageSize + 1;
  return (
    <div className="grid grid-cols-1 gap-4">
      <Card>
        <CardContent className="overflow-x-auto p-0">
          <DataTable
            columns={COLUMNS}
            data={customers}
            rowId={(c) => c.id}
            className="min-w-[48rem]"
            caption={CUSTOMER_SORT_LABELS[filters.sort]}
            busy={page.isFetching}
            rowProps={({ id }) => ({ 'data-testid': `customer-${id}` })}
          />
        </CardContent>
      </Card>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-stone-600">
        <span>
          {first}–{first + customers.length - 1}
        </span>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={filters.page <= 1} onClick={() => onPage(filters.page - 1)}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={!hasMore} onClick={() => onPage(filters.page + 1)}>
            Next
          </Button>
        </div>
      </div>
    </div>
  );
}

export function CustomerTable({ filters, onApply }: { filters: CustomerFilters; onApply: (filters: CustomerFilters) => void }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <CustomerFilterForm key={JSON.stringify({ ...filters, page: 1 })} applied={filters} onApply={onApply} />
      <CustomerRows filters={filters} onPage={(page) => onApply({ ...filters, page })} />
    </div>
  );
}
