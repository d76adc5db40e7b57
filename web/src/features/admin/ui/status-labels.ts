/** The words staff read for stored statuses ("Not configured", not `not_configured`), on every screen that shows them. */
import type { OrderStatus } from '@nh/shared/contracts/admin';
import type { SyncStatus } from '@nh/shared/contracts/admin-sync';

/** An order's status: "Shipped". */
export const statusLabel = (status: OrderStatus) => status.charAt(0).toUpperCase() + status.slice(1);

/** An order's NetSuite sync status. */
export const SYNC_STATUS_LABELS: Record<SyncStatus, string> = {
  pending: 'Pending',
  synced: 'Synced',
  failed: 'Failed',
  not_configured: 'Not configured',
};

/** An unknown sync status (from a later release) shows as stored. */
export const syncStatusLabel = (status: string): string => (SYNC_STATUS_LABELS as Record<string, string>)[status] ?? status;
