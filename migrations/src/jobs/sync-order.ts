/**
 * sync-order (erp-sync queue): one order to NetSuite, with its refunds and voids. Made by the relay from
 * `order.placed`, `order.refunded` (a refund or void the gateway approved: its credit memo, or the sales
 * order closed), `order.address-corrected` (staff corrected the address of an unshipped order: the sales
 * order sent again with it) and `order.sync-requested` (staff retries, the 10-minute reconcile); the handler is
 * workers/src/erp-sync/processor.ts.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { defineJobContract } from './contract';

/** The erp-sync queue's custom backoff type: exponential with jitter (workers/src/erp-sync/backoff.ts). */
export const JITTER_BACKOFF = 'exponential-jitter';

export interface SyncOrderSettings {
  ERP_SYNC_ATTEMPTS: number;
  /** First retry delay; doubles each attempt, with jitter (capped by the queue's backoff strategy). */
  ERP_SYNC_BACKOFF_MS: number;
}

export const syncOrderContract = defineJobContract({
  name: 'sync-order',
  queue: 'erp-sync',
  payload: z.object({ orderId: z.string().uuid() }),
  options: (s: SyncOrderSettings) => ({ attempts: s.ERP_SYNC_ATTEMPTS, backoff: { type: JITTER_BACKOFF, delay: s.ERP_SYNC_BACKOFF_MS } }),
  topics: {
    [OUTBOX_TOPICS.orderPlaced]: ({ orderId }) => ({ orderId }),
    [OUTBOX_TOPICS.orderSyncRequested]: ({ orderId }) => ({ orderId }),
    [OUTBOX_TOPICS.orderRefunded]: ({ orderId }) => ({ orderId }),
    [OUTBOX_TOPICS.orderAddressCorrected]: ({ orderId }) => ({ orderId }),
  },
});
