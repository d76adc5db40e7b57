/**
 * "Report a problem" on the admin order page (issue 23): which items and how many, the reason, how to
 * resolve it (a free replacement, a refund to the card, store credit) and a note, then the server's
 * answer. One Idempotency-Key per opened dialog, kept until the claim succeeds, so a second click or a
 * resend after a lost answer makes one claim. The server checks the quantities against what is left.
 * A photo is optional: uploaded when chosen (POST …/claims/photos), then named by the claim.
 */
import type { AdminOrder } from '@nh/shared/contracts/admin';
import { CLAIM_NOTE_MAX_LENGTH, CLAIM_REASON_LABELS, CLAIM_REASONS, CLAIM_RESOLUTION_LABELS, CLAIM_RESOLUTIONS, type ClaimReason, type ClaimResolution } from '@nh/shared/contracts/claims';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, PackageX } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { ClaimPhotoInput } from '@/components/claim-photo-input';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { useCan } from '../../shell/role-gate';
import { ADMIN_KEY } from '../../shell/api';
import { makeClaim, type ClaimBody } from '../api';

const newKey = () => crypto.randomUUID();
const SELECT_CLASS = 'h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm';

function ClaimForm({ order, onClose }: { order: Pick<AdminOrder, 'id' | 'items' | 'userId'>; onClose: () => void }) {
  const ids = { reason: useId(), resolution: useId(), note: useId(), error: useId(), line: useId() };
  const queryClient = useQueryClient();
  const canRefund = useCan('orders.refund');
  const key = useRef(newKey());
  const [quantities, setQuantities] = useState<string[]>(() => order.items.map(() => '0'));
  const [reason, setReason] = useState<ClaimReason>('arrived_damaged');
  const [resolution, setResolution] = useState<ClaimResolution>('replace');
  const [note, setNote] = useState('');
  const [photo, setPhoto] = useState<string | undefined>();
  const [photoPending, setPhotoPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const resolutions = CLAIM_RESOLUTIONS.filter((r) => (r === 'refund' ? canRefund : r === 'credit' ? order.userId !== null : true));
  const claim = useMutation({
    mutationFn: (body: ClaimBody) => makeClaim(order.id, body, key.current),
    onSuccess: (made) => {
      key.current = newKey();
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
      toast({
        title: 'Claim resolved',
        description: made.replacementOrderId ? `A free replacement order ${made.replacementOrderId.slice(0, 8)} is on its way to the warehouse.` : `${made.resolutionLabel}: $${made.amount}.`,
      });
      onClose();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const lines = quantities.map((q, line) => ({ line, quantity: Number(q) })).filter((l) => l.quantity !== 0);
    if (lines.some((l) => !Number.isInteger(l.quantity) || l.quantity < 0)) return setProblem('Each quantity must be a whole number.');
    if (!lines.length) return setProblem('Choose at least one item of the order to claim.');
    setProblem(null);
    if (!claim.isPending && !photoPending) claim.mutate({ lines, reason, resolution, note: note.trim(), ...(photo ? { photo } : {}) });
  }

  const shown = problem ?? (claim.isError ? (serverMessageOf(claim.error) ?? 'The claim could not be made. Please try again.') : null);
  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>Report a problem</DialogTitle>
        <DialogDescription>Choose the items that arrived damaged, leaking, wrong or missing, and how to put it right.</DialogDescription>
      </DialogHeader>
      <div className="my-4 grid gap-4">
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Items</legend>
          {order.items.map((item, i) => (
            <div key={i} className="flex items-center justify-between gap-3">
              <Label htmlFor={`${ids.line}-${i}`} className="font-normal">
                {item.productName ?? `Line ${i + 1}`} <span className="text-stone-500">(ordered {item.quantity})</span>
              </Label>
              <Input
                id={`${ids.line}-${i}`}
                className="w-20"
                type="number"
                min={0}
                max={item.quantity}
                inputMode="numeric"
                value={quantities[i]}
                onChange={(e) => setQuantities((qs) => qs.map((q, j) => (j === i ? e.target.value : q)))}
              />
            </div>
          ))}
        </fieldset>
        <div className="grid gap-1">
          <Label htmlFor={ids.reason}>Reason</Label>
          <select id={ids.reason} className={SELECT_CLASS} value={reason} onChange={(e) => setReason(e.target.value as ClaimReason)}>
            {CLAIM_REASONS.map((r) => (
              <option key={r} value={r}>
                {CLAIM_REASON_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={ids.resolution}>Resolution</Label>
          <select id={ids.resolution} className={SELECT_CLASS} value={resolution} onChange={(e) => setResolution(e.target.value as ClaimResolution)}>
            {resolutions.map((r) => (
              <option key={r} value={r}>
                {CLAIM_RESOLUTION_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={ids.note}>Note (staff only)</Label>
          <Textarea id={ids.note} value={note} maxLength={CLAIM_NOTE_MAX_LENGTH} onChange={(e) => setNote(e.target.value)} placeholder="Called: the cap split in transit" />
        </div>
        <ClaimPhotoInput uploadUrl={`/api/admin/orders/${encodeURIComponent(order.id)}/claims/photos`} label="Photo (optional, e.g. one the customer emailed)" onChange={setPhoto} onPending={setPhotoPending} />
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
        <Button type="submit" disabled={claim.isPending || photoPending}>
          {claim.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Make claim
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The button and its dialog, for staff who resolve claims, on an order that was paid and not cancelled. */
export function ClaimButton({ order }: { order: Pick<AdminOrder, 'id' | 'items' | 'userId' | 'status'> }) {
  const [open, setOpen] = useState(false);
  const canClaim = useCan('claims.resolve');
  if (!canClaim || order.status === 'pending' || order.status === 'cancelled' || order.items.length === 0) return null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
        <PackageX aria-hidden="true" />
        Report a problem
      </Button>
      <DialogContent>{open && <ClaimForm order={order} onClose={() => setOpen(false)} />}</DialogContent>
    </Dialog>
  );
}
