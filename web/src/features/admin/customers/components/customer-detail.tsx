/** A customer's page: who they are, their figures, tags and notes, orders, plans, and everything as one timeline. */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { TIMELINE_KIND_LABELS, type CustomerDetail as Customer } from '@nh/shared/contracts/admin-customers';
import { formatCents } from '@nh/shared/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError, serverMessageOf } from '@/lib/query-client';
import { useCan } from '../../shell/role-gate';
import { columnsOf, DataTable } from '../../ui/data-table';
import { addCustomerNote, customerQueries } from '../api';
import { CustomerActions } from './customer-actions';
import { CustomerCredit } from './customer-credit';
import { CustomerTags } from './customer-tags';
import { NoteForm, NoteList } from './note-form';
import { PrivacyActions } from './privacy-actions';

const short = (id: string) => id.slice(0, 8);
const day = (iso: string | null) => (iso ? formatOrderDate(iso) : '—');

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums text-brand-900">{value}</dd>
    </div>
  );
}

type Order = Customer['orders'][number];
const orderColumn = columnsOf<Order>();
const ORDER_COLUMNS = [
  orderColumn.display({
    id: 'order',
    header: 'Order',
    meta: { rowHeader: true },
    cell: ({ row }) => (
      <Link to={`/admin-orders/${row.original.id}`} className="font-mono text-brand-700 hover:underline">
        {short(row.original.id)}
      </Link>
    ),
  }),
  orderColumn.display({ id: 'date', header: 'Placed', cell: ({ row }) => formatOrderDate(row.original.createdAt) }),
  orderColumn.display({ id: 'status', header: 'Status', cell: ({ row }) => row.original.statusLabel }),
  orderColumn.display({ id: 'items', header: 'Items', meta: { className: 'text-right tabular-nums' }, cell: ({ row }) => row.original.itemCount }),
  orderColumn.display({
    id: 'total',
    header: 'Total',
    meta: { className: 'text-right tabular-nums' },
    cell: ({ row: { original: o } }) => (
      <>
        {formatCents(o.total)}
        {o.refunded > 0 && <span className="block text-xs text-stone-500">{formatCents(o.refunded)} refunded</span>}
      </>
    ),
  }),
];

type Plan = Customer['plans'][number];
const planColumn = columnsOf<Plan>();
const PLAN_COLUMNS = [
  planColumn.display({
    id: 'plan',
    header: 'Plan',
    meta: { rowHeader: true },
    cell: ({ row }) => (
      <Link to={`/admin/subscriptions/${row.original.id}`} className="font-mono text-brand-700 hover:underline">
        {short(row.original.id)}
      </Link>
    ),
  }),
  planColumn.display({ id: 'items', header: 'Items', cell: ({ row }) => row.original.items.map((i) => `${i.quantity} × ${i.name}`).join(', ') }),
  planColumn.display({
    id: 'amount',
    header: 'Amount',
    meta: { className: 'text-right tabular-nums' },
    cell: ({ row: { original: p } }) => `${formatCents(p.amount)} ${p.everyMonths === 1 ? 'every month' : `every ${p.everyMonths} months`}`,
  }),
  planColumn.display({ id: 'status', header: 'Status', cell: ({ row }) => row.original.statusLabel }),
  planColumn.display({ id: 'next', header: 'Next delivery', cell: ({ row }) => day(row.original.nextBillingDate) }),
];

