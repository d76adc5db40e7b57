/**
 * sync-store-credit (erp-sync queue): one store-credit movement to NetSuite (issue 23;
 * docs/decisions/store-credit.md, "NetSuite"), made by the relay from the `store-credit.recorded` row the
 * ledger's insert trigger writes with every grant, refund to credit and expiry.
 *
 * - A grant: a credit memo on the goodwill item (its account the goodwill expense), then a customer refund
 *   of it paid with NH-STORE-CREDIT (its account the store-credit liability). Net: goodwill expense
 *   debited, the liability credited; the customer's receivable untouched.
 * - A refund to credit: the credit memo a card refund would get (the refund item, naming the order), then
 *   the same customer refund into the liability instead of money back to the card.
 * - An expiry (only goodwill grants expire): a journal entry, Dr the store-credit liability, Cr the
 *   goodwill expense (the part of the goodwill never used).
 *
 * Idempotent: every record is an upsert by an external id made from the ledger entry's id, and an entry
 * recorded as synced is skipped. A retry after a lost answer updates the same records. 429 slows the
 * queue without spending an attempt; after the last attempt the entry is recorded failed with the error.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { JITTER_BACKOFF } from '@nh/server/jobs/sync-order';
import { loadCreditEntryForSync, recordCreditSync, type CreditEntryForSync } from '@nh/server/queries/store-credit-sync';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { centsToDecimal } from '@nh/shared/money';
import { jobDefiner } from '../jobs/define';
import { NetSuiteError, netsuiteExternalIds, type NetSuiteClient, type StoreCreditMovementInput } from './netsuite/client';
import { REFUND_ITEM, SALES_TAX_ITEM } from './order-mapping';
import { refundTaxPart } from '@nh/shared/refund-amounts';
import { redisCustomerIdCache, type CustomerIdCache } from './customer-cache';
import type { SyncJobContext } from './processor';

const DEFAULT_RATE_LIMIT_MS = 1000;

/**
 * The NetSuite item a goodwill grant's credit memo line credits: an Other Charge item with this external
 * id, not taxable, whose account is the goodwill (customer service) expense. The account must have it.
 */
export const STORE_CREDIT_GOODWILL_ITEM = 'NH-STORE-CREDIT-GOODWILL';

export type CreditSyncResult = { outcome: 'synced'; records: Record<string, string> } | { outcome: 'skipped'; reason: string };

/** A grant's or a refund to credit's records, as the client sends them. */
export function storeCreditMovementFor(entry: CreditEntryForSync, customerInternalId: string): StoreCreditMovementInput {
  if (entry.kind !== 'grant' && entry.kind !== 'refund') throw new Error(`store credit entry ${entry.id} is a ${entry.kind}, not a grant or refund`);
  return {
    entryId: entry.id,
    kind: entry.kind,
    customerInternalId,
    email: entry.email,
    tranDate: entry.tranDate,
    amount: centsToDecimal(entry.amountCents),
    itemRef: entry.kind === 'grant' ? STORE_CREDIT_GOODWILL_ITEM : REFUND_ITEM,
    orderId: entry.kind === 'refund' ? entry.orderId : null,
    reason: entry.reason,
    taxLine: entry.kind === 'refund' ? refundToCreditTaxLine(entry) : null,
  };
}

/**
 * A refund to credit's tax part (issue 25), credited on the sales tax item as a card refund's is: by amount
 * only (docs/decisions/refunds.md), so the order's tax in proportion to the amount (@nh/shared refundTaxPart).
 */
function refundToCreditTaxLine(entry: CreditEntryForSync): StoreCreditMovementInput['taxLine'] {
  const order = entry.order;
  if (!order) return null;
  const tax = refundTaxPart({ lines: [], discount: 0, tax: order.taxCents, total: order.totalCents, shipping: 0 }, { amount: entry.amountCents, lines: null, shipping: 0 });
  if (tax <= 0) return null;
  const where = order.state ? ` ${order.state} ${order.zip ?? ''}`.trimEnd() : '';
  return { itemRef: SALES_TAX_ITEM, description: `Sales tax refunded${where}${order.taxSource ? ` (${order.taxSource})` : ''}`, amount: centsToDecimal(tax) };
}

export interface CreditSyncDeps {
  db: Db;
  netsuite: NetSuiteClient | null;
  log: Logger;
  worker: () => Worker;
  customers: CustomerIdCache;
}

