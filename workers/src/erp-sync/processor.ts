/**
 * erp-sync: one order to NetSuite (customer upsert, then sales-order upsert, both by external id), and
 * its refunds and voids the gateway approved (docs/decisions/refunds.md, "NetSuite"): each refund a credit
 * memo of its own (external id from the refund's payment row), a void, or a refund in full of an order
 * not shipped, the sales order sent again with every line closed. The sales order is sent the first
 * time, and again only to close it or to carry a shipping address staff corrected (issue 23: the order's
 * address revision ahead of the one NetSuite has); a refund or void NetSuite has (its record id on the
 * payment row) is never sent again.
 * Idempotent: it re-reads the order and skips one already synced with nothing outstanding; the upserts
 * make a repeated sync update the same records (their item lines sent whole: `?replace=item`).
 * One sync of an order at a time (the order's advisory lock, @nh/server tryLockOrderSync, held from the
 * read to "synced"): a job finding its order busy goes back to the delayed set for a second or two
 * without spending an attempt, then reads what the other recorded. Without it, a job that read the order
 * before a void could send the open sales order after the void's job had closed it, and leave it open. 429 slows the whole queue without burning an attempt;
 * validation errors fail at once; after the last attempt the order is marked failed and lands in the
 * failed-sync table.
 * Every request of every attempt joins the NetSuite ledger (`netsuite_sync_attempts`): collected in
 * memory while the attempt runs and written once, inside the "synced" statement or as one multi-row
 * insert when the attempt does not end synced.
 * A returning customer's NetSuite id comes from the customer id cache: one request per order instead of
 * two; a stale id (NetSuite refuses the sales order's customer reference) is forgotten and the customer
 * upserted again, within the same attempt.
 * Name, payload, options and topics: @nh/server/jobs/sync-order (the API may add it too).
 */
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { loadSyncOrder, markNotConfigured, markSynced, noteSyncError, recordSyncAttempts, recordSyncFailure, SYNC_STATUS, tryLockOrderSync, type SyncAttemptEntry, type SyncedRefund } from '@nh/server/queries/sync';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { syncOrderContract } from '@nh/server/jobs/sync-order';
import { jobDefiner, type JobContext } from '../jobs/define';
import { NetSuiteError, netsuiteExternalIds, type NetSuiteClient} from './netsuite/client';
import { creditMemoFor, customerFor, OrderMappingError, salesOrderClosure, salesOrderFor, storeCreditDepositFor } from './order-mapping';
import { redisCustomerIdCache, type CustomerIdCache } from './customer-cache';

const DEFAULT_RATE_LIMIT_MS = 1000;
/** How long a job waits when another sync of its order is running: between this and twice this. */
const BUSY_RETRY_MS = 1000;

export interface ErpSyncDeps {
  db: Db;
  /** null when the NetSuite variables are not set: orders are marked not_configured. */
  netsuite: NetSuiteClient | null;
  log: Logger;
  /** The worker running this processor (for `rateLimit`). */
  worker: () => Worker;
  /** NetSuite ids of customers already upserted (a returning customer costs one request). */
  customers: CustomerIdCache;
}

/** NetSuite refused a sales order because its customer reference names no customer (deleted or merged there). */
const isStaleCustomerReference = (error: unknown): boolean =>
  error instanceof NetSuiteError && (error.status === 400 || error.status === 404) && /entity reference|customer.*(not found|does not exist)/i.test(`${error.detail ?? ''} ${error.message}`);

/** `credits`: the refunds and voids this sync carried (credit memos made, or the sales order closed). */
export type SyncResult = { outcome: 'synced'; netsuiteOrderId: string; netsuiteCustomerId: string; credits: number } | { outcome: 'skipped'; reason: string };

