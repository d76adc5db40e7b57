/**
 * The Order Manager's CSV export: filters (date range placed, status), a live progress bar while the
 * worker writes the file (rows done of the total), the download when it is ready (a plain link the
 * browser saves: the server streams the file), and the history of the store's exports.
 */
import { ADMIN_MESSAGES, formatOrderDate, ORDER_STATUSES, type OrderStatus } from '@nh/shared/contracts/admin';
import { startExportRequestSchema, type ExportStatusResponse } from '@nh/shared/contracts/exports';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Loader2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { statusLabel } from '../components/order-status-badge';
import {
  downloadFromServer,
  EXPORT_POLL_MS,
  EXPORT_STATUS_LABELS,
  exportAvailability,
  exportFiltersText,
  exportPercent,
  exportProgressText,
  formatBytes,
  formatCount,
} from '../export-orders';
import { exportDownloadUrl, exportHistory, exportStatus, orderKeys, startExport } from './api';
import { FilterSelect, ProblemList } from '../components/filter-form';

const HISTORY_LIMIT = 10;
const HISTORY_REFRESH_MS = 5000;

interface Draft {
  from: string;
  to: string;
  status: OrderStatus | '';
}

const isRunning = (entry: Pick<ExportStatusResponse, 'status'>) => entry.status === 'queued' || entry.status === 'running';

/** The filters' problems in the contract's words (a day that does not exist, from after to). */
function draftProblems(draft: Draft): string[] {
  const checked = startExportRequestSchema.safeParse(draft);
  return checked.success ? [] : [...new Set(checked.error.issues.map((issue) => issue.message))];
}

/** A bar of rows done out of the total; without a total yet it says what it waits for. */
export function ExportProgress({ status }: { status: ExportStatusResponse }) {
  const percent = exportPercent(status);
  const text = exportProgressText(status);
  return (
    <div className="grid gap-1.5" data-testid="export-progress">
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <span className="font-medium">{EXPORT_STATUS_LABELS[status.status]}</span>
        <span className="tabular-nums text-stone-600">{status.status === 'completed' ? `${formatCount(status.rowsDone)} ${status.rowsDone === 1 ? 'order' : 'orders'}` : text}</span>
      </div>
      <div
        role="progressbar"
        aria-label="Export progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? text : `${percent}% (${text})`}
        className="h-2.5 w-full overflow-hidden rounded-full bg-stone-200"
      >
        <div
          className={cn('h-full rounded-full transition-[width] duration-500', status.status === 'failed' ? 'bg-red-600' : 'bg-brand-700', percent === null && 'w-1/3 animate-pulse')}
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
      {status.status === 'failed' && (
        <p className="text-sm text-red-700" role="alert">
          {ADMIN_MESSAGES.exportFailed}
          {status.error ? `: ${status.error}` : ''}
        </p>
      )}
    </div>
  );
}

