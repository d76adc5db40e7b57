/** The order CSV export (POST /api/admin/orders/export…): start one, follow it, the store's history, the download. */
import { STORE_CODE } from '@nh/shared/constants';
import type { ExportHistory, ExportStarted, ExportStatusResponse, StartExportRequest } from '@nh/shared/contracts/exports';
import { queryOptions } from '@tanstack/react-query';
import { readJson } from '@/lib/query-client';
import { ADMIN_KEY, sendForStore } from '../shell/api';

/** How many exports the history lists. */
const HISTORY_LIMIT = 10;

export type ExportFilters = Pick<StartExportRequest, 'from' | 'to' | 'status' | 'search' | 'netsuiteStatus' | 'promo' | 'paymentState'>;

/** Issue 23: the orders table's filters and search the export follows (beside the panel's own dates and status). */
export type TableExportFilters = Pick<StartExportRequest, 'search' | 'netsuiteStatus' | 'promo' | 'paymentState'>;

export const startExport = async (filters: ExportFilters) => readJson<ExportStarted>(await sendForStore('POST', '/api/admin/orders/export', { ...filters }));

const exportStatus = async (exportId: string) =>
  readJson<ExportStatusResponse>(await sendForStore('POST', `/api/admin/orders/export/${encodeURIComponent(exportId)}/status`));

const exportHistory = async () => readJson<ExportHistory>(await sendForStore('POST', '/api/admin/orders/export/history', { limit: HISTORY_LIMIT }));

/** The finished file as a plain link: the server streams it with the session cookie and the browser saves it (no Blob). */
export const exportDownloadUrl = (exportId: string) =>
  `/api/admin/orders/export/${encodeURIComponent(exportId)}/download?storeCode=${encodeURIComponent(STORE_CODE)}`;

const EXPORTS = [...ADMIN_KEY, 'exports'] as const;

export const exportQueries = {
  history: queryOptions({ queryKey: [...EXPORTS, 'history'], queryFn: exportHistory, staleTime: 0 }),
  status: (exportId: string) => queryOptions({ queryKey: [...EXPORTS, 'status', exportId], queryFn: () => exportStatus(exportId), staleTime: 0 }),
};
