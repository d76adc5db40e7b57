import { formatOrderDate } from '@nh/shared/contracts/admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { adminKeys, retryAllFailedSyncs, retryOrderSync, syncKeys, syncSummary } from '../api';
import { SYNC_STATUS_LABELS } from '../sync-status';

/** NetSuite order sync at a glance (admin-sync API), with a retry of every failed order. */
export function SyncPanel() {
  const queryClient = useQueryClient();
  const summary = useQuery({ queryKey: syncKeys.summary, queryFn: syncSummary, staleTime: 0, refetchInterval: 30_000 });
  const retryAll = useMutation({
    mutationFn: retryAllFailedSyncs,
    onSuccess: ({ retried }) => {
      toast({ title: 'Sync retry queued', description: `${retried} order${retried === 1 ? '' : 's'} will be sent to NetSuite again.` });
      void queryClient.invalidateQueries({ queryKey: syncKeys.summary });
      void queryClient.invalidateQueries({ queryKey: adminKeys.orders });
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
    </Card>
  );
}

/** Sends one order to NetSuite again (refused by the API when it is already synced). */
export function RetrySyncButton({ orderId }: { orderId: string }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => retryOrderSync(orderId),
    onSuccess: () => {
      toast({ title: 'Sync retry queued' });
      void queryClient.invalidateQueries({ queryKey: adminKeys.order(orderId) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.orders });
      void queryClient.invalidateQueries({ queryKey: syncKeys.summary });
    },
    onError: (error) => toast({ title: 'Retry failed', description: serverMessageOf(error), variant: 'destructive' }),
  });
  return (
    <Button size="sm" variant="outline" className="mt-3" onClick={() => retry.mutate()} disabled={retry.isPending}>
      {retry.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RefreshCw aria-hidden="true" />}
      Retry sync
    </Button>
  );
}