function ExportHistoryTable() {
  const history = useQuery({
    queryKey: orderKeys.exportHistory,
    queryFn: () => exportHistory(HISTORY_LIMIT),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.exports.some(isRunning) ? HISTORY_REFRESH_MS : false),
  });
  if (history.isPending) return <p className="text-sm text-stone-600">Loading recent exports...</p>;
  if (history.isError) return <p className="text-sm text-red-700">{serverMessageOf(history.error) ?? 'Failed to load recent exports.'}</p>;
  const { exports } = history.data;
  if (exports.length === 0) return <p className="text-sm text-stone-600">No exports yet.</p>;
  return (
    <div className="relative overflow-x-auto rounded-lg border border-stone-200">
      <table className="w-full min-w-[48rem] text-left text-sm" aria-label="Recent exports">
        <thead className="border-b border-stone-200 bg-stone-50 text-xs uppercase tracking-wide text-stone-600">
          <tr>
            <th scope="col" className="px-3 py-2">
              Started
            </th>
            <th scope="col" className="px-3 py-2">
              By
            </th>
            <th scope="col" className="px-3 py-2">
              Orders
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Rows
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Size
            </th>
            <th scope="col" className="px-3 py-2">
              File
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200 align-top">
          {exports.map((entry) => (
            <tr key={entry.exportId} data-testid={`export-${entry.exportId}`}>
              <td className="whitespace-nowrap px-3 py-2">{formatOrderDate(entry.createdAt)}</td>
              <td className="max-w-[14rem] break-all px-3 py-2">{entry.staffEmail ?? '—'}</td>
              <td className="px-3 py-2">{exportFiltersText(entry.filters)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{entry.rowsTotal === null ? formatCount(entry.rowsDone) : formatCount(entry.status === 'completed' ? entry.rowsDone : entry.rowsTotal)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{entry.sizeBytes === null ? '—' : formatBytes(entry.sizeBytes)}</td>
              <td className="px-3 py-2">
                <span className={cn('block', entry.status === 'failed' && 'text-red-700')}>{exportAvailability(entry)}</span>
                {entry.downloadable && (
                  <a
                    href={exportDownloadUrl(entry.exportId)}
                    download
                    className="mt-1 inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline"
                    aria-label={`Download the export started ${formatOrderDate(entry.createdAt)}`}
                  >
                    <Download className="size-3.5" aria-hidden="true" />
                    Download
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ExportPanel() {
  const ids = { from: useId(), to: useId(), status: useId() };
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>({ from: '', to: '', status: '' });
  const [problems, setProblems] = useState<string[]>([]);
  /** The export started here, followed until it ends. */
  const [current, setCurrent] = useState<string | null>(null);
  const ended = useRef<string | null>(null);

  const start = useMutation({
    mutationFn: (filters: Draft) => startExport({ from: filters.from || undefined, to: filters.to || undefined, status: filters.status || undefined }),
    onSuccess: ({ exportId }) => {
      setCurrent(exportId);
      void queryClient.invalidateQueries({ queryKey: orderKeys.exportHistory });
    },
    onError: (error) => toast({ title: ADMIN_MESSAGES.exportFailed, description: serverMessageOf(error), variant: 'destructive' }),
  });
  const progress = useQuery({
    queryKey: orderKeys.exportStatus(current ?? ''),
    queryFn: () => exportStatus(current!),
    enabled: current !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.status === 'error' || (query.state.data && !isRunning(query.state.data)) ? false : EXPORT_POLL_MS),
  });
  const status = progress.data;

  // The export's end, once: the file goes to the browser's downloads, or the failure is told.
  useEffect(() => {
    if (!status || isRunning(status) || ended.current === status.exportId) return;
    ended.current = status.exportId;
    void queryClient.invalidateQueries({ queryKey: orderKeys.exportHistory });
    if (status.status === 'completed') {
      downloadFromServer(exportDownloadUrl(status.exportId));
      toast({ title: ADMIN_MESSAGES.exportSucceeded, description: status.fileName ?? undefined });
    } else {
      toast({ title: ADMIN_MESSAGES.exportFailed, description: status.error ?? undefined, variant: 'destructive' });
    }
  }, [status, queryClient]);

  const following = current !== null && !progress.isError && (!status || isRunning(status));
  const busy = start.isPending || following;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = draftProblems(draft);
    setProblems(found);
    if (found.length === 0 && !busy) start.mutate(draft);
  }

  return (
    <Card data-testid="export-panel">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Export orders</CardTitle>
        <CardDescription>A CSV file of the store&apos;s orders, made in the background. Leave the dates empty for every order.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Export orders">
          <div className="grid gap-4 sm:grid-cols-3">
            <div className="space-y-1.5">
              <Label htmlFor={ids.from}>From</Label>
              <Input id={ids.from} type="date" value={draft.from} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={ids.to}>To</Label>
              <Input id={ids.to} type="date" value={draft.to} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
            </div>
            <FilterSelect
              id={ids.status}
              label="Order status"
              value={draft.status}
              onChange={(v) => setDraft((d) => ({ ...d, status: v }))}
              anyLabel="All statuses"
              options={ORDER_STATUSES}
              labelOf={(s) => statusLabel(s)}
            />
          </div>
          <ProblemList problems={problems} />
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={busy}>
              {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
              {busy ? 'Exporting...' : 'Export CSV'}
            </Button>
            <span className="text-sm text-stone-600">{exportFiltersText(draft)}</span>
          </div>
        </form>
        {status && <ExportProgress status={status} />}
        {progress.isError && (
          <p className="text-sm text-red-700" role="alert">
            {serverMessageOf(progress.error) ?? 'The export\'s progress could not be read.'}
          </p>
        )}
        <div className="grid gap-2">
          <h3 className="text-sm font-semibold text-stone-900">Recent exports</h3>
          <ExportHistoryTable />
        </div>
      </CardContent>
    </Card>
  );
}
