import { formatPrice } from '@nh/shared';
import { LIMITS } from '@nh/shared/constants';
import { ADMIN_MESSAGES, ADMIN_ORDERS_PAGE_SIZE, formatOrderDate, ORDER_STATUSES, type OrderStatus } from '@nh/shared/contracts/admin';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Download, Loader2, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { usePageMeta } from '@/lib/use-page-meta';
import { adminKeys, listOrders, type OrderFilters } from '../api';
import { AdminPage } from '../components/admin-frame';
import { RoleGate, useCan } from '../components/role-gate';
import { OrderStatusBadge, statusLabel } from '../components/order-status-badge';
import { SyncPanel } from '../components/sync-panel';
import { exportOrdersCsv, saveCsv } from '../export-orders';
import { syncStatusLabel } from '../sync-status';

const SEARCH_DELAY_MS = 300;

function ExportButton() {
  const run = useMutation({
    mutationFn: () => exportOrdersCsv(),
    onSuccess: (blob) => {
      saveCsv(blob);
      toast({ title: ADMIN_MESSAGES.exportSucceeded });
    },
    onError: () => toast({ title: ADMIN_MESSAGES.exportFailed, variant: 'destructive' }),
  });
  return (
    <Button variant="outline" onClick={() => run.mutate()} disabled={run.isPending}>
      {run.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
      {run.isPending ? 'Exporting...' : 'Export CSV'}
    </Button>
  );
}

function OrderList() {
  const ids = { search: useId(), status: useId() };
  const [typed, setTyped] = useState('');
  const [filters, setFilters] = useState<OrderFilters>({ search: '', status: 'all', offset: 0 });
  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.search === typed ? f : { ...f, search: typed, offset: 0 })), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const orders = useQuery({
    queryKey: adminKeys.ordersPage(filters),
    queryFn: () => listOrders(filters),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const total = orders.data?.total ?? 0;
  const shown = orders.data?.orders ?? [];

  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <div className="space-y-1.5">
          <Label htmlFor={ids.search}>Search orders</Label>
          <div className="relative">
            <Search className="absolute left-3 top-1/2 size-4 -translate-y-1/2 text-stone-400" aria-hidden="true" />
            <Input id={ids.search} type="search" className="pl-9" placeholder="Order id, name or email" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={ids.status}>Status</Label>
          <Select value={filters.status} onValueChange={(status) => setFilters((f) => ({ ...f, status: status as OrderStatus | 'all', offset: 0 }))}>
            <SelectTrigger id={ids.status}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All statuses</SelectItem>
              {ORDER_STATUSES.map((s) => (
                <SelectItem key={s} value={s}>
                  {statusLabel(s)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>

      {orders.isPending ? (
        <p className="text-stone-600">Loading orders...</p>
      ) : orders.isError ? (
        <p className="text-red-700">Failed to load orders.</p>
      ) : shown.length === 0 ? (
        <p className="py-8 text-center text-stone-600">No orders found.</p>
      ) : (
        <Card>
          <CardContent className="p-0">
            <ul className="divide-y divide-stone-200" aria-busy={orders.isFetching}>
              {shown.map((order) => (
                <li key={order.id}>
                  <Link
                    to={`/admin-orders/${order.id}`}
                    className="grid gap-2 px-4 py-3 hover:bg-stone-50 focus-visible:bg-stone-50 sm:grid-cols-[7rem_1fr_auto_auto] sm:items-center sm:gap-4"
                    data-testid={`order-${order.id}`}
                  >
                    <span className="font-mono text-sm font-semibold">#{order.id.slice(0, LIMITS.orderIdDisplayLength)}</span>
                    <span>
                      <span className="block font-medium text-stone-900">{order.customerName}</span>
                      <span className="block text-sm text-stone-600">{order.customerEmail}</span>
                      <span className="block text-xs text-stone-500">
                        {formatOrderDate(order.createdAt)}
                        {order.trackingNumber && ` · ${order.carrier ? `${order.carrier} ` : ''}${order.trackingNumber}`}
                        {` · NetSuite: ${syncStatusLabel(order.netsuiteSyncStatus)}`}
                      </span>
                    </span>
                    <span className="font-semibold tabular-nums">{formatPrice(order.total)}</span>
                    <OrderStatusBadge status={order.status} />
                  </Link>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}

      {total > ADMIN_ORDERS_PAGE_SIZE && (
        <div className="flex items-center justify-between text-sm text-stone-600">
          <span>
            {filters.offset + 1}–{Math.min(filters.offset + ADMIN_ORDERS_PAGE_SIZE, total)} of {total}
          </span>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={filters.offset === 0} onClick={() => setFilters((f) => ({ ...f, offset: Math.max(0, f.offset - ADMIN_ORDERS_PAGE_SIZE) }))}>
              Previous
            </Button>
            <Button variant="outline" size="sm" disabled={filters.offset + ADMIN_ORDERS_PAGE_SIZE >= total} onClick={() => setFilters((f) => ({ ...f, offset: f.offset + ADMIN_ORDERS_PAGE_SIZE }))}>
              Next
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}

/** /admin-orders */
export default function OrderManagerPage() {
  usePageMeta({ title: 'Order Manager' });
  const canView = useCan('orders.view');
  const canExport = useCan('exports.run');
  const canSync = useCan('sync.manage');
  return (
    <AdminPage title="Order Manager" actions={canView && canExport && <ExportButton />}>
      <RoleGate permission="orders.view">
        {canSync && <SyncPanel />}
        <OrderList />
      </RoleGate>
    </AdminPage>
  );
}
