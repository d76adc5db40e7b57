import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useState } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router-dom';
import { Card, CardContent } from '@/components/ui/card';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { ExportPanel } from '../../exports/components/export-panel';
import { AdminPage } from '../../shell/admin-page';
import { useCan } from '../../shell/role-gate';
import { SyncPanel } from '../../sync/components/sync-panel';
import { orderQueries } from '../api';
import { BulkRetry } from '../components/bulk-retry';
import { OrderFilters } from '../components/order-filters';
import { OrderPager } from '../components/order-pager';
import { OrdersTable } from '../components/orders-table';
import { paramsFromQuery, queryFromParams, queryProblem, requestOf, withFilters, type OrderQuery } from '../order-query';

const NO_SELECTION: RowSelectionState = {};

function OrderList() {
  const canSync = useCan('sync.manage');
  const [params, setParams] = useSearchParams();
  const query = queryFromParams(params);
  const problem = queryProblem(query);
  const request = requestOf(query);
  const orders = useQuery({ ...orderQueries.list(request), enabled: problem === null, placeholderData: keepPreviousData });
  // The chosen orders belong to the page they were chosen on: another page or filter starts afresh.
  const view = JSON.stringify(request);
  const [chosen, setChosen] = useState<{ view: string; selected: RowSelectionState }>({ view, selected: NO_SELECTION });
  const selected = chosen.view === view ? chosen.selected : NO_SELECTION;

  // An order opened while the search box was still settling wins: applying the search then would be a
  // navigation of its own, and a new navigation cancels the one still loading the order's screen.
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const leaving = navigation.state !== 'idle' && navigation.location?.pathname !== pathname;
  // Read the current URL when applying, so a change made while typing is never lost to a stale view.
  const change = (next: (current: OrderQuery) => OrderQuery) => {
    if (!leaving) setParams((current) => paramsFromQuery(next(queryFromParams(current))), { replace: true });
  };

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
        <OrderPager query={query} shown={shown.length} total={orders.data.total} capped={orders.data.capped} onChange={(next) => change(() => next)} />
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
  const queryClient = useQueryClient();
  const canExport = useCan('exports.run');
  // Issue 23: the export follows the table's search and filters (the panel keeps its own dates and status).
  const [params] = useSearchParams();
  const table = queryFromParams(params);
  const canSync = useCan('sync.manage');
  return (
    <AdminPage title="Order Manager">
      {canSync && <SyncPanel onRetried={() => void queryClient.invalidateQueries({ queryKey: orderQueries.lists })} />}
      <OrderList />
      {canExport && (
        <div className="mt-8">
          <ExportPanel
            tableFilters={{ search: table.search.trim() || undefined, netsuiteStatus: table.netsuiteStatus || undefined, promo: table.promo.trim() || undefined, paymentState: table.paymentState || undefined }}
          />
        </div>
      )}
    </AdminPage>
  );
}
