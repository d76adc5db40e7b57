/**
 * The Subscriptions screen's calls for many plans at once (issue 21): the bulk swap (POST
 * /api/admin/subscriptions/bulk-swap, its runs) and the subscriptions CSV export (POST
 * /api/admin/subscriptions/export…, as the order export's).
 */
import { STORE_CODE } from '@nh/shared/constants';
import type { BulkSwapDryRun, BulkSwapRequest, BulkSwapRuns, BulkSwapStarted } from '@nh/shared/contracts/bulk-swap';
import type { Product } from '@nh/shared/contracts/catalog';
import type { ExportStarted } from '@nh/shared/contracts/exports';
import type { SubscriptionExportHistory, SubscriptionExportStatus } from '@nh/shared/contracts/subscription-export';
import type { SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, readJson } from '@/lib/query-client';
import { ADMIN_KEY, sendForStore } from '../shell/api';

const BULK = [...ADMIN_KEY, 'plans', 'bulk'] as const;

export const bulkSwap = async (body: BulkSwapRequest) => readJson<BulkSwapDryRun | BulkSwapStarted>(await apiRequest('POST', '/api/admin/subscriptions/bulk-swap', body));

/** Every product (inactive ones too: a retired product is what is swapped away), for the swap's choices. */
const swapProducts = async () => readJson<Product[]>(await apiRequest('POST', '/api/admin/products', { limit: 200 }));

const swapRuns = async () => readJson<BulkSwapRuns>(await apiRequest('GET', '/api/admin/subscriptions/bulk-swap/runs?limit=10'));

export const startSubscriptionExport = async (status: SubscriptionStatus | '') =>
  readJson<ExportStarted>(await sendForStore('POST', '/api/admin/subscriptions/export', status ? { status } : {}));

const subscriptionExportHistory = async () => readJson<SubscriptionExportHistory>(await sendForStore('POST', '/api/admin/subscriptions/export/history', { limit: 5 }));

const subscriptionExportStatus = async (exportId: string) =>
  readJson<SubscriptionExportStatus>(await sendForStore('POST', `/api/admin/subscriptions/export/${encodeURIComponent(exportId)}/status`));

/** The finished file as a plain link the browser saves (the server streams it). */
export const subscriptionExportUrl = (exportId: string) =>
  `/api/admin/subscriptions/export/${encodeURIComponent(exportId)}/download?storeCode=${encodeURIComponent(STORE_CODE)}`;

export const bulkQueries = {
  products: queryOptions({ queryKey: [...BULK, 'products'], queryFn: swapProducts, staleTime: 60_000 }),
  runs: queryOptions({ queryKey: [...BULK, 'runs'], queryFn: swapRuns, staleTime: 0 }),
  exportHistory: queryOptions({ queryKey: [...BULK, 'export-history'], queryFn: subscriptionExportHistory, staleTime: 0 }),
  exportStatus: (exportId: string) => queryOptions({ queryKey: [...BULK, 'export', exportId], queryFn: () => subscriptionExportStatus(exportId), staleTime: 0 }),
};
