/**
 * Cancelling an order asks first. The dialog says what happens to the stock (cancelling puts the items
 * back, unless a refund already did) and, for a role that may refund, offers to give the payment back
 * in the same step: the refund (or void) is made first, then the order is cancelled; a refused refund
 * cancels nothing.
 */
import { formatCents } from '@nh/shared';
import type { AdminOrder } from '@nh/shared/contracts/admin';
import { REFUND_MESSAGES, REFUND_REASON_MAX_LENGTH } from '@nh/shared/contracts/refunds';
import { Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { serverMessageOf } from '@/lib/query-client';
import { RoleMessage, useCan } from '../../shell/role-gate';
import { refundFailureMessage } from '../refund-attempt';
import { refundFigures, restockedByRefund } from '../refund-rules';
import { useRefund } from '../use-refund';

export const CANCEL_REFUND_REASON = 'Order cancelled';

export interface CancelOrderDialogProps {
  order: AdminOrder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Cancels the order (`restock`: its items go back in stock); rejects with the server's answer. */
  onCancel: (restock: boolean) => Promise<unknown>;
}

export function CancelOrderDialog({ order, open, onOpenChange, onCancel }: CancelOrderDialogProps) {
  const ids = { refund: useId(), reason: useId(), restock: useId() };
  const canRefund = useCan('orders.refund');
  const refund = useRefund(order.id);
  const { refundable } = refundFigures(order);
  const offerRefund = canRefund && refundable > 0;
  const [withRefund, setWithRefund] = useState(true);
  const [reason, setReason] = useState(CANCEL_REFUND_REASON);
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const restocked = restockedByRefund(order.payments);
  const [restock, setRestock] = useState(true);
  const refunding = offerRefund && withRefund;

  async function confirm() {
    setProblem(null);
    if (refunding && !reason.trim()) {
      setProblem(REFUND_MESSAGES.reasonRequired);
      return;
    }
    setWorking(true);
    try {
      if (refunding) {
        try {
          // The cancel puts the items back in stock; the refund must not do it a second time.
          await refund.mutateAsync({ amount: order.refundable, reason: reason.trim(), restock: false });
        } catch (error) {
          setProblem(`${refundFailureMessage(error)} The order was not cancelled.`);
          return;
        }
      }
      try {
        await onCancel(restock);
        onOpenChange(false);
      } catch (error) {
        setProblem(serverMessageOf(error) ?? 'Failed to update order');
      }
    } finally {
      setWorking(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !working && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel this order?</DialogTitle>
          <DialogDescription>The order&apos;s status becomes Cancelled. You can reopen it later by choosing another status.</DialogDescription>
        </DialogHeader>
        <ul className="grid list-disc gap-1 pl-5 text-sm text-stone-700">
          {restocked && <li>Its items are already back in stock: a refund put them back.</li>}
          {refundable === 0 && <li>No payment is left to refund.</li>}
        </ul>
        {!restocked && (
          <div className="flex items-center gap-2">
            <Checkbox id={ids.restock} checked={restock} onCheckedChange={(checked) => setRestock(checked === true)} />
            <Label htmlFor={ids.restock} className="font-normal">
              Put the items back in stock (untick for goods lost or damaged)
            </Label>
          </div>
        )}
        {offerRefund && (
          <div className="grid gap-3 rounded-lg border border-stone-200 p-3">
            <div className="flex items-center gap-2">
              <Checkbox id={ids.refund} checked={withRefund} onCheckedChange={(checked) => setWithRefund(checked === true)} />
              <Label htmlFor={ids.refund} className="font-normal">
                Refund the payment ({formatCents(refundable)})
              </Label>
            </div>
            {withRefund && (
              <>
                <div className="space-y-1.5">
                  <Label htmlFor={ids.reason}>Refund reason</Label>
                  <Textarea id={ids.reason} className="min-h-16" maxLength={REFUND_REASON_MAX_LENGTH} value={reason} onChange={(e) => setReason(e.target.value)} />
                </div>
                <p className="text-xs text-stone-500">If the payment has not settled yet, the whole charge is voided instead: the customer is never charged.</p>
              </>
            )}
          </div>
        )}
        {!canRefund && refundable > 0 && (
          <div className="grid gap-2 text-sm">
            <p>{formatCents(refundable)} was paid and stays with the shop.</p>
            <RoleMessage permission="orders.refund" />
          </div>
        )}
        {problem && (
          <p className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" role="alert">
            {problem}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={working}>
            Keep order
          </Button>
          <Button variant="destructive" onClick={() => void confirm()} disabled={working}>
            {working && <Loader2 className="animate-spin" aria-hidden="true" />}
            {refunding ? `Refund ${formatCents(refundable)} and cancel` : 'Cancel order'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