function Timeline({ entries }: { entries: Customer['timeline'] }) {
  if (entries.length === 0) return <p className="text-sm text-stone-600">Nothing yet.</p>;
  return (
    <ol className="grid gap-3" aria-label="Timeline, newest first">
      {entries.map((e, i) => (
        <li key={`${e.kind}-${e.at}-${i}`} className="grid gap-0.5 border-l-2 border-stone-200 pl-3" data-kind={e.kind}>
          <p className="text-xs text-stone-500">
            <Badge variant="outline" className="mr-2">
              {TIMELINE_KIND_LABELS[e.kind]}
            </Badge>
            {formatOrderDate(e.at)}
            {e.by && ` · ${e.by}`}
          </p>
          <p className="text-sm font-medium text-stone-900">
            {e.orderId && e.kind !== 'note' ? (
              <Link to={`/admin-orders/${e.orderId}`} className="hover:underline">
                {e.title}
              </Link>
            ) : (
              e.title
            )}
          </p>
          {e.detail && <p className="whitespace-pre-line break-words text-sm text-stone-700">{e.detail}</p>}
          {e.replacementOrderId && (
            <p className="text-sm">
              <Link to={`/admin-orders/${e.replacementOrderId}`} className="text-brand-700 underline">
                Replacement order {e.replacementOrderId.slice(0, 8)}
              </Link>
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

function CustomerView({ customer: c }: { customer: Customer }) {
  const queryClient = useQueryClient();
  const canEdit = useCan('customers.edit') && !c.anonymised;
  const reload = () => void queryClient.invalidateQueries({ queryKey: customerQueries.all });
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>{c.name ?? c.email}</CardTitle>
          <p className="break-all text-sm text-stone-600">
            {c.email}
            {c.phone && ` · ${c.phone}`} · {c.anonymised ? 'Anonymised' : c.hasAccount ? `Account since ${day(c.signedUpAt)}` : 'Guest (no account)'}
            {c.newsletter && ' · Newsletter subscriber'}
          </p>
        </CardHeader>
        <CardContent className="grid gap-6">
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
            <Figure label="Lifetime spend" value={formatCents(c.lifetimeSpend)} />
            <Figure label="Paid orders" value={String(c.orderCount)} />
            <Figure label="Average order" value={c.averageOrder === null ? '—' : formatCents(c.averageOrder)} />
            <Figure label="Refunded" value={formatCents(c.refunded)} />
            <Figure label="First order" value={day(c.firstOrderAt)} />
            <Figure label="Last order" value={day(c.lastOrderAt)} />
          </dl>
          <CustomerTags customerId={c.id} tags={c.tags} canEdit={canEdit} onSaved={reload} />
        </CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Orders</CardTitle>
            </CardHeader>
            <CardContent className="overflow-x-auto p-0">
              {c.orders.length === 0 ? (
                <p className="p-4 text-sm text-stone-600">No orders.</p>
              ) : (
                <DataTable columns={ORDER_COLUMNS} data={c.orders} rowId={(o) => o.id} caption="The customer's orders, newest first" look="compact" />
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Subscriptions</CardTitle>
            </CardHeader>
            <CardContent className="overflow-x-auto p-0">
              {c.plans.length === 0 ? (
                <p className="p-4 text-sm text-stone-600">No subscriptions.</p>
              ) : (
                <DataTable columns={PLAN_COLUMNS} data={c.plans} rowId={(p) => p.id} caption="The customer's Subscribe & Save plans" look="compact" />
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Timeline</CardTitle>
            </CardHeader>
            <CardContent>
              <Timeline entries={c.timeline} />
            </CardContent>
          </Card>
        </div>
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Notes</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              {canEdit && <NoteForm label="Write a note on this customer" save={(body) => addCustomerNote(c.id, body)} onSaved={reload} />}
              <NoteList notes={c.notes} empty="No notes yet." />
            </CardContent>
          </Card>
          <CustomerCredit customer={c} onGranted={reload} />
          <CustomerActions customer={c} />
          <PrivacyActions customer={c} />
        </div>
      </div>
    </div>
  );
}

export function CustomerDetail({ id }: { id: string }) {
  const customer = useQuery(customerQueries.detail(id));
  if (customer.isPending) return <p className="py-12 text-center text-stone-600">Loading customer...</p>;
  if (customer.isError) {
    const missing = customer.error instanceof ApiError && customer.error.status === 404;
    return <p className="py-12 text-center text-lg font-semibold text-brand-900">{missing ? 'Customer not found' : (serverMessageOf(customer.error) ?? 'Failed to load customer.')}</p>;
  }
  return <CustomerView customer={customer.data} />;
}
