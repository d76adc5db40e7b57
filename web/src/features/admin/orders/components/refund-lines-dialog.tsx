/**
 * "Refund items" on an order (issue 23): how many of each line, whether each line's items go back in
 * stock, the shipping or not, the reason, and "Notify the customer" (on by default). The amount shown is
 * what was paid for those items (@nh/shared refund-amounts, the server's own rule); the server works it out
 * again and decides. One Idempotency-Key per opening of the dialog, so a second click answers the first.
 */
import { formatCents, parseCents } from '@nh/shared';
import type { AdminOrder } from '@nh/shared/contracts/admin';
import { REFUND_REASON_MAX_LENGTH, type RefundResponse } from '@nh/shared/contracts/refunds';
import { paidPerLine, partOfLine } from '@nh/shared/refund-amounts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ListChecks } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { orderQueries, refundOrder } from '../api';
import { refundFailureMessage } from '../refund-attempt';
import { refundToast } from '../use-refund';
import { SettlementNote } from './settlement-note';

interface LineChoice {
  quantity: string;
  restock: boolean;
}

/** What the chosen items and shipping come to, by the server's rule (nothing refunded before is counted here: the server checks that). */
export function linesAmount(order: Pick<AdminOrder, 'items' | 'discount' | 'tax' | 'shipping' | 'shippingTax'>, choices: LineChoice[], shipping: boolean): number {
  const lines = order.items.map((i) => ({ price: parseCents(i.price) ?? 0, quantity: i.quantity, tax: i.tax ? parseCents(i.tax) : null }));
  const shippingTax = order.shippingTax ? (parseCents(order.shippingTax) ?? 0) : 0;
  const paid = paidPerLine({ lines, discount: parseCents(order.discount) ?? 0, tax: parseCents(order.tax) ?? 0, shippingTax });
  const items = choices.reduce((sum, c, i) => {
    const q = Number(c.quantity);
    return Number.isInteger(q) && q > 0 && q <= lines[i]!.quantity ? sum + partOfLine(paid[i]!, lines[i]!.quantity, 0, q) : sum;
  }, 0);
  return items + (shipping ? (parseCents(order.shipping) ?? 0) + shippingTax : 0);
}

function LinesForm({ order, onClose }: { order: AdminOrder; onClose: () => void }) {
  const ids = { reason: useId(), shipping: useId(), notify: useId() };
  const key = useRef(crypto.randomUUID());
  const queryClient = useQueryClient();
  const [choices, setChoices] = useState<LineChoice[]>(order.items.map(() => ({ quantity: '0', restock: false })));
  const [shipping, setShipping] = useState(false);
  const [notify, setNotify] = useState(true);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const refund = useMutation({
    mutationFn: (body: Parameters<typeof refundOrder>[1]) => refundOrder(order.id, body, key.current),
    onSuccess: (answer: RefundResponse) => {
      toast(refundToast(answer));
      onClose();
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: orderQueries.order(order.id).queryKey });
      void queryClient.invalidateQueries({ queryKey: orderQueries.lists });
    },
  });
  const amount = linesAmount(order, choices, shipping);

  function submit(event: FormEvent) {
    event.preventDefault();
    const lines = choices.flatMap((c, line) => (Number(c.quantity) > 0 ? [{ line, quantity: Number(c.quantity), restock: c.restock }] : []));
    if (!lines.length && !shipping) return setProblem('Choose at least one item to refund, or the shipping.');
    if (!reason.trim()) return setProblem('Please give a reason for the refund');
    setProblem(null);
    if (!refund.isPending) refund.mutate({ lines, includeShipping: shipping, reason: reason.trim(), notify });
  }

  const set = (i: number, change: Partial<LineChoice>) => setChoices((all) => all.map((c, j) => (j === i ? { ...c, ...change } : c)));

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Refund items</DialogTitle>
        <DialogDescription>Choose how many of each item to refund. The amount is what was paid for them, discount and tax included.</DialogDescription>
      </DialogHeader>
      <table className="text-sm" aria-label="Items to refund">
        <thead>
          <tr className="text-left text-stone-500">
            <th className="font-medium">Item</th>
            <th className="font-medium">Refund</th>
            <th className="font-medium">Back in stock</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item, i) => (
            <tr key={`${item.productId ?? 'x'}-${i}`}>
              <td className="py-1 pr-2">{item.productName ?? 'Item'}</td>
              <td className="py-1 pr-2">
                <Input
                  type="number"
                  min={0}
                  max={item.quantity}
                  className="w-20"
                  aria-label={`Quantity of ${item.productName ?? 'item'} to refund (of ${item.quantity})`}
                  value={choices[i]!.quantity}
                  onChange={(e) => set(i, { quantity: e.target.value })}
                />
              </td>
              <td className="py-1">
                <Checkbox aria-label={`Put ${item.productName ?? 'item'} back in stock`} checked={choices[i]!.restock} onCheckedChange={(c) => set(i, { restock: c === true })} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex items-center gap-2">
        <Checkbox id={ids.shipping} checked={shipping} onCheckedChange={(c) => setShipping(c === true)} />
        <Label htmlFor={ids.shipping} className="font-normal">
          Refund the shipping too ({formatCents(parseCents(order.shipping) ?? 0)})
        </Label>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={ids.reason}>Reason</Label>
        <Textarea id={ids.reason} maxLength={REFUND_REASON_MAX_LENGTH} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      <div className="flex items-center gap-2">
        <Checkbox id={ids.notify} checked={notify} onCheckedChange={(c) => setNotify(c === true)} />
        <Label htmlFor={ids.notify} className="font-normal">
          Notify the customer (a refund email)
        </Label>
      </div>
      <SettlementNote orderId={order.id} fallback="A payment that has not settled yet (usually within a day of the order) can only be voided in full: the payment service then refuses part of it." />
      <p className="text-sm" data-testid="lines-amount">
        To refund: <span className="font-semibold tabular-nums">{formatCents(amount)}</span>
      </p>
      {(problem ?? (refund.isError ? refundFailureMessage(refund.error) : null)) && (
        <p className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" role="alert">
          {problem ?? refundFailureMessage(refund.error)}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={refund.isPending}>
          Refund {formatCents(amount)}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The "Refund items" button and its dialog (for a role with orders.refund, hosted beside "Refund"). */
export function RefundLinesButton({ order }: { order: AdminOrder }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <ListChecks aria-hidden="true" />
        Refund items
      </Button>
      <DialogContent>{open && <LinesForm order={order} onClose={() => setOpen(false)} />}</DialogContent>
    </Dialog>
  );
}
