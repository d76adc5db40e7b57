/** "Retry NetSuite sync" for the failed orders chosen in the table (POST /api/admin/sync/retry-failed {orderIds}). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { retryFailedSyncs, syncQueries } from '../../sync/api';
import { orderQueries } from '../api';

const orders = (n: number) => `${n} order${n === 1 ? '' : 's'}`;

export function BulkRetry({ orderIds, onDone }: { orderIds: string[]; onDone: () => void }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: (orderIds: string[]) => retryFailedSyncs(orderIds),
    onSuccess: ({ retried }, asked) => {
      const skipped = asked.length - retried;
      toast({
        title: 'Sync retry queued',
        description: `${orders(retried)} will be sent to NetSuite again.${skipped > 0 ? ` ${orders(skipped)} had already left the failed list.` : ''}`,
      });
      onDone();
      void queryClient.invalidateQueries({ queryKey: orderQueries.lists });
      void queryClient.invalidateQueries({ queryKey: syncQueries.summary.queryKey });
    },
    onError: (error) => toast({ title: 'Retry failed', description: serverMessageOf(error), variant: 'destructive' }),
  });
  const n = orderIds.length;
  return (
    <div className="flex flex-wrap items-center gap-3" data-testid="bulk-retry">
      <Button size="sm" variant="outline" disabled={n === 0 || retry.isPending} onClick={() => retry.mutate(orderIds)}>
        {retry.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RefreshCw aria-hidden="true" />}
        Retry NetSuite sync{n > 0 ? ` (${n})` : ''}
      </Button>
      <span className="text-sm text-stone-600" aria-live="polite">
        {n === 0 ? 'Tick failed orders to send them to NetSuite again.' : `${orders(n)} selected.`}
      </span>
    </div>
  );
}
