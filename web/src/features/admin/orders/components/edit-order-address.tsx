/**
 * Fix an unshipped order (issue 23): "Edit address" beside the shipping address, for a role with
 * `orders.editAddress`, while the order has not shipped and is not cancelled. The dialog checks the
 * checkout's address rules before sending; the server checks them again, and refuses (its words shown
 * here) an order that shipped meanwhile. On success the page shows the new address, the timeline the
 * change, and the toast says the customer is emailed and NetSuite updated.
 */
import type { AdminOrder } from '@nh/shared/contracts/admin';
import { changeOrderAddressSchema, ORDER_ADDRESS_MESSAGES as MSG, ORDER_ADDRESS_REASON_MAX_LENGTH, orderAddressLockedReason } from '@nh/shared/contracts/admin-order-address';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { useCan } from '../../shell/role-gate';
import { changeOrderAddress, orderQueries } from '../api';

const FIELDS = [
  { name: 'address', label: 'Address', autoComplete: 'street-address', wide: true },
  { name: 'city', label: 'City', autoComplete: 'address-level2', wide: true },
  { name: 'state', label: 'State', autoComplete: 'address-level1', wide: false },
  { name: 'zip', label: 'ZIP Code', autoComplete: 'postal-code', wide: false },
] as const;
type AddressForm = Record<(typeof FIELDS)[number]['name'], string>;


/** The button, shown only when the role may and the order is still unshipped; it opens the dialog. */
export function EditOrderAddressButton({ order }: { order: AdminOrder }) {
  const canEdit = useCan('orders.editAddress');
  const [open, setOpen] = useState(false);
  if (!canEdit || orderAddressLockedReason(order.status) !== null) return null;
  return (
    <>
      <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
        Edit address
      </Button>
      {open && <EditOrderAddressDialog order={order} onClose={() => setOpen(false)} />}
    </>
  );
}

function EditOrderAddressDialog({ order, onClose }: { order: AdminOrder; onClose: () => void }) {
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [address, setAddress] = useState<AddressForm>({ ...order.shippingAddress });
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: Parameters<typeof changeOrderAddress>[1]) => changeOrderAddress(order.id, body),
    onSuccess: ({ changed, ...updated }) => {
      queryClient.setQueryData(orderQueries.order(order.id).queryKey, updated);
      void queryClient.invalidateQueries({ queryKey: orderQueries.timeline(order.id).queryKey });
      toast({ title: changed ? MSG.changed : MSG.unchanged });
      onClose();
    },
    onError: (error) => setProblem(serverMessageOf(error) ?? 'The address could not be changed. Please try again.'),
  });

  const submit = () => {
    setProblem(null);
    const checked = changeOrderAddressSchema.safeParse({ ...address, reason: reason.trim() || undefined });
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'Please check the address.');
    const { storeCode: _store, ...body } = checked.data;
    save.mutate(body);
  };

  return (
    <Dialog open onOpenChange={(next) => !next && !save.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change the shipping address</DialogTitle>
          <DialogDescription>
            This order has not shipped. {order.customerName} is emailed the order confirmation again with the corrected address, and NetSuite&apos;s sales order is updated.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          aria-label="Shipping address"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          className="grid min-w-0 grid-cols-2 gap-3"
        >
          {FIELDS.map((f) => (
            <div key={f.name} className={f.wide ? 'col-span-2 space-y-1.5' : 'space-y-1.5'}>
              <Label htmlFor={`order-address-${f.name}`}>{f.label}</Label>
              <Input
                id={`order-address-${f.name}`}
                autoComplete={f.autoComplete}
                maxLength={f.name === 'state' ? 2 : undefined}
                value={address[f.name]}
                disabled={save.isPending}
                onChange={(e) => setAddress((a) => ({ ...a, [f.name]: e.target.value }))}
              />
            </div>
          ))}
          <div className="col-span-2 space-y-1.5">
            <Label htmlFor={reasonId}>Reason (optional, kept in the audit trail)</Label>
            <Textarea id={reasonId} rows={2} maxLength={ORDER_ADDRESS_REASON_MAX_LENGTH} value={reason} disabled={save.isPending} onChange={(e) => setReason(e.target.value)} />
          </div>
          {problem && (
            <p role="alert" className="col-span-2 text-sm text-red-700">
              {problem}
            </p>
          )}
          <DialogFooter className="col-span-2">
            <Button type="button" variant="outline" disabled={save.isPending} onClick={onClose}>
              Keep the address
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Change address
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
