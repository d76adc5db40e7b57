/** NetSuite order sync in the back office (admin-sync API): the summary, and sending orders again. */
import type { FailedCreditSync, SyncSummary } from '@nh/shared/contracts/admin-sync';
import { queryOptions } from '@tanstack/react-query';
import { readJson } from '@/lib/query-client';
import { ADMIN_KEY, sendForStore } from '../shell/api';

const syncSummary = async () => readJson<SyncSummary>(await sendForStore('POST', '/api/admin/sync/summary'));
const failedCreditSyncs = async () => (await readJson<{ failed: FailedCreditSync[] }>(await sendForStore('POST', '/api/admin/sync/store-credit/failed'))).failed;

export const syncQueries = {
  summary: queryOptions({ queryKey: [...ADMIN_KEY, 'sync', 'summary'], queryFn: syncSummary, staleTime: 0, refetchInterval: 30_000 }),
  /** Store-credit movements whose NetSuite sync failed for good. */
  failedCredit: queryOptions({ queryKey: [...ADMIN_KEY, 'sync', 'store-credit-failed'], queryFn: failedCreditSyncs, staleTime: 0, refetchInterval: 30_000 }),
};

/** Sends one order to NetSuite again (refused when it is already synced). */
export const retryOrderSync = async (orderId: string) =>
  readJson<{ orderId: string; netsuiteSyncStatus: 'pending' }>(await sendForStore('POST', `/api/admin/sync/orders/${encodeURIComponent(orderId)}/retry`));

/** POST /api/admin/sync/retry-failed: every failed order goes back to NetSuite, or only those chosen (if still failed). */
export const retryFailedSyncs = async (orderIds?: string[]) =>
  readJson<{ retried: number }>(await sendForStore('POST', '/api/admin/sync/retry-failed', orderIds ? { orderIds } : {}));

/** Sends one store-credit movement to NetSuite again (refused when it is already there). */
export const retryCreditSync = async (entryId: string) =>
  readJson<{ entryId: string; status: 'pending' }>(await sendForStore('POST', `/api/admin/sync/store-credit/${encodeURIComponent(entryId)}/retry`));
