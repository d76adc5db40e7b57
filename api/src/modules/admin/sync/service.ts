/**
 * NetSuite sync administration. Retries go through the outbox (`order.sync-requested`) in the same
 * transaction that resets the order to pending, so a retry is never lost even while Redis is down;
 * the sync job deletes the failed-sync row when it succeeds.
 */
import { centsToDecimal } from '@nh/shared';
import type { Queue } from 'bullmq';
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { recordOutbox } from '@nh/server/queries/outbox';
import { listFailedCreditSyncs, NETSUITE_CREDIT_KINDS, resetCreditSync } from '@nh/server/queries/store-credit-sync';
import { findOrderSyncState, listFailedSyncs, listSyncAttempts, lockOrderSyncStatus, resetFailedSyncs, resetOrderSync, syncCounts } from '@nh/server/queries/sync';
import { readQueueDepth } from '@nh/server/runtime/queues';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { ADMIN_SYNC_MESSAGES, SYNC_STATUSES, type FailedCreditSync, type FailedSync, type OrderSyncAttempts, type SyncAttempt, type SyncStatus, type SyncSummary } from '@nh/shared/contracts/admin-sync';
import { AppError } from '../../../lib/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const QUEUE_COUNTS_TIMEOUT_MS = 1500;

/** What the summary reads: the database, and the erp-sync queue (a handle made on first use). */
export interface SyncSummaryDeps {
  db: Db;
  erpSyncQueue: () => Queue;
}

async function queueCounts(erpSyncQueue: () => Queue): Promise<SyncSummary['queue']> {
  const depth = await readQueueDepth(erpSyncQueue(), QUEUE_COUNTS_TIMEOUT_MS);
  return depth && { waiting: depth.waiting, active: depth.active, delayed: depth.delayed, failed: depth.failed };
}

export async function syncSummary({ db, erpSyncQueue }: SyncSummaryDeps, storeCode: string): Promise<SyncSummary> {
  const [{ byStatus, oldestPendingAt, failedSyncRows }, queue] = await Promise.all([syncCounts(db, storeCode), queueCounts(erpSyncQueue)]);
  const counts = Object.fromEntries(SYNC_STATUSES.map((s) => [s, 0])) as SyncSummary['counts'];
  for (const row of byStatus) if (row.status in counts) counts[row.status as keyof typeof counts] = row.n;
  return { storeCode, counts, oldestPendingAt: oldestPendingAt ? new Date(oldestPendingAt).toISOString() : null, failedSyncRows, queue };
}

export async function failedSyncs(db: Db, storeCode: string): Promise<FailedSync[]> {
  const rows = await listFailedSyncs(db, storeCode);
  return rows.map((r) => ({
    ...r,
    total: centsToDecimal(r.total),
    orderCreatedAt: r.orderCreatedAt.toISOString(),
    lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
  }));
}

/** The order's NetSuite ledger, newest first, with its sync state; 404 for an order the store does not have. */
export async function orderSyncAttempts(db: Db, storeCode: string, orderId: string): Promise<OrderSyncAttempts> {
  if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', ADMIN_SYNC_MESSAGES.orderNotFound);
  const [order, attempts] = await Promise.all([findOrderSyncState(db, storeCode, orderId), listSyncAttempts(db, orderId)]);
  if (!order) throw new AppError('NOT_FOUND', ADMIN_SYNC_MESSAGES.orderNotFound);
  return {
    orderId,
    netsuiteSyncStatus: order.netsuiteSyncStatus as SyncStatus,
    netsuiteSyncError: order.netsuiteSyncError,
    netsuiteOrderId: order.netsuiteOrderId,
    netsuiteSyncedAt: order.netsuiteSyncedAt?.toISOString() ?? null,
    attempts: attempts.map((a) => ({ ...a, at: a.at.toISOString(), record: a.record as SyncAttempt['record'], outcome: a.outcome as SyncAttempt['outcome'] })),
  };
}

