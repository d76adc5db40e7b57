/**
 * The Subscriptions screen's CSV export (issue 21), as the orders' (../../exports): a status to narrow
 * to, the button, the progress while the worker writes the file, the download, and the last few exports
 * (who, when, rows, until when the file can be downloaded).
 */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { ADMIN_SUBSCRIPTION_STATUS_LABELS } from '@nh/shared/contracts/admin-subscriptions';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import type { SubscriptionExportStatus } from '@nh/shared/contracts/subscription-export';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Loader2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { FilterSelect } from '../../ui/filter-form';
import { downloadFromServer, EXPORT_POLL_MS, EXPORT_STATUS_LABELS, exportAvailability, exportProgressText, formatCount } from '../../exports/export-orders';
import { bulkQueries, startSubscriptionExport, subscriptionExportUrl } from '../bulk-api';

const isRunning = (entry: Pick<SubscriptionExportStatus, 'status'>) => entry.status === 'queued' || entry.status === 'running';
const whatText = (status: SubscriptionStatus | null | '') => (status ? `${ADMIN_SUBSCRIPTION_STATUS_LABELS[status]} plans` : 'All plans');

function ExportLine({ entry }: { entry: SubscriptionExportStatus }) {
  return (
    <li className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm" data-testid={`subscription-export-${entry.exportId}`}>
      <span className="whitespace-nowrap">{formatOrderDate(entry.createdAt)}</span>
      <span className="text-stone-600">{entry.staffEmail ?? '—'}</span>
      <span>{whatText(entry.filters.status)}</span>
      <span className="tabular-nums">{entry.status === 'completed' ? `${formatCount(entry.rowsDone)} rows` : exportProgressText(entry)}</span>
      <span className={entry.status === 'failed' ? 'text-red-700' : 'text-stone-600'}>{exportAvailability(entry)}</span>
      {entry.downloadable && (
        <a href={subscriptionExportUrl(entry.exportId)} download className="inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline">
          <Download className="size-3.5" aria-hidden="true" />
          Download
        </a>
      )}
    </li>
  );
}

export function SubscriptionExportPanel() {
  const statusId = useId();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<SubscriptionStatus | ''>('');
  const [current, setCurrent] = useState<string | null>(null);
  const ended = useRef<string | null>(null);
  const history = useQuery({ ...bulkQueries.exportHistory, refetchInterval: (query) => (query.state.data?.exports.some(isRunning) ? 5000 : false) });

  const start = useMutation({
    mutationFn: () => startSubscriptionExport(status),
    onSuccess: ({ exportId }) => {
      setCurrent(exportId);
      void queryClient.invalidateQueries({ queryKey: bulkQueries.exportHistory.queryKey });
    },
    onError: (error) => toast({ title: 'Export failed', description: serverMessageOf(error), variant: 'destructive' }),
  });
  const progress = useQuery({
    ...bulkQueries.exportStatus(current ?? ''),
    enabled: current !== null,
    refetchInterval: (query) => (query.state.status === 'error' || (query.state.data && !isRunning(query.state.data)) ? false : EXPORT_POLL_MS),
  });
  const running = progress.data;

  useEffect(() => {
    if (!running || isRunning(running) || ended.current === running.exportId) return;
    ended.current = running.exportId;
    void queryClient.invalidateQueries({ queryKey: bulkQueries.exportHistory.queryKey });
    if (running.status === 'completed') {
      downloadFromServer(subscriptionExportUrl(running.exportId));
      toast({ title: 'Export ready', description: running.fileName ?? undefined });
    } else toast({ title: 'Export failed', description: running.error ?? undefined, variant: 'destructive' });
  }, [running, queryClient]);

  const busy = start.isPending || (current !== null && !progress.isError && (!running || isRunning(running)));

  return (
    <Card data-testid="subscription-export-panel">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Export subscriptions</CardTitle>
        <CardDescription>
          A CSV file of the plans (status, delivery frequency, next delivery, items, amount, customer, created, cancelled, skipped deliveries), made in the background.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="flex flex-wrap items-end gap-3"
          aria-label="Export subscriptions"
          onSubmit={(event) => {
            event.preventDefault();
            if (!busy) start.mutate();
          }}
        >
          <FilterSelect
            id={statusId}
            label="Status"
            value={status}
            onChange={setStatus}
            anyLabel="All statuses"
            options={SUBSCRIPTION_STATUSES}
            labelOf={(s) => ADMIN_SUBSCRIPTION_STATUS_LABELS[s]}
            className="min-w-[12rem]"
          />
          <Button type="submit" disabled={busy}>
            {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
            {busy ? 'Exporting...' : 'Export CSV'}
          </Button>
        </form>
        {running && (
          <p className="text-sm" role="status">
            {EXPORT_STATUS_LABELS[running.status]}: {running.status === 'completed' ? `${formatCount(running.rowsDone)} rows` : exportProgressText(running)}
            {running.status === 'failed' && running.error ? ` ${running.error}` : ''}
          </p>
        )}
        {history.data && history.data.exports.length > 0 && (
          <div className="grid gap-2">
            <h3 className="text-sm font-semibold text-stone-900">Recent exports</h3>
            <ul className="grid gap-1.5">
              {history.data.exports.map((entry) => (
                <ExportLine key={entry.exportId} entry={entry} />
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
