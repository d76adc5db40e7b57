/**
 * "Give credit" for a customer's account (issue 23): the balance, an amount and a reason (staff only),
 * then the server's answer. One Idempotency-Key per opened dialog, kept until the grant succeeds, so a
 * second click or a resend after a lost answer gives once. Hosted on the admin order page today (for the
 * order's account); the customer page can host it as it is.
 */
import { formatCents, parseCents } from '@nh/shared';
import { CREDIT_REASON_MAX_LENGTH, grantCreditRequestSchema } from '@nh/shared/contracts/store-credit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Gift, Loader2 } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { creditQuery, grantCredit } from '../api';

const newKey = () => crypto.randomUUID();

function GrantCreditForm({ customerId, onClose, onGranted }: { customerId: string; onClose: () => void; onGranted?: () => void }) {
  const ids = { amount: useId(), reason: useId(), error: useId() };
  const queryClient = useQueryClient();
  const balance = useQuery(creditQuery(customerId));
  const key = useRef(newKey());
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const grant = useMutation({
    mutationFn: (body: { amount: string; reason: string }) => grantCredit(customerId, body, key.current),
    onSuccess: (answer) => {
      key.current = newKey();
      void queryClient.invalidateQueries({ queryKey: creditQuery(customerId).queryKey });
      onGranted?.();
      toast({ title: 'Credit given', description: `${formatCents(parseCents(answer.entry.amount) ?? 0)} added. The balance is now ${formatCents(parseCents(answer.balance) ?? 0)}.` });
      onClose();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = grantCreditRequestSchema.safeParse({ amount, reason });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Please check the amount and the reason.');
      return;
    }
    setProblem(null);
    if (!grant.isPending) grant.mutate({ amount: amount.trim(), reason: reason.trim() });
  }

  const shown = problem ?? (grant.isError ? (serverMessageOf(grant.error) ?? 'The credit could not be given. Please try again.') : null);
  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>Give store credit</DialogTitle>
        <DialogDescription>
          {balance.data ? `Current balance: ${formatCents(parseCents(balance.data.balance) ?? 0)}.` : balance.isError ? (serverMessageOf(balance.error) ?? '') : 'Loading the balance...'} The credit pays
          first at the customer's next checkout and renewals.
        </DialogDescription>
      </DialogHeader>
      <div className="my-4 grid gap-4">
        <div className="grid gap-1">
          <Label htmlFor={ids.amount}>Amount ($)</Label>
          <Input id={ids.amount} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="10.00" aria-describedby={shown ? ids.error : undefined} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={ids.reason}>Reason (staff only)</Label>
          <Textarea id={ids.reason} value={reason} maxLength={CREDIT_REASON_MAX_LENGTH} onChange={(e) => setReason(e.target.value)} placeholder="Refill arrived leaking" />
        </div>
        {shown && (
          <p id={ids.error} role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {shown}
          </p>
        )}
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={grant.isPending}>
          {grant.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Give credit
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The button and its dialog; `customerId` is the account's id (users.id); `onGranted` lets a host page reload what it shows. */
export function GrantCreditButton({ customerId, onGranted }: { customerId: string; onGranted?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Gift aria-hidden="true" />
        Give credit
      </Button>
      <DialogContent>{open && <GrantCreditForm customerId={customerId} onClose={() => setOpen(false)} onGranted={onGranted} />}</DialogContent>
    </Dialog>
  );
}