export async function retryOrder(db: Db, storeCode: string, orderId: string, actor: AuditActor): Promise<void> {
  if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', ADMIN_SYNC_MESSAGES.orderNotFound);
  await db.transaction(async (tx) => {
    const status = await lockOrderSyncStatus(tx, storeCode, orderId);
    if (status === null) throw new AppError('NOT_FOUND', ADMIN_SYNC_MESSAGES.orderNotFound);
    if (status === 'synced') throw new AppError('ALREADY_SYNCED', ADMIN_SYNC_MESSAGES.alreadySynced);
    await resetOrderSync(tx, orderId);
    await recordOutbox(tx, 'order.sync-requested', { orderId });
    await recordAudit(tx, actor, { action: 'sync.replayed', entityType: 'order', entityId: orderId, before: { netsuiteSyncStatus: status }, after: { netsuiteSyncStatus: 'pending' } });
  });
}

/**
 * Failed orders of the store back to pending, each with a sync request: every one, or only those of
 * `orderIds` (the order table's selection; ids that are not failed are left alone). Returns how many.
 */
export async function retryAllFailed(db: Db, storeCode: string, actor: AuditActor, orderIds?: readonly string[]): Promise<number> {
  return db.transaction(async (tx) => {
    const ids = await resetFailedSyncs(tx, storeCode, orderIds);
    for (const id of ids) await recordOutbox(tx, 'order.sync-requested', { orderId: id });
    await recordAudit(
      tx,
      actor,
      ids.map((id) => ({ action: 'sync.replayed_failed' as const, entityType: 'order' as const, entityId: id, before: { netsuiteSyncStatus: 'failed' }, after: { netsuiteSyncStatus: 'pending' } })),
    );
    return ids.length;
  });
}

/** Store-credit movements whose NetSuite sync failed for good, newest failure first. */
export async function failedCreditSyncs(db: Db): Promise<FailedCreditSync[]> {
  const rows = await listFailedCreditSyncs(db.$client);
  return rows.map((r) => ({
    entryId: r.entryId,
    kind: r.kind as FailedCreditSync['kind'],
    amount: centsToDecimal(r.amountCents),
    customerId: r.userId,
    customerEmail: r.email,
    errorMessage: r.error,
    attempts: r.attempts,
    lastAttemptAt: r.lastAttemptAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
  }));
}

/**
 * One store-credit movement sent to NetSuite again, as an order's retry: its sync set back to pending
 * and a `store-credit.recorded` outbox row (the sync job's trigger) in one transaction, audited on the
 * customer. The job's records are upserts by the movement's id, so a retry never doubles them.
 */
export async function retryCreditSync(db: Db, entryId: string, actor: AuditActor): Promise<void> {
  if (!/^\d{1,18}$/.test(entryId)) throw new AppError('NOT_FOUND', ADMIN_SYNC_MESSAGES.creditEntryNotFound);
  await db.transaction(async (tx) => {
    const entry = await resetCreditSync(tx, entryId);
    if (!entry) throw new AppError('NOT_FOUND', ADMIN_SYNC_MESSAGES.creditEntryNotFound);
    if (!(NETSUITE_CREDIT_KINDS as readonly string[]).includes(entry.kind)) throw new AppError('CREDIT_NOT_SYNCED', ADMIN_SYNC_MESSAGES.creditNotSynced);
    if (entry.before === 'synced') throw new AppError('ALREADY_SYNCED', ADMIN_SYNC_MESSAGES.creditAlreadySynced);
    await recordOutbox(tx, OUTBOX_TOPICS.storeCreditRecorded, { entryId }, actor.requestId);
    await recordAudit(tx, actor, {
      action: 'sync.store_credit_replayed',
      entityType: 'customer',
      entityId: entry.userId,
      before: { entry: entryId, netsuiteSyncStatus: entry.before ?? 'none' },
      after: { entry: entryId, netsuiteSyncStatus: 'pending' },
    });
  });
}
