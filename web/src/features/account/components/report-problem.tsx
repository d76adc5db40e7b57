/**
 * "Report a problem" on the shopper's order page (issue 23): which items and how many, the reason and a
 * note, sent to the shop's claims queue (POST /api/orders/{id}/claims, or .../orders/guest/{id}/claims for
 * a guest whose emailed link opened the order). One Idempotency-Key per form until it is accepted, so a
 * second click sends one report. A photo is optional: uploaded when chosen (…/claims/photos), then named. The answer says what happens next (a review, or a free replacement).
 */
import type { ShopperOrder } from '@nh/shared/contracts/account';
import { CLAIM_NOTE_MAX_LENGTH, CLAIM_REASON_LABELS, CLAIM_REASONS, type ClaimReason } from '@nh/shared/contracts/claims';
import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { ClaimPhotoInput } from '@/components/claim-photo-input';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { apiRequest, readJson, serverMessageOf } from '@/lib/query-client';

interface ReportAnswer {
  id: string;
  statusLabel: string;
  message: string;
}

const SELECT_CLASS = 'h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm';

export function ReportProblem({ order, guest }: { order: Pick<ShopperOrder, 'id' | 'status' | 'items'>; guest: boolean }) {
  const ids = { line: useId(), reason: useId(), note: useId() };
  const key = useRef(crypto.randomUUID());
  const [open, setOpen] = useState(false);
  const [quantities, setQuantities] = useState<string[]>(() => order.items.map(() => '0'));
  const [reason, setReason] = useState<ClaimReason>('arrived_damaged');
  const [note, setNote] = useState('');
  const [photo, setPhoto] = useState<string | undefined>();
  const [photoPending, setPhotoPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const base = `/api/orders/${guest ? 'guest/' : ''}${encodeURIComponent(order.id)}/claims`;
  const report = useMutation({
    mutationFn: async (body: { lines: Array<{ line: number; quantity: number }>; reason: ClaimReason; note: string; photo?: string }) =>
      readJson<ReportAnswer>(await apiRequest('POST', base, body, { 'Idempotency-Key': key.current })),
  });
  if (order.status === 'pending' || order.status === 'cancelled' || order.items.length === 0) return null;
  if (report.data) {
    return (
      <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
        {report.data.message}
      </p>
    );
  }
  if (!open) {
    return (
      <Button type="button" variant="outline" onClick={() => setOpen(true)}>
        Report a problem with this order
      </Button>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const lines = quantities.map((q, line) => ({ line, quantity: Number(q) })).filter((l) => l.quantity !== 0);
    if (lines.some((l) => !Number.isInteger(l.quantity) || l.quantity < 0)) return setProblem('Each quantity must be a whole number.');
    if (!lines.length) return setProblem('Choose at least one item that had a problem.');
    setProblem(null);
    if (!report.isPending && !photoPending) report.mutate({ lines, reason, note: note.trim(), ...(photo ? { photo } : {}) });
  }
  const shown = problem ?? (report.isError ? (serverMessageOf(report.error) ?? 'Your report could not be sent. Please try again.') : null);
  return (
    <form onSubmit={submit} noValidate className="grid gap-4 rounded-2xl border border-stone-200 p-4" aria-label="Report a problem">
      <fieldset className="grid gap-2">
        <legend className="mb-1 font-medium">Which items?</legend>
        {order.items.map((item, i) => (
          <div key={i} className="flex items-center justify-between gap-3">
            <Label htmlFor={`${ids.line}-${i}`} className="font-normal">
              {item.productName} <span className="text-stone-500">(you ordered {item.quantity})</span>
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
        <Label htmlFor={ids.reason}>What happened?</Label>
        <select id={ids.reason} className={SELECT_CLASS} value={reason} onChange={(e) => setReason(e.target.value as ClaimReason)}>
          {CLAIM_REASONS.map((r) => (
            <option key={r} value={r}>
              {CLAIM_REASON_LABELS[r]}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={ids.note}>Tell us more (optional)</Label>
        <Textarea id={ids.note} value={note} maxLength={CLAIM_NOTE_MAX_LENGTH} onChange={(e) => setNote(e.target.value)} />
      </div>
      <ClaimPhotoInput uploadUrl={`${base}/photos`} label="A photo of the problem (optional)" onChange={setPhoto} onPending={setPhotoPending} />
      {shown && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {shown}
        </p>
      )}
      <div className="flex gap-3">
        <Button type="submit" disabled={report.isPending || photoPending}>
          Send report
        </Button>
        <Button type="button" variant="outline" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
