/**
 * The Order Manager's CSV export, in staff words: an export's filters, its progress, its size, and the
 * download. The file is never built in the browser: the download is a plain link to the server's
 * streamed file (GET …/export/{id}/download?storeCode=), which the browser saves itself.
 */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import type { ExportFiltersView, ExportStatus, ExportStatusResponse } from '@nh/shared/contracts/exports';
import { statusLabel } from '../ui/status-labels';

/** How often a running export's progress is asked for. */
export const EXPORT_POLL_MS = 1000;

export const EXPORT_STATUS_LABELS: Record<ExportStatus, string> = {
  queued: 'Waiting to start',
  running: 'Exporting',
  completed: 'Ready',
  failed: 'Failed',
};

const count = new Intl.NumberFormat('en-US');
export const formatCount = (n: number) => count.format(n);

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** A UTC day (yyyy-mm-dd, as the filters are kept) as "Mar 1, 2025". */
const day = (ymd: string) => dayFormat.format(new Date(`${ymd}T00:00:00Z`));

/** "All orders", "Shipped orders placed Mar 1, 2025 – Mar 5, 2025", "Orders placed from Mar 1, 2025". */
export function exportFiltersText(filters: Pick<ExportFiltersView, 'from' | 'to'> & { status: ExportFiltersView['status'] | '' }): string {
  const what = filters.status ? `${statusLabel(filters.status)} orders` : 'All orders';
  if (filters.from && filters.to) return `${what} placed ${day(filters.from)} – ${day(filters.to)}`;
  if (filters.from) return `${what} placed from ${day(filters.from)}`;
  if (filters.to) return `${what} placed until ${day(filters.to)}`;
  return what;
}

/** 512 B, 12.3 KB, 4.5 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

/** Rows done out of the total as a whole percentage (null while the total is not counted yet). */
export function exportPercent(status: Pick<ExportStatusResponse, 'status' | 'rowsDone' | 'rowsTotal'>): number | null {
  if (status.status === 'completed') return 100;
  if (status.rowsTotal === null) return null;
  if (status.rowsTotal === 0) return status.status === 'running' ? 0 : null;
  return Math.min(100, Math.floor((status.rowsDone / status.rowsTotal) * 100));
}

/** "1,234 of 10,000 orders", or what is happening while the worker has not counted yet. */
export function exportProgressText(status: Pick<ExportStatusResponse, 'status' | 'rowsDone' | 'rowsTotal'>): string {
  if (status.status === 'queued') return 'Waiting for the export worker...';
  if (status.rowsTotal === null) return 'Counting orders...';
  return `${formatCount(status.rowsDone)} of ${formatCount(status.rowsTotal)} ${status.rowsTotal === 1 ? 'order' : 'orders'}`;
}

/** Where a finished export stands: downloadable until when, or why not. */
export function exportAvailability(entry: Pick<ExportStatusResponse, 'status' | 'downloadable' | 'expiresAt' | 'fileDeletedAt' | 'error'>): string {
  if (entry.status === 'failed') return entry.error ? `Failed: ${entry.error}` : 'Failed';
  if (entry.status !== 'completed') return EXPORT_STATUS_LABELS[entry.status];
  if (entry.downloadable) return entry.expiresAt ? `Download until ${formatOrderDate(entry.expiresAt)}` : 'Ready';
  return entry.fileDeletedAt ? `File deleted ${formatOrderDate(entry.fileDeletedAt)}` : 'No longer available';
}

/**
 * Has the browser download `url` as it would a link the user clicked: the server's attachment is
 * streamed straight to the downloads (no Blob, nothing held in memory), and the page stays.
 */
export function downloadFromServer(url: string): void {
  const link = Object.assign(document.createElement('a'), { href: url, rel: 'noopener' });
  link.setAttribute('download', '');
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
}
