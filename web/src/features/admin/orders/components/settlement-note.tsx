/**
 * The refund review step's sentence of where the charge stands (issue 23): not settled yet (the whole
 * charge is voided, no partial refund until it settles) or settled (refunded to the card ending NNNN),
 * as the server words it (POST /api/admin/orders/{id}/settlement, asked when the review step opens).
 * While it is asked, or when it could not be, the general rule is shown (`fallback`): the server
 * decides anyway when the refund is sent.
 */
import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { orderQueries } from '../api';

export function SettlementNote({ orderId, fallback }: { orderId: string; fallback: string }) {
  const settlement = useQuery(orderQueries.settlement(orderId));
  const known = settlement.data && settlement.data.state !== 'unknown';
  const warn = settlement.data?.state === 'unsettled' || settlement.data?.state === 'closed' || settlement.data?.state === 'none';
  return (
    <p
      className={warn ? 'rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900' : 'rounded-lg bg-stone-100 p-3 text-sm text-stone-700'}
      data-testid="settlement-note"
      data-state={settlement.data?.state ?? (settlement.isPending ? 'checking' : 'unknown')}
      aria-live="polite"
    >
      {settlement.isPending && (
        <span className="mb-1 flex items-center gap-1.5 text-stone-500">
          <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
          Checking whether this payment has settled…
        </span>
      )}
      {known ? settlement.data.message : fallback}
    </p>
  );
}
