import { formatOrderDate } from '@nh/shared/contracts/admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { SYNC_STATUS_LABELS } from '../../ui/status-labels';
import { retryCreditSync, retryFailedSyncs, syncQueries } from '../api';

const CREDIT_KIND_WORDS = { grant: 'Credit given', refund: 'Refund to credit', expire: 'Credit expired' } as const;

/**
 * NetSuite order sync at a glance (admin-sync API), with a retry of every failed order; `onRetried`
 * lets the screen read again what shows the orders' sync status.
 */
export function SyncPanel({ onRetried }: { onRetried: () => void }) {
  const queryClient = useQueryClient();
  const summary = useQuery(syncQueries.summary);
  const retryAll = useMutation({
    mutationFn: () => retryFailedSyncs(),
    onSuccess: ({ retried }) => {
      toast({ title: 'Sync retry queued', description: `${retried} order${retried === 1 ? '' : 's'} will be sent to NetSuite again.` });
      void queryClient.invalidateQueries({ queryKey: syncQueries.summary.queryKey });
      onRetried();
    },
    onError: (error) => toast({ title: 'Retry failed', description: serverMessageOf(error), variant: 'destructive' }),
  });
  const failedCredit = useQuery(syncQueries.failedCredit);
  const retryCredit = useMutation({
    mutationFn: (entryId: string) => retryCreditSync(entryId),
    onSuccess: () => {
      toast({ title: 'Sync retry queued', description: 'The store-credit movement will be sent to NetSuite again.' });
      void queryClient.invalidateQueries({ queryKey: syncQueries.failedCredit.queryKey });
    },
    onError: (error) => toast({ title: 'Retry failed', description: serverMessageOf(error), variant: 'destructive' }),
  });
  if (!summary.data) return null;
  const { counts, queue, oldestPendingAt } = summary.data;
  const stats = [
    [SYNC_STATUS_LABELS.synced, counts.synced],
    [SYNC_STATUS_LABELS.pending, counts.pending],
    [SYNC_STATUS_LABELS.failed, counts.failed],
    [SYNC_STATUS_LABELS.not_configured, counts.not_configured],
  ] as const;
  return (
    <Card className="mb-6" data-testid="sync-panel">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3 pb-3">
        <CardTitle className="text-base">NetSuite Sync</CardTitle>
        {counts.failed > 0 && (
          <Button size="sm" variant="outline" onClick={() => retryAll.mutate()} disabled={retryAll.isPending}>
            {retryAll.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RefreshCw aria-hidden="true" />}
            Retry failed ({counts.failed})
          </Button>
        )}
      </CardHeader>
      <CardContent className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
        {stats.map(([label, n]) => (
          <div key={label}>
            <span className="text-stone-500">{label}: </span>
            <span className={`font-semibold tabular-nums ${label === 'Failed' && n > 0 ? 'text-red-700' : ''}`}>{n}</span>
          </div>
        ))}
        {queue && (
          <div>
            <span className="text-stone-500">Queue: </span>
            <span className="tabular-nums">
              {queue.waiting} waiting, {queue.active} active, {queue.delayed} delayed
            </span>
          </div>
        )}
        {oldestPendingAt && (
          <div>
            <span className="text-stone-500">Oldest pending: </span>
            {formatOrderDate(oldestPendingAt)}
          </div>
        )}
      </CardContent>
      {failedCredit.data && failedCredit.data.length > 0 && (
        <CardContent className="grid gap-2 pt-0 text-sm">
          <p className="font-medium text-red-700">Store credit not in NetSuite ({failedCredit.data.length})</p>
          <ul className="grid gap-2" aria-label="Store-credit movements whose NetSuite sync failed">
            {failedCredit.data.map((f) => (
              <li key={f.entryId} className="flex flex-wrap items-center justify-between gap-2 border-t border-stone-100 pt-2">
                <span className="min-w-0 break-words">
                  {CREDIT_KIND_WORDS[f.kind]} ${f.amount} · {f.customerEmail} · {formatOrderDate(f.lastAttemptAt)}
                  {f.errorMessage && <span className="block text-xs text-stone-600">{f.errorMessage}</span>}
                </span>
                <Button size="sm" variant="outline" onClick={() => retryCredit.mutate(f.entryId)} disabled={retryCredit.isPending}>
                  <RefreshCw aria-hidden="true" />
                  Retry
                </Button>
              </li>
            ))}
          </ul>
        </CardContent>
      )}
    </Card>
  );
}