export function createErpSyncProcessor(deps: ErpSyncDeps) {
  const { db, netsuite, log } = deps;

  async function syncOrder(job: Job, { orderId }: { orderId: string }): Promise<SyncResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'erp-sync', orderId, attempt: job.attemptsMade + 1 });
    // One sync of an order at a time: another job of the same order (its order.placed and order.refunded
    // rows are separate jobs) waits its turn, then reads what this one recorded.
    const release = await tryLockOrderSync(db.$client, orderId);
    if (!release) {
      const delayMs = BUSY_RETRY_MS + Math.round(Math.random() * BUSY_RETRY_MS);
      jobLog.info({ delayMs }, 'another sync of this order is running; trying again later');
      // Not an attempt: the job waits in the delayed set and no NetSuite failure is recorded.
      await job.moveToDelayed(Date.now() + delayMs, job.token);
      throw new DelayedError();
    }
    try {
      return await syncLocked(job, orderId, jobLog);
    } finally {
      await release();
    }
  }

  /** The sync itself, under the order's sync lock: read the order, send what NetSuite lacks, record it. */
  async function syncLocked(job: Job, orderId: string, jobLog: Logger): Promise<SyncResult> {
    const order = await loadSyncOrder(db.$client, orderId);
    if (!order) {
      jobLog.warn('order not found; nothing to sync');
      return { outcome: 'skipped', reason: 'order not found' };
    }
    // Approved refunds and voids NetSuite does not have yet, and a shipping address staff corrected since the sales order was sent.
    const outstanding = order.refunds.filter((r) => r.netsuiteRecordId === null);
    const addressStale = order.netsuiteOrderId !== null && order.addressRevision > order.netsuiteAddressRevision;
    if (order.syncStatus === SYNC_STATUS.synced && outstanding.length === 0 && !addressStale) return { outcome: 'skipped', reason: 'already synced' };
    if (!netsuite) {
      await markNotConfigured(db.$client, orderId);
      jobLog.info('NetSuite is not configured; order marked not_configured');
      return { outcome: 'skipped', reason: 'not configured' };
    }

    // This attempt's requests, for the ledger.
    const ledger: SyncAttemptEntry[] = [];
    try {
      const customer = customerFor(order);
      const customerKey = netsuiteExternalIds.customer(customer.email);
      const upsertCustomer = async () => {
        const id = await netsuite.upsertCustomer(customer, ledger);
        await deps.customers.set(customerKey, id);
        return id;
      };
      // The sales order: the first time, and again only to close it (a void, or a refund in full before
      // shipping) or to carry a corrected shipping address (the same external id: NetSuite updates it).
      const sendSalesOrder = order.netsuiteOrderId === null || addressStale || (salesOrderClosure(order) !== null && outstanding.length > 0);
      const sendRecords = async (customerId: string) => {
        const salesOrderId = sendSalesOrder ? await netsuite.upsertSalesOrder(salesOrderFor(order, customerId), ledger) : order.netsuiteOrderId!;
        // Store credit (issue 23): its part of the payment as a customer deposit on the sales order, sent
        // with the sales order's first sync (an upsert by external id: a retry updates, never doubles).
        const deposit = order.netsuiteOrderId === null ? storeCreditDepositFor(order, customerId, salesOrderId) : null;
        if (deposit) await netsuite.upsertStoreCreditDeposit(deposit, ledger);
        const carried: SyncedRefund[] = [];
        for (const refund of outstanding) {
          // A void is carried by the closed sales order; a refund by a credit memo of its own.
          const recordId = refund.kind === 'void' ? salesOrderId : await netsuite.upsertCreditMemo(creditMemoFor(order, refund, customerId), ledger);
          carried.push({ id: refund.id, recordId });
        }
        return { salesOrderId, carried };
      };
      const cached = await deps.customers.get(customerKey);
      let customerId = cached ?? (await upsertCustomer());
      let sent: Awaited<ReturnType<typeof sendRecords>>;
      try {
        sent = await sendRecords(customerId);
      } catch (error) {
        if (cached === null || !isStaleCustomerReference(error)) throw error;
        jobLog.info({ netsuiteCustomerId: cached }, 'cached NetSuite customer id is stale; upserting the customer again');
        await deps.customers.forget(customerKey);
        customerId = await upsertCustomer();
        // Every record again (upserts: the ones already made are updated, never doubled).
        sent = await sendRecords(customerId);
      }
      const { salesOrderId, carried } = sent;
      await markSynced(db.$client, orderId, customerId, salesOrderId, ledger, carried, order.addressRevision);
      jobLog.info({ netsuiteOrderId: salesOrderId, netsuiteCustomerId: customerId, credits: carried.length }, 'order synced to NetSuite');
      return { outcome: 'synced', netsuiteOrderId: salesOrderId, netsuiteCustomerId: customerId, credits: carried.length };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // The ledger never stands in the way of the sync's own bookkeeping: a failed write is logged only.
      await recordSyncAttempts(db.$client, orderId, ledger).catch((err: unknown) => jobLog.warn({ err }, 'NetSuite ledger rows could not be written'));
      if (error instanceof NetSuiteError && error.kind === 'rate_limit') {
        const ms = error.retryAfterMs ?? DEFAULT_RATE_LIMIT_MS;
        jobLog.warn({ delayMs: ms }, 'NetSuite rate limit: pausing the queue');
        await deps.worker().rateLimit(ms);
        throw Worker.RateLimitError();
      }
      const permanent = error instanceof OrderMappingError || (error instanceof NetSuiteError && error.kind === 'permanent');
      const lastAttempt = permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (lastAttempt) {
        await recordSyncFailure(db, orderId, {
          payload: { jobId: job.id, jobName: job.name, data: job.data, salesOrderExternalId: netsuiteExternalIds.salesOrder(orderId) },
          message,
          attempts: job.attemptsMade + 1,
        });
        jobLog.error({ err: message, permanent }, 'NetSuite sync failed for good');
        if (permanent) throw new UnrecoverableError(message);
        throw error;
      }
      await noteSyncError(db, orderId, message);
      jobLog.warn({ err: message }, 'NetSuite sync failed; will retry');
      throw error;
    }
  }

  return syncOrder;
}

/** The sync's handler gets the NetSuite client besides what every job gets (runtime.ts makes it). */
export type SyncJobContext = JobContext & { netsuite: NetSuiteClient | null };

export const syncOrderJob = jobDefiner<SyncJobContext>()({
  ...syncOrderContract,
  handler: (ctx) =>
    createErpSyncProcessor({
      db: ctx.db,
      netsuite: ctx.netsuite,
      log: ctx.log,
      worker: () => ctx.worker('erp-sync'),
      customers: redisCustomerIdCache(ctx.redis, ctx.config.QUEUE_PREFIX, ctx.log),
    }),
});
