import type { SyncStatus } from '@nh/shared/contracts/admin-sync';

/** The words staff read for an order's NetSuite sync status ("Not configured", not `not_configured`). */
export const SYNC_STATUS_LABELS: Record<SyncStatus, string> = {
  pending: 'Pending',
  synced: 'Synced',
  failed: 'Failed',
  not_configured: 'Not configured',
};

/** An unknown status (from a later release) shows as stored. */
export const syncStatusLabel = (status: string): string => (SYNC_STATUS_LABELS as Record<string, string>)[status] ?? status;
