/** The Order Manager's CSV export: start the job, poll until it finishes, then save the file. */
import { exportDownloadName } from '@nh/shared/contracts/admin';
import { downloadExport, exportStatus, startExport } from './api';

const POLL_MS = 1000;
const GIVE_UP_MS = 10 * 60 * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ExportFailedError extends Error {}

/** Resolves with the CSV once the export job has completed; rejects when it fails or takes too long. */
export async function exportOrdersCsv(now: () => number = Date.now): Promise<Blob> {
  const { exportId } = await startExport();
  const deadline = now() + GIVE_UP_MS;
  for (;;) {
    const status = await exportStatus(exportId);
    if (status.status === 'completed') return downloadExport(exportId);
    if (status.status === 'failed') throw new ExportFailedError(status.error ?? 'Export failed');
    if (now() > deadline) throw new ExportFailedError('The export is taking too long');
    await sleep(POLL_MS);
  }
}

/** Saves a blob as nh-orders-{yyyy-MM-dd}.csv through a temporary download link. */
export function saveCsv(blob: Blob, fileName = exportDownloadName()): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
