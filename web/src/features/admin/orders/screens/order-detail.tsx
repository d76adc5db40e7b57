import { CARRIERS } from '@nh/shared/constants';
import { ADMIN_MESSAGES, formatOrderDate, ORDER_STATUSES, type AdminOrder, type OrderStatus } from '@nh/shared/contracts/admin';
import { describeSkippedPeriod } from '@nh/shared/contracts/subscriptions';
import { formatCents, toCents } from '@nh/shared/money';
import { discountLines } from '@nh/shared/pricing';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Separator } from '@/components/ui/separator';
import { toast } from '@/components/ui/use-toast';
import { ApiError, serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { RoleMessage, useCan } from '../../shell/role-gate';
import { statusLabel, syncStatusLabel } from '../../ui/status-labels';
import { orderQueries, updateOrder } from '../api';
import { CancelOrderDialog } from '../components/cancel-order-dialog';
import { OrderPayments } from '../components/order-payments';
import { OrderStatusBadge } from '../components/order-status-badge';
import { OrderTimeline } from '../components/order-timeline';
import { RefundButton } from '../components/refund-dialog';
import { ResendEmails } from '../components/resend-emails';
import { RetrySyncButton } from '../components/retry-sync-button';

const NO_CARRIER = 'none';
const money = (value: string) => `$${value}`;

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2 space-y-0 pb-3">
        <CardTitle className="text-base">{title}</CardTitle>
        {action}
      </CardHeader>
      <CardContent className="text-sm">{children}</CardContent>
    </Card>
  );
}

function AddressLines({ address }: { address: AdminOrder['shippingAddress'] }) {
  return (
    <address className="not-italic">
      {address.address}
      <br />
      {address.city}, {address.state} {address.zip}
    </address>
  );
}

