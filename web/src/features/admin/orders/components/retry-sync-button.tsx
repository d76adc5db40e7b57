import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { retryOrderSync, syncQueries } from '../../sync/api';
import { orderQueries } from '../api';

/** Sends one order to NetSuite again (refused by the API when it is already synced). */
export function RetrySyncButton({ orderId }: { orderId: string }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => retryOrderSync(orderId),
    onSuccess: () => {
      toast({ title: 'Sync retry queued' });
      void queryClient.invalidateQueries({ queryKey: orderQueries.order(orderId).queryKey });
      void queryClient.invalidateQueries({ queryKey: orderQueries.lists });
      void queryClient.invalidateQueries({ queryKey: syncQueries.summary.queryKey });
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
