/**
 * The Order Manager's CSV export: filters (date range placed, status), a live progress bar while the
 * worker writes the file (rows done of the total), the download when it is ready (a plain link the
 * browser saves: the server streams the file), and the history of the store's exports.
 */
import { ADMIN_MESSAGES, formatOrderDate, ORDER_STATUSES, type OrderStatus } from '@nh/shared/contracts/admin';
import { startExportRequestSchema, type ExportHistory, type ExportStatusResponse } from '@nh/shared/contracts/exports';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Loader2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { FilterSelect, ProblemList } from '../../ui/filter-form';
import { columnsOf, DataTable } from '../../ui/data-table';
import { statusLabel } from '../../ui/status-labels';
import { useFilterDraft } from '../../ui/use-filter-draft';
import { exportDownloadUrl, exportQueries, startExport, type TableExportFilters } from '../api';
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

const HISTORY_REFRESH_MS = 5000;

interface Draft {
  from: string;
  to: string;
  status: OrderStatus | '';
}

const EVERY_ORDER: Draft = { from: '', to: '', status: '' };
const DRAFT_KEYS = ['from', 'to', 'status'] as const;

const isRunning = (entry: Pick<ExportStatusResponse, 'status'>) => entry.status === 'queued' || entry.status === 'running';

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

type HistoryEntry = ExportHistory['exports'][number];
const column = columnsOf<HistoryEntry>();

const HISTORY_COLUMNS = [
  column.display({ id: 'started', header: 'Started', meta: { className: 'whitespace-nowrap' }, cell: ({ row }) => formatOrderDate(row.original.createdAt) }),
  column.display({ id: 'by', header: 'By', meta: { className: 'max-w-[14rem] break-all' }, cell: ({ row }) => row.original.staffEmail ?? '—' }),
  column.display({ id: 'orders', header: 'Orders', cell: ({ row }) => exportFiltersText(row.original.filters) }),
  column.display({
    id: 'rows',
    header: 'Rows',
    meta: { className: 'text-right tabular-nums' },
    cell: ({ row: { original: entry } }) =>
      entry.rowsTotal === null ? formatCount(entry.rowsDone) : formatCount(entry.status === 'completed' ? entry.rowsDone : entry.rowsTotal),
  }),
  column.display({
    id: 'size',
    header: 'Size',
    meta: { className: 'whitespace-nowrap text-right tabular-nums' },
    cell: ({ row }) => (row.original.sizeBytes === null ? '—' : formatBytes(row.original.sizeBytes)),
  }),
  column.display({
    id: 'file',
    header: 'File',
    cell: ({ row: { original: entry } }) => (
      <>
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
      </>
    ),
  }),
];

function ExportHistoryTable() {
  const history = useQuery({
    ...exportQueries.history,
    refetchInterval: (query) => (query.state.data?.exports.some(isRunning) ? HISTORY_REFRESH_MS : false),
  });
  if (history.isPending) return <p className="text-sm text-stone-600">Loading recent exports...</p>;
  if (history.isError) return <p className="text-sm text-red-700">{serverMessageOf(history.error) ?? 'Failed to load recent exports.'}</p>;
  const { exports } = history.data;
  if (exports.length === 0) return <p className="text-sm text-stone-600">No exports yet.</p>;
  return (
    <div className="relative overflow-x-auto rounded-lg border border-stone-200">
      <DataTable
        columns={HISTORY_COLUMNS}
        data={exports}
        rowId={(entry) => entry.exportId}
        look="compact"
        className="min-w-[48rem]"
        label="Recent exports"
        rowProps={({ id }) => ({ 'data-testid': `export-${id}` })}
      />
    </div>
  );
}

export function ExportPanel({ tableFilters = {} }: { tableFilters?: TableExportFilters } = {}) {
  const ids = { from: useId(), to: useId(), status: useId() };
  const queryClient = useQueryClient();
  /** The export started here, followed until it ends. */
  const [current, setCurrent] = useState<string | null>(null);
  const ended = useRef<string | null>(null);

  const start = useMutation({
    mutationFn: (filters: Draft) => startExport({ ...tableFilters, from: filters.from || undefined, to: filters.to || undefined, status: filters.status || undefined }),
    onSuccess: ({ exportId }) => {
      setCurrent(exportId);
      void queryClient.invalidateQueries({ queryKey: exportQueries.history.queryKey });
    },
    onError: (error) => toast({ title: ADMIN_MESSAGES.exportFailed, description: serverMessageOf(error), variant: 'destructive' }),
  });
  const progress = useQuery({
    ...exportQueries.status(current ?? ''),
    enabled: current !== null,
    refetchInterval: (query) => (query.state.status === 'error' || (query.state.data && !isRunning(query.state.data)) ? false : EXPORT_POLL_MS),
  });
  const status = progress.data;

  // The export's end, once: the file goes to the browser's downloads, or the failure is told.
  useEffect(() => {
    if (!status || isRunning(status) || ended.current === status.exportId) return;
    ended.current = status.exportId;
    void queryClient.invalidateQueries({ queryKey: exportQueries.history.queryKey });
    if (status.status === 'completed') {
      downloadFromServer(exportDownloadUrl(status.exportId));
      toast({ title: ADMIN_MESSAGES.exportSucceeded, description: status.fileName ?? undefined });
    } else {
      toast({ title: ADMIN_MESSAGES.exportFailed, description: status.error ?? undefined, variant: 'destructive' });
    }
  }, [status, queryClient]);

  const following = current !== null && !progress.isError && (!status || isRunning(status));
  const busy = start.isPending || following;

  // Checked with the contract's words first (a day that does not exist, from after to).
  const { draft, set, problems, submit } = useFilterDraft({
    applied: EVERY_ORDER,
    empty: EVERY_ORDER,
    keys: DRAFT_KEYS,
    schema: startExportRequestSchema,
    onApply: (filters) => {
      if (!busy) start.mutate(filters);
    },
  });

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
              <Input id={ids.from} type="date" value={draft.from} onChange={(e) => set('from', e.target.value)} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={ids.to}>To</Label>
              <Input id={ids.to} type="date" value={draft.to} onChange={(e) => set('to', e.target.value)} />
            </div>
            <FilterSelect
              id={ids.status}
              label="Order status"
              value={draft.status}
              onChange={(v) => set('status', v)}
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
