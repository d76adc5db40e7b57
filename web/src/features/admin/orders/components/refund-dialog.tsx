/**
 * "Refund" on an order: amount (the refundable amount by default, never more), reason, whether the
 * items go back in stock; then a confirmation step; then the server decides a void (not settled yet,
 * whole amount only) or a refund, and its words are shown as they come.
 */
import { formatCents, formatPrice, parseCents } from '@nh/shared';
import type { AdminOrder } from '@nh/shared/contracts/admin';
import { REFUND_REASON_MAX_LENGTH } from '@nh/shared/contracts/refunds';
import { Loader2, Undo2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { refundFailureMessage, type RefundBody } from '../refund-attempt';
import { refundFigures, refundProblems, restockBlocked, type RefundProblems } from '../refund-rules';
import { useRefund } from '../use-refund';
import { cardEnding } from '@nh/shared/cards';
import { SettlementNote } from './settlement-note';

type Step = 'form' | 'confirm';

function RefundForm({ order, refund, onClose }: { order: AdminOrder; refund: ReturnType<typeof useRefund>; onClose: () => void }) {
  const ids = { amount: useId(), reason: useId(), restock: useId(), notify: useId(), amountError: useId(), reasonError: useId(), restockNote: useId() };
  const figures = refundFigures(order);
  const blocked = restockBlocked(order);
  const [step, setStep] = useState<Step>('form');
  const [values, setValues] = useState<RefundBody>({ amount: order.refundable, reason: '', restock: false, notify: true });
  const [problems, setProblems] = useState<RefundProblems>({});

  const body = (): RefundBody => ({ amount: values.amount.trim(), reason: values.reason.trim(), restock: blocked ? false : values.restock, notify: values.notify !== false });

  function review(event: FormEvent) {
    event.preventDefault();
    const found = refundProblems(body(), figures);
    setProblems(found);
    if (Object.keys(found).length === 0) {
      refund.reset();
      setStep('confirm');
    }
  }

  function send() {
    if (!refund.isPending) refund.mutate(body(), { onSuccess: onClose });
  }

  const amount = formatPrice(body().amount);
  const whole = parseCents(body().amount) === figures.refundable && figures.givenBack === 0;
  const card = (figures.charge?.cardType && cardEnding(figures.charge.cardType, figures.charge.lastFour)) || 'the card';

  if (step === 'confirm') {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Confirm the refund</DialogTitle>
          <DialogDescription>Check the refund before it is sent to the payment service. It cannot be undone.</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[9rem_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm">
          <dt className="text-stone-500">Amount</dt>
          <dd className="font-semibold tabular-nums">
            {amount} <span className="font-normal text-stone-500">of {formatCents(figures.captured)} paid</span>
          </dd>
          <dt className="text-stone-500">Back to</dt>
          <dd>{card}</dd>
          <dt className="text-stone-500">Reason</dt>
          <dd className="whitespace-pre-wrap break-words">{body().reason}</dd>
          <dt className="text-stone-500">Back in stock</dt>
          <dd>{body().restock ? 'Yes, the items go back in stock' : 'No'}</dd>
          <dt className="text-stone-500">Customer</dt>
          <dd>{body().notify ? 'Gets a refund email' : 'Not told'}</dd>
        </dl>
        <SettlementNote
          orderId={order.id}
          fallback={
            whole
              ? 'If the payment has not settled yet (usually within a day of the order), the whole charge is voided instead: the customer is never charged.'
              : 'A payment that has not settled yet (usually within a day of the order) can only be voided in full: the payment service then refuses part of it.'
          }
        />
        {refund.isError && (
          <p className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" role="alert">
            {refundFailureMessage(refund.error)}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => setStep('form')} disabled={refund.isPending}>
            Back
          </Button>
          <Button onClick={send} disabled={refund.isPending}>
            {refund.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Undo2 aria-hidden="true" />}
            {refund.isPending ? 'Refunding...' : `Refund ${amount}`}
          </Button>
        </DialogFooter>
      </>
    );
  }

  return (
    <form onSubmit={review} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Refund this order</DialogTitle>
        <DialogDescription>
          Up to {formatCents(figures.refundable)} can be refunded to {card}
          {figures.givenBack > 0 ? ` (${formatCents(figures.givenBack)} of ${formatCents(figures.captured)} has already been refunded)` : ''}.
        </DialogDescription>
      </DialogHeader>
      <div className="space-y-1.5">
        <Label htmlFor={ids.amount}>Amount</Label>
        <div className="relative">
          <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-stone-500" aria-hidden="true">
            $
          </span>
          <Input
            id={ids.amount}
            inputMode="decimal"
            className="pl-7 tabular-nums"
            value={values.amount}
            aria-invalid={problems.amount ? true : undefined}
            aria-describedby={problems.amount ? ids.amountError : undefined}
            onChange={(e) => setValues((v) => ({ ...v, amount: e.target.value }))}
          />
        </div>
        {problems.amount && (
          <p id={ids.amountError} className="text-sm text-red-600" role="alert">
            {problems.amount}
          </p>
        )}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={ids.reason}>Reason</Label>
        <Textarea
          id={ids.reason}
          maxLength={REFUND_REASON_MAX_LENGTH}
          placeholder="Why the customer gets money back (kept in the audit trail)"
          value={values.reason}
          aria-invalid={problems.reason ? true : undefined}
          aria-describedby={problems.reason ? ids.reasonError : undefined}
          onChange={(e) => setValues((v) => ({ ...v, reason: e.target.value }))}
        />
        {problems.reason && (
          <p id={ids.reasonError} className="text-sm text-red-600" role="alert">
            {problems.reason}
          </p>
        )}
      </div>
      <div className="grid gap-1">
        <div className="flex items-center gap-2">
          <Checkbox
            id={ids.restock}
            checked={!blocked && values.restock}
            disabled={blocked !== null}
            aria-describedby={blocked ? ids.restockNote : undefined}
            onCheckedChange={(checked) => setValues((v) => ({ ...v, restock: checked === true }))}
          />
          <Label htmlFor={ids.restock} className="font-normal">
            Put the items back in stock
          </Label>
        </div>
        {blocked && (
          <p id={ids.restockNote} className="text-xs text-stone-500">
            {blocked}
          </p>
        )}
      </div>
      <div className="flex items-center gap-2">
        <Checkbox id={ids.notify} checked={values.notify !== false} onCheckedChange={(checked) => setValues((v) => ({ ...v, notify: checked === true }))} />
        <Label htmlFor={ids.notify} className="font-normal">
          Notify the customer (a refund email)
        </Label>
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">Review refund</Button>
      </DialogFooter>
    </form>
  );
}

/** The Refund button (for a role with orders.refund, while something is left to refund) and its dialog. */
export function RefundButton({ order }: { order: AdminOrder }) {
  const [open, setOpen] = useState(false);
  // Kept here, not in the dialog: a refund sent again after the dialog was closed keeps its attempt's key.
  const refund = useRefund(order.id);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Undo2 aria-hidden="true" />
        Refund
      </Button>
      <DialogContent>{open && <RefundForm order={order} refund={refund} onClose={() => setOpen(false)} />}</DialogContent>
    </Dialog>
  );
}
