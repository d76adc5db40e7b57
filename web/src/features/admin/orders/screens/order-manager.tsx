import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../components/admin-frame';
import { RoleGate, useCan } from '../components/role-gate';
import { SyncPanel } from '../components/sync-panel';
import { listOrders, orderKeys } from '../orders/api';
import { BulkRetry } from '../orders/bulk-retry';
import { ExportPanel } from '../orders/export-panel';
import { OrderFilters } from '../orders/order-filters';
import { hasNextPage, PAGE_SIZES, paramsFromQuery, queryFromParams, queryProblem, requestOf, totalText, withFilters, type OrderQuery } from '../orders/order-query';
import { OrdersTable } from '../orders/orders-table';

const NO_SELECTION: RowSelectionState = {};

function Pager({ query, shown, total, capped, onChange }: { query: OrderQuery; shown: number; total: number; capped: boolean; onChange: (next: OrderQuery) => void }) {
  const sizeId = useId();
  const first = query.page * query.pageSize;
  return (
    <nav className="flex flex-wrap items-center justify-between gap-3 text-sm text-stone-600" aria-label="Order pages">
      <span data-testid="orders-count">
        {shown > 0 ? `${first + 1}–${first + shown} of ${totalText(total, capped)}` : totalText(total, capped)}
      </span>
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex items-center gap-2">
          <Label htmlFor={sizeId} className="font-normal text-stone-600">
            Rows per page
          </Label>
          <Select value={String(query.pageSize)} onValueChange={(v) => onChange({ ...query, pageSize: Number(v), page: 0 })}>
            <SelectTrigger id={sizeId} className="h-8 w-20">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {PAGE_SIZES.map((size) => (
                <SelectItem key={size} value={String(size)}>
                  {size}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={query.page === 0} onClick={() => onChange({ ...query, page: query.page - 1 })}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={!hasNextPage(query, shown, total, capped)} onClick={() => onChange({ ...query, page: query.page + 1 })}>
            Next
          </Button>
        </div>
      </div>
    </nav>
  );
}

function OrderList() {
  const canSync = useCan('sync.manage');
  const [params, setParams] = useSearchParams();
  const query = queryFromParams(params);
  const problem = queryProblem(query);
  const request = requestOf(query);
  const orders = useQuery({
    queryKey: orderKeys.list(request),
    queryFn: () => listOrders(request),
    enabled: problem === null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  // The chosen orders belong to the page they were chosen on: another page or filter starts afresh.
  const view = JSON.stringify(request);
  const [chosen, setChosen] = useState<{ view: string; selected: RowSelectionState }>({ view, selected: NO_SELECTION });
  const selected = chosen.view === view ? chosen.selected : NO_SELECTION;

  // Read the current URL when applying, so a change made while typing is never lost to a stale view.
  const change = (next: (current: OrderQuery) => OrderQuery) => setParams((current) => paramsFromQuery(next(queryFromParams(current))), { replace: true });

  const shown = orders.data?.orders ?? [];
  let body;
  if (problem) body = <p className="py-8 text-center text-stone-600">Correct the dates to see orders.</p>;
  else if (orders.isPending) body = <p className="text-stone-600">Loading orders...</p>;
  else if (orders.isError) body = <p className="text-red-700">{serverMessageOf(orders.error) ?? 'Failed to load orders.'}</p>;
  else if (shown.length === 0 && query.page === 0) body = <p className="py-8 text-center text-stone-600">No orders found.</p>;
  else {
    body = (
      <>
        {canSync && <BulkRetry orderIds={Object.keys(selected)} onDone={() => setChosen({ view, selected: NO_SELECTION })} />}
        {shown.length === 0 ? (
          <p className="py-8 text-center text-stone-600">No orders found.</p>
        ) : (
          <Card>
            <CardContent className="relative overflow-x-auto p-0">
              <OrdersTable
                orders={shown}
                sort={query.sort}
                direction={query.direction}
                onSortChange={(sort, direction) => change((current) => ({ ...current, sort, direction, page: 0 }))}
                selection={canSync ? { selected, onChange: (next) => setChosen({ view, selected: next }) } : undefined}
                busy={orders.isFetching}
              />
            </CardContent>
          </Card>
        )}
        <Pager query={query} shown={shown.length} total={orders.data.total} capped={orders.data.capped} onChange={(next) => change(() => next)} />
      </>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-4">
      <OrderFilters query={query} problem={problem} onChange={(filters) => change((current) => withFilters(current, filters))} />
      {body}
    </div>
  );
}

/** /admin-orders */
export default function OrderManagerPage() {
  usePageMeta({ title: 'Order Manager' });
  const canExport = useCan('exports.run');
  const canSync = useCan('sync.manage');
  return (
    <AdminPage title="Order Manager">
      <RoleGate permission="orders.view">
        {canSync && <SyncPanel />}
        <OrderList />
        {canExport && (
          <div className="mt-8">
            <ExportPanel />
          </div>
        )}
      </RoleGate>
    </AdminPage>
  );
}
