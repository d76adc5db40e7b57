/**
 * The order table: column headers, sorting by date and total, row selection of failed syncs. The server
 * sorts and pages (`manualSorting`; the page and its pager are the Order Manager's): the table renders
 * the page it is given and reports what staff ask for.
 */
import { formatPrice } from '@nh/shared';
import { LIMITS } from '@nh/shared/constants';
import { formatOrderDate, PAYMENT_STATE_LABELS, type AdminOrderSort, type AdminOrderSummary } from '@nh/shared/contracts/admin';
import type { RowSelectionState, SortingState, Updater } from '@tanstack/react-table';
import type { MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Checkbox } from '@/components/ui/checkbox';
import { columnsOf, DataTable } from '../../ui/data-table';
import { syncStatusLabel } from '../../ui/status-labels';
import { OrderStatusBadge } from './order-status-badge';

const column = columnsOf<AdminOrderSummary>();

const shortId = (id: string) => `#${id.slice(0, LIMITS.orderIdDisplayLength)}`;
/** Only an order whose NetSuite sync failed can be chosen for the bulk retry. */
export const canRetrySync = (order: AdminOrderSummary) => order.netsuiteSyncStatus === 'failed';

/** The way into an order; it remembers the list's filters for the order's Back button. */
function OrderLink({ id }: { id: string }) {
  const { search } = useLocation();
  return (
    <Link to={`/admin-orders/${id}`} state={{ listSearch: search }} className="font-mono font-semibold text-brand-700 hover:underline">
      {shortId(id)}
    </Link>
  );
}

const DATA_COLUMNS = column.columns([
  column.accessor('id', {
    header: 'Order',
    enableSorting: false,
    cell: ({ row }) => <OrderLink id={row.original.id} />,
  }),
  column.accessor('createdAt', {
    header: 'Placed',
    meta: { className: 'whitespace-nowrap' },
    cell: ({ row }) => formatOrderDate(row.original.createdAt),
  }),
  column.accessor('customerName', {
    header: 'Customer',
    enableSorting: false,
    cell: ({ row }) => (
      <>
        <span className="block font-medium text-stone-900">{row.original.customerName}</span>
        <span className="block break-all text-xs text-stone-600">{row.original.customerEmail}</span>
      </>
    ),
  }),
  column.accessor('status', {
    header: 'Status',
    enableSorting: false,
    cell: ({ row }) => (
      <>
        <OrderStatusBadge status={row.original.status} />
        {row.original.trackingNumber && (
          <span className="mt-1 block text-xs text-stone-500">
            {row.original.carrier ? `${row.original.carrier} ` : ''}
            {row.original.trackingNumber}
          </span>
        )}
      </>
    ),
  }),
  column.accessor('paymentState', {
    header: 'Payment',
    enableSorting: false,
    cell: ({ row }) => (
      <>
        <span className="whitespace-nowrap">{PAYMENT_STATE_LABELS[row.original.paymentState]}</span>
        {row.original.refunded !== '0.00' && <span className="mt-1 block text-xs text-stone-500 tabular-nums">{formatPrice(row.original.refunded)} refunded</span>}
      </>
    ),
  }),
  column.accessor('netsuiteSyncStatus', {
    header: 'NetSuite',
    enableSorting: false,
    cell: ({ row }) => (
      <Badge variant={canRetrySync(row.original) ? 'destructive' : 'outline'} className="whitespace-nowrap">
        {syncStatusLabel(row.original.netsuiteSyncStatus)}
      </Badge>
    ),
  }),
  column.accessor('promoCode', {
    header: 'Promo',
    enableSorting: false,
    cell: ({ row }) => (row.original.promoCode ? <span className="font-mono text-xs">{row.original.promoCode}</span> : <span className="text-stone-400">—</span>),
  }),
  column.accessor('total', {
    header: 'Total',
    meta: { className: 'text-right' },
    cell: ({ row }) => <span className="font-semibold tabular-nums">{formatPrice(row.original.total)}</span>,
  }),
]);

