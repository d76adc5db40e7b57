/**
 * The claims queue (issue 23): claims newest first, by status (awaiting review by default), each with its
 * customer, order, items, reason, note and photo (a thumbnail linking to the full picture); a claim awaiting review opens to approve (choosing the
 * resolution) or decline (saying why).
 */
import { CLAIM_RESOLUTION_LABELS, CLAIM_RESOLUTIONS, CLAIM_STATUS_LABELS, CLAIM_STATUSES, type AdminClaim, type ClaimResolution, type ClaimStatus } from '@nh/shared/contracts/claims';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { useCan } from '../../shell/role-gate';
import { approveClaim, claimPhotoUrl, claimsQuery, CLAIMS_KEY, declineClaim } from '../api';
import { ClaimRuleForm } from '../components/claim-rule-form';

const SELECT_CLASS = 'h-10 rounded-md border border-stone-300 bg-white px-3 text-sm';

/** Approve with a resolution, or decline with a reason: the claim's decision. */
function ClaimDecision({ claim }: { claim: AdminClaim }) {
  const ids = { resolution: useId(), note: useId() };
  const queryClient = useQueryClient();
  const canRefund = useCan('orders.refund');
  const [resolution, setResolution] = useState<ClaimResolution>('replace');
  const [note, setNote] = useState('');
  const done = () => void queryClient.invalidateQueries({ queryKey: CLAIMS_KEY });
  const approve = useMutation({ mutationFn: () => approveClaim(claim.id, resolution, note.trim()), onSuccess: done });
  const decline = useMutation({ mutationFn: () => declineClaim(claim.id, note.trim()), onSuccess: done });
  const failed = approve.error ?? decline.error;
  const busy = approve.isPending || decline.isPending;
  return (
    <div className="mt-3 grid gap-3 rounded-lg border border-stone-200 bg-stone-50 p-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1">
          <Label htmlFor={ids.resolution}>Resolution</Label>
          <select id={ids.resolution} className={SELECT_CLASS} value={resolution} onChange={(e) => setResolution(e.target.value as ClaimResolution)}>
            {CLAIM_RESOLUTIONS.filter((r) => r !== 'refund' || canRefund).map((r) => (
              <option key={r} value={r}>
                {CLAIM_RESOLUTION_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <Button type="button" disabled={busy} onClick={() => approve.mutate()}>
          Approve
        </Button>
        <Button type="button" variant="outline" disabled={busy} onClick={() => (note.trim() ? decline.mutate() : undefined)}>
          Decline
        </Button>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={ids.note}>Note (staff only; needed to decline)</Label>
        <Textarea id={ids.note} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      {failed && (
        <p role="alert" className="text-sm text-red-700">
          {serverMessageOf(failed) ?? 'The decision could not be saved. Please try again.'}
        </p>
      )}
    </div>
  );
}

/** The photo sent with the claim, small, opening full size in a new tab (read through the staff-only route). */
function ClaimPhoto({ claimId }: { claimId: string }) {
  const url = claimPhotoUrl(claimId);
  return (
    <a href={url} target="_blank" rel="noopener" className="mt-2 inline-flex items-center gap-2 text-sm underline">
      <img src={url} alt="Photo sent with the claim" loading="lazy" className="h-16 w-16 rounded-md border border-stone-200 object-cover" />
      Open the photo
    </a>
  );
}

function ClaimRow({ claim }: { claim: AdminClaim }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="rounded-lg border border-stone-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-medium">
            {claim.customerName} <span className="text-stone-500">({claim.customerEmail})</span>
          </p>
          <p className="text-sm">
            Order{' '}
            <Link className="font-mono underline" to={`/admin-orders/${claim.orderId}`}>
              {claim.orderId.slice(0, 8)}
            </Link>{' '}
            · {claim.reasonLabel} · {claim.lines.map((l) => `${l.quantity} × ${l.productName}`).join(', ')} · ${claim.amount}
          </p>
          {claim.note && <p className="mt-1 text-sm text-stone-600">“{claim.note}”</p>}
          {claim.hasPhoto && <ClaimPhoto claimId={claim.id} />}
          <p className="mt-1 text-xs text-stone-500">
            {claim.source === 'shopper' ? 'Reported by the customer' : `Made by ${claim.staffEmail ?? 'staff'}`} on {new Date(claim.createdAt).toLocaleString()}
            {claim.resolutionLabel && claim.status === 'resolved' && ` · ${claim.resolutionLabel}`}
            {claim.replacementOrderId && (
              <>
                {' '}
                ·{' '}
                <Link className="underline" to={`/admin-orders/${claim.replacementOrderId}`}>
                  replacement order
                </Link>
              </>
            )}
            {claim.decisionNote && ` · ${claim.decisionNote}`}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Badge variant={claim.status === 'awaiting_review' ? 'default' : 'secondary'}>{claim.statusLabel}</Badge>
          {claim.status === 'awaiting_review' && (
            <Button type="button" size="sm" variant="outline" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
              {open ? 'Close' : 'Review'}
            </Button>
          )}
        </div>
      </div>
      {open && claim.status === 'awaiting_review' && <ClaimDecision claim={claim} />}
    </li>
  );
}

export default function ClaimsQueuePage() {
  usePageMeta({ title: 'Claims' });
  const id = useId();
  const [status, setStatus] = useState<ClaimStatus | 'all'>('awaiting_review');
  const claims = useQuery(claimsQuery(status));
  const canSetRule = useCan('claims.settings');
  return (
    <AdminPage title="Claims">
      {canSetRule && <ClaimRuleForm />}
      <div className="mb-4 grid max-w-xs gap-1">
        <Label htmlFor={id}>Show</Label>
        <select id={id} className={SELECT_CLASS} value={status} onChange={(e) => setStatus(e.target.value as ClaimStatus | 'all')}>
          {CLAIM_STATUSES.map((s) => (
            <option key={s} value={s}>
              {CLAIM_STATUS_LABELS[s]}
            </option>
          ))}
          <option value="all">All claims</option>
        </select>
      </div>
      {claims.isPending ? (
        <p className="text-sm text-stone-500">Loading the claims…</p>
      ) : claims.isError ? (
        <p className="text-sm text-red-700">{serverMessageOf(claims.error) ?? 'The claims could not be loaded.'}</p>
      ) : claims.data.length === 0 ? (
        <p className="text-sm text-stone-500">No claims here.</p>
      ) : (
        <ul className="grid gap-3">
          {claims.data.map((c) => (
            <ClaimRow key={c.id} claim={c} />
          ))}
        </ul>
      )}
    </AdminPage>
  );
}
