/** The order's status, carrier and tracking: a form for a role with orders.fulfil, a summary for the others. */
import { CARRIERS } from '@nh/shared/constants';
import { ADMIN_MESSAGES, ORDER_STATUSES, type AdminOrder, type OrderStatus } from '@nh/shared/contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { RoleMessage } from '../../shell/role-gate';
import { statusLabel } from '../../ui/status-labels';
import { orderQueries, updateOrder } from '../api';
import { CancelOrderDialog } from './cancel-order-dialog';
import { Section } from './order-section';

const NO_CARRIER = 'none';

/** Shipped or delivered: the order went out. */
const isFulfilled = (status: OrderStatus) => status === 'shipped' || status === 'delivered';

/**
 * Why this order cannot be marked shipped or delivered (its whole payment was voided or refunded, or is
 * being refunded), while it has not gone out; null otherwise. The server refuses the change with the same words.
 */
const shippingBlocked = (order: AdminOrder) => (isFulfilled(order.status) ? null : order.shippingBlockedReason);

export function FulfillmentForm({ order }: { order: AdminOrder }) {
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
export function FulfillmentSummary({ order }: { order: AdminOrder }) {
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