const SELECT_COLUMN = column.display({
  id: 'select',
  enableSorting: false,
  meta: { className: 'w-10' },
  header: ({ table }) => {
    const selectable = table.getRowModel().rows.some((row) => row.getCanSelect());
    return (
      <Checkbox
        aria-label="Select every failed order on this page"
        disabled={!selectable}
        checked={table.getIsAllPageRowsSelected() ? true : table.getIsSomePageRowsSelected() ? 'indeterminate' : false}
        onCheckedChange={(checked) => table.toggleAllPageRowsSelected(checked === true)}
      />
    );
  },
  cell: ({ row }) =>
    row.getCanSelect() ? (
      <Checkbox aria-label={`Select order ${shortId(row.original.id)}`} checked={row.getIsSelected()} onCheckedChange={(checked) => row.toggleSelected(checked === true)} />
    ) : null,
});

const COLUMNS = DATA_COLUMNS;
const COLUMNS_WITH_SELECT = column.columns([SELECT_COLUMN, ...DATA_COLUMNS]);

const SORTABLE: Record<string, AdminOrderSort> = { createdAt: 'createdAt', total: 'total' };
const NO_SELECTION: RowSelectionState = {};

/** A click on the row opens the order, unless it was on something of its own (the link, a checkbox). */
const INTERACTIVE = 'a, button, input, label, [role="checkbox"]';

export interface OrdersTableProps {
  orders: AdminOrderSummary[];
  sort: AdminOrderSort;
  direction: 'asc' | 'desc';
  onSortChange: (sort: AdminOrderSort, direction: 'asc' | 'desc') => void;
  /** Given for a role that may retry syncs: the chosen order ids and their setter. */
  selection?: { selected: RowSelectionState; onChange: (selected: RowSelectionState) => void };
  /** A new page is on its way (the current one stays shown meanwhile). */
  busy?: boolean;
}

export function OrdersTable({ orders, sort, direction, onSortChange, selection, busy = false }: OrdersTableProps) {
  const navigate = useNavigate();
  const { search: listSearch } = useLocation();
  const sorting: SortingState = [{ id: sort, desc: direction === 'desc' }];
  const rowSelection = selection?.selected ?? NO_SELECTION;

  const open = (event: MouseEvent<HTMLTableRowElement>, id: string) => {
    if ((event.target as Element).closest(INTERACTIVE)) return;
    void navigate(`/admin-orders/${id}`, { state: { listSearch } });
  };

  return (
    <DataTable
      columns={selection ? COLUMNS_WITH_SELECT : COLUMNS}
      data={orders}
      rowId={(order) => order.id}
      className="min-w-[56rem]"
      label="Orders"
      busy={busy}
      options={{
        state: { sorting, rowSelection },
        enableSorting: true,
        manualSorting: true,
        enableSortingRemoval: false,
        enableMultiSort: false,
        sortDescFirst: true,
        onSortingChange: (updater: Updater<SortingState>) => {
          const next = (typeof updater === 'function' ? updater(sorting) : updater)[0];
          const column = next && SORTABLE[next.id];
          if (column) onSortChange(column, next.desc ? 'desc' : 'asc');
        },
        enableRowSelection: (row) => canRetrySync(row.original),
        enableRowRangeSelection: false,
        onRowSelectionChange: (updater: Updater<RowSelectionState>) => selection?.onChange(typeof updater === 'function' ? updater(rowSelection) : updater),
      }}
      rowProps={(row) => ({
        'data-testid': `order-${row.id}`,
        'data-state': row.getIsSelected() ? 'selected' : undefined,
        onClick: (event) => open(event, row.id),
        className: 'cursor-pointer hover:bg-stone-50 data-[state=selected]:bg-brand-100/40',
      })}
    />
  );
}