export function createStoreCreditSyncProcessor(deps: CreditSyncDeps) {
  const { db, netsuite, log } = deps;

  /** The records of one entry, made or updated in NetSuite; answers their internal ids by record type. */
  async function send(client: NetSuiteClient, entry: CreditEntryForSync, customerId: string): Promise<Record<string, string>> {
    if (entry.kind === 'grant' || entry.kind === 'refund') {
      const movement = storeCreditMovementFor(entry, customerId);
      const creditMemo = await client.upsertStoreCreditMemo(movement);
      const customerRefund = await client.upsertStoreCreditRefund(movement, creditMemo);
      return { creditMemo, customerRefund };
    }
    if (entry.kind === 'expire') {
      const journalEntry = await client.upsertStoreCreditExpiry({ entryId: entry.id, customerInternalId: customerId, tranDate: entry.tranDate, amount: centsToDecimal(entry.amountCents) });
      return { journalEntry };
    }
    throw new UnrecoverableError(`store credit entry ${entry.id}: a ${entry.kind} is not sent to NetSuite`);
  }

  return async function syncStoreCredit(job: Job, { entryId }: { entryId: string }): Promise<CreditSyncResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'erp-sync', creditEntryId: entryId, attempt: job.attemptsMade + 1 });
    const entry = await loadCreditEntryForSync(db.$client, entryId);
    if (!entry) return { outcome: 'skipped', reason: 'entry not found' };
    if (entry.syncStatus === 'synced') return { outcome: 'skipped', reason: 'already synced' };
    if (entry.kind !== 'grant' && entry.kind !== 'refund' && entry.kind !== 'expire') return { outcome: 'skipped', reason: `a ${entry.kind} travels with its order` };
    if (!netsuite) {
      await recordCreditSync(db.$client, entryId, { status: 'not_configured' });
      return { outcome: 'skipped', reason: 'not configured' };
    }
    try {
      const customerKey = netsuiteExternalIds.customer(entry.email);
      const cached = await deps.customers.get(customerKey);
      const customerId = cached ?? (await netsuite.upsertCustomer({ email: entry.email, name: entry.name, phone: entry.phone }));
      if (!cached) await deps.customers.set(customerKey, customerId);
      let records: Record<string, string>;
      try {
        records = await send(netsuite, entry, customerId);
      } catch (error) {
        // A cached customer id NetSuite no longer knows: upsert the customer and send again (upserts: nothing doubles).
        if (cached === null || !(error instanceof NetSuiteError) || (error.status !== 400 && error.status !== 404)) throw error;
        await deps.customers.forget(customerKey);
        const fresh = await netsuite.upsertCustomer({ email: entry.email, name: entry.name, phone: entry.phone });
        await deps.customers.set(customerKey, fresh);
        records = await send(netsuite, entry, fresh);
      }
      await recordCreditSync(db.$client, entryId, { status: 'synced', netsuiteCustomerId: customerId, netsuiteRecords: records });
      jobLog.info({ records }, 'store credit movement synced to NetSuite');
      return { outcome: 'synced', records };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof NetSuiteError && error.kind === 'rate_limit') {
        await deps.worker().rateLimit(error.retryAfterMs ?? DEFAULT_RATE_LIMIT_MS);
        throw Worker.RateLimitError();
      }
      const permanent = error instanceof UnrecoverableError || (error instanceof NetSuiteError && error.kind === 'permanent');
      const lastAttempt = permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (lastAttempt) {
        await recordCreditSync(db.$client, entryId, { status: 'failed', error: message });
        jobLog.error({ err: message, permanent }, 'store credit NetSuite sync failed for good');
        if (permanent && !(error instanceof UnrecoverableError)) throw new UnrecoverableError(message);
      } else {
        jobLog.warn({ err: message }, 'store credit NetSuite sync failed; will retry');
      }
      throw error;
    }
  };
}

export const syncStoreCreditJob = jobDefiner<SyncJobContext>()({
  name: 'sync-store-credit',
  queue: 'erp-sync',
  payload: z.object({ entryId: z.string().regex(/^\d+$/) }),
  options: (config) => ({ attempts: config.ERP_SYNC_ATTEMPTS, backoff: { type: JITTER_BACKOFF, delay: config.ERP_SYNC_BACKOFF_MS } }),
  topics: { [OUTBOX_TOPICS.storeCreditRecorded]: ({ entryId }) => ({ entryId }) },
  handler: (ctx) =>
    createStoreCreditSyncProcessor({
      db: ctx.db,
      netsuite: ctx.netsuite,
      log: ctx.log,
      worker: () => ctx.worker('erp-sync'),
      customers: redisCustomerIdCache(ctx.redis, ctx.config.QUEUE_PREFIX, ctx.log),
    }),
});