function Line({ label, value, strong = false }: { label: ReactNode; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 ${strong ? 'text-base font-semibold' : ''}`}>
      <span>{label}</span>
      <span className="tabular-nums">{value}</span>
    </div>
  );
}

/** Shipped or delivered: the order went out. */
const isFulfilled = (status: OrderStatus) => status === 'shipped' || status === 'delivered';

/**
 * Why this order cannot be marked shipped or delivered (its whole payment was voided or refunded, or is
 * being refunded), while it has not gone out; null otherwise. The server refuses the change with the same words.
 */
const shippingBlocked = (order: AdminOrder) => (isFulfilled(order.status) ? null : order.shippingBlockedReason);

function FulfillmentForm({ order }: { order: AdminOrder }) {
  const ids = { status: useId(), carrier: useId(), tracking: useId(), blocked: useId() };
  const blocked = shippingBlocked(order);
  // Not offered while the payment is given back: the server would refuse them.
  const statuses = blocked ? ORDER_STATUSES.filter((s) => !isFulfilled(s)) : ORDER_STATUSES;
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<OrderStatus>(order.status);
  const [carrier, setCarrier] = useState(order.carrier && (CARRIERS as readonly string[]).includes(order.carrier) ? order.carrier : NO_CARRIER);
  const [trackingNumber, setTrackingNumber] = useState(order.trackingNumber ?? '');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const update = useMutation({
    mutationFn: (restock?: boolean) =>
      updateOrder(order.id, { status, carrier: carrier === NO_CARRIER ? '' : (carrier as (typeof CARRIERS)[number]), trackingNumber, ...(restock === undefined ? {} : { restock }) }),
    onSuccess: (updated) => {
      queryClient.setQueryData(orderQueries.order(order.id).queryKey, updated);
      void queryClient.invalidateQueries({ queryKey: orderQueries.timeline(order.id).queryKey });
      void queryClient.invalidateQueries({ queryKey: orderQueries.lists });
      toast({ title: ADMIN_MESSAGES.orderUpdated });
    },
    onError: (error) => toast({ title: ADMIN_MESSAGES.orderUpdateFailed, description: serverMessageOf(error), variant: 'destructive' }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    // Cancelling asks first (stock, and the payment for a role that may refund it).
    if (status === 'cancelled' && order.status !== 'cancelled') setConfirmCancel(true);
    else update.mutate();
  }

  return (
    <Section title="Fulfillment">
      <form onSubmit={submit} className="grid gap-4">
        <div className="space-y-1.5">
          <Label htmlFor={ids.status}>Status</Label>
          <Select value={status} onValueChange={(v) => setStatus(v as OrderStatus)}>
            <SelectTrigger id={ids.status} aria-describedby={blocked ? ids.blocked : undefined}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {statuses.map((s) => (
                <SelectItem key={s} value={s}>
                  {statusLabel(s)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {blocked && (
            <p id={ids.blocked} className="text-sm text-amber-800" data-testid="shipping-blocked">
              {blocked}
            </p>
          )}
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={ids.carrier}>Carrier</Label>
          <Select value={carrier} onValueChange={setCarrier}>
            <SelectTrigger id={ids.carrier}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={NO_CARRIER}>None</SelectItem>
              {CARRIERS.map((c) => (
                <SelectItem key={c} value={c}>
                  {c}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={ids.tracking}>Tracking Number</Label>
          <Input id={ids.tracking} value={trackingNumber} maxLength={100} onChange={(e) => setTrackingNumber(e.target.value)} />
        </div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          {update.isPending ? 'Updating...' : 'Update Order'}
        </Button>
      </form>
      <CancelOrderDialog order={order} open={confirmCancel} onOpenChange={setConfirmCancel} onCancel={(restock) => update.mutateAsync(restock)} />
    </Section>
  );
}

/** Status, carrier and tracking for a role that may look but not change them. */
function FulfillmentSummary({ order }: { order: AdminOrder }) {
  const blocked = shippingBlocked(order);
  return (
    <Section title="Fulfillment">
      <dl className="grid grid-cols-[8rem_1fr] gap-1">
        <dt className="text-stone-500">Status</dt>
        <dd>{statusLabel(order.status)}</dd>
        <dt className="text-stone-500">Carrier</dt>
        <dd>{order.carrier || 'None'}</dd>
        <dt className="text-stone-500">Tracking Number</dt>
        <dd className="break-all">{order.trackingNumber || '—'}</dd>
      </dl>
      {blocked && (
        <p className="mt-3 text-sm text-amber-800" data-testid="shipping-blocked">
          {blocked}
        </p>
      )}
      <div className="mt-3">
        <RoleMessage permission="orders.fulfil" />
      </div>
    </Section>
  );
}

function OrderView({ order }: { order: AdminOrder }) {
  const canFulfil = useCan('orders.fulfil');
  const canSync = useCan('sync.manage');
  const canRefund = useCan('orders.refund');
  const canResend = useCan('orders.resendEmail');
  const showPayment = order.paymentTransactionId !== null || order.payments.length > 0;
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <h1 className="break-all font-mono text-2xl font-semibold text-brand-900">Order {order.id}</h1>
        <OrderStatusBadge status={order.status} className="text-sm" />
      </div>
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <div className="grid content-start gap-6">
          <Section title="Customer Information">
            <dl className="grid gap-1 sm:grid-cols-[8rem_1fr]">
              <dt className="text-stone-500">Name</dt>
              <dd>{order.customerName}</dd>
              <dt className="text-stone-500">Email</dt>
              <dd>{order.customerEmail}</dd>
              {order.customerPhone && (
                <>
                  <dt className="text-stone-500">Phone</dt>
                  <dd>{order.customerPhone}</dd>
                </>
              )}
              <dt className="text-stone-500">Order Date</dt>
              <dd>{formatOrderDate(order.createdAt)}</dd>
            </dl>
          </Section>
          <div className="grid gap-6 sm:grid-cols-2">
            <Section title="Shipping Address">
              <AddressLines address={order.shippingAddress} />
            </Section>
            <Section title="Billing Address">{order.billingAddress ? <AddressLines address={order.billingAddress} /> : <p className="text-stone-600">Same as shipping address</p>}</Section>
          </div>
          <Section title="Order Items">
            <ul className="divide-y divide-stone-200">
              {order.items.map((item, index) => (
                <li key={`${item.productId ?? 'x'}-${item.variantSku ?? ''}-${index}`} className="flex justify-between gap-4 py-2">
                  <span>
                    <span className="font-medium">{item.productName || 'Product'}</span>
                    <span className="block text-stone-500">Quantity: {item.quantity}</span>
                  </span>
                  <span className="tabular-nums">{money(item.price)}</span>
                </li>
              ))}
            </ul>
            <Separator className="my-3" />
            <div className="grid gap-1.5">
              <Line label="Subtotal" value={money(order.subtotal)} />
              {discountLines(
                { discount: toCents(order.discount), subscribeDiscount: toCents(order.subscribeDiscount), promoDiscount: toCents(order.promoDiscount) },
                order.promoCode,
              ).map((line) => (
                <Line key={line.kind} label={line.label} value={`-${formatCents(line.amount)}`} />
              ))}
              <Line label="Shipping" value={money(order.shipping)} />
              <Line label="Tax" value={money(order.tax)} />
              {order.promoCode && (
                <Line
                  label={
                    <span className="flex items-center gap-2">
                      Promo Code: <span className="font-mono">{order.promoCode}</span>
                    </span>
                  }
                  value="Applied"
                />
              )}
              <Separator className="my-1" />
              <Line label="Total" value={money(order.total)} strong />
            </div>
          </Section>
          {order.customerNotes && (
            <Section title="Customer Notes">
              <p className="whitespace-pre-wrap">{order.customerNotes}</p>
            </Section>
          )}
          <Section title="Timeline">
            <OrderTimeline orderId={order.id} />
          </Section>
        </div>
        <div className="grid content-start gap-6">
          {canFulfil ? <FulfillmentForm key={order.updatedAt} order={order} /> : <FulfillmentSummary order={order} />}
          {order.subscriptionId && (
            <Section title="Subscribe & Save">
              <p>A delivery of Subscribe &amp; Save plan #{order.subscriptionId.slice(0, 8)}.</p>
              <p className="break-all font-mono text-stone-500">{order.subscriptionId}</p>
              {order.subscriptionSkippedPeriods.length > 0 && (
                <ul className="mt-2 space-y-1" aria-label="Skipped periods of this plan">
                  {order.subscriptionSkippedPeriods.map((skipped) => (
                    <li key={skipped.period}>{describeSkippedPeriod(skipped, 'staff')}</li>
                  ))}
                </ul>
              )}
            </Section>
          )}
          {showPayment && (
            <Section title="Payment" action={canRefund && order.refundable !== '0.00' && <RefundButton order={order} />}>
              {order.paymentTransactionId && (
                <div className="mb-2">
                  <p className="text-stone-500">Transaction ID</p>
                  <p className="break-all font-mono">{order.paymentTransactionId}</p>
                </div>
              )}
              <OrderPayments order={order} />
            </Section>
          )}
          {canResend && (
            <Section title="Customer Emails">
              <ResendEmails order={order} />
            </Section>
          )}
          <Section title="NetSuite">
            <Badge variant={order.netsuiteSyncStatus === 'failed' ? 'destructive' : 'outline'}>{syncStatusLabel(order.netsuiteSyncStatus)}</Badge>
            {order.netsuiteSyncError && <p className="mt-2 text-red-700">{order.netsuiteSyncError}</p>}
            {order.netsuiteSyncStatus === 'failed' && canSync && <RetrySyncButton orderId={order.id} />}
          </Section>
        </div>
      </div>
    </>
  );
}

function LoadOrder({ id }: { id: string }) {
  const order = useQuery(orderQueries.order(id));
  if (order.isPending) return <p className="py-12 text-center text-stone-600">{ADMIN_MESSAGES.loadingOrder}</p>;
  if (order.isError) {
    const missing = order.error instanceof ApiError && order.error.status === 404;
    return <p className="py-12 text-center text-lg font-semibold text-brand-900">{missing ? ADMIN_MESSAGES.orderNotFound : 'Failed to load order.'}</p>;
  }
  return <OrderView order={order.data} />;
}

/** /admin-orders/{id} (signed out, the admin layout shows the sign-in screen here and then this order). */
export default function OrderDetailPage() {
  usePageMeta({ title: 'Order' });
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // Back to the list as it was left (its filters, sort and page), when the order was opened from it.
  const { state } = useLocation() as { state: { listSearch?: unknown } | null };
  const listSearch = typeof state?.listSearch === 'string' && state.listSearch.startsWith('?') ? state.listSearch : '';
  return (
    <AdminPage
      back={
        <Button variant="ghost" className="mb-4 -ml-3" onClick={() => void navigate(`/admin-orders${listSearch}`)}>
          <ArrowLeft aria-hidden="true" />
          Back to Orders
        </Button>
      }
    >
      <LoadOrder id={id} />
    </AdminPage>
  );
}
