/**
 * bulk-swap (maintenance queue, one job at a time, so two runs never work at once): one run of a bulk
 * swap, for the `subscription.bulk-swap-requested` row the admin API writes.
 *
 * On its first start the job records every plan the swap changes as pending (@nh/server
 * startBulkSwapRun); then it walks the pending plans in keyset-paged batches (by plan id), so it streams
 * whatever the number of plans. Each plan is one transaction: its run row locked and seen pending, the
 * plan locked and changed through changeLockedPlan (the renewal's lock) with the staff member's audit row
 * and the customer's email (the `subscription.changed-by-staff` outbox row reads that audit row), and its
 * run row settled, all committed together. A worker killed mid-run rolls back the plan it was on; the
 * job, retried (BullMQ takes the stalled job back) or started again, finds the plans done settled and
 * never changes one twice. The line swapped in is priced from the catalogue as it is at each batch.
 */
import type { Job } from 'bullmq';
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { centsToDecimal, toCents } from '@nh/shared/money';
import type { Db } from '@nh/server/db/client';
import type { LineItem, ProductVariant } from '@nh/server/db/schema';
import type { Logger } from '@nh/server/observability/logger';
import { catalogueLine } from '@nh/server/db/catalogue-line';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { readProductPrices } from '@nh/server/queries/catalog';
import { recordOutbox } from '@nh/server/queries/outbox';
import { changeLockedPlan } from '@nh/server/queries/subscriptions/changes';
import {
  finishBulkSwapRun,
  lockPendingPlan,
  nextPendingPlans,
  settlePlan,
  startBulkSwapRun,
  type BulkSwapRunRow,
  type SwapSide,
} from '@nh/server/queries/subscriptions/bulk-swap';
import { defineJob } from '../jobs/define';
import { decideSwap, type SwapDecision } from './swap-rule';

/** Plans per batch (one keyset page; each plan is its own transaction). */
export const BULK_SWAP_BATCH = 100;

export type BulkSwapResult =
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'completed'; settled: number; failed: number }
  | { outcome: 'failed'; reason: string };

export interface BulkSwapDeps {
  db: Db;
  log: Logger;
  batchSize?: number;
}

/** Why a run stops before its end (the words staff see on the run). */
export const BULK_SWAP_STOPPED = {
  toGone: 'The product to swap to is no longer on sale (or its size is gone), so the remaining plans were left as they are. Start a new swap to another product.',
  failed: 'The bulk swap stopped with an error. Plans already swapped stay swapped; it is tried again, or start it again later. An operator can find the details in the worker log.',
} as const;

/** The line swapped in, priced from today's catalogue; null when the product or size is no longer sold. */
async function toLineOf(db: Db, run: BulkSwapRunRow): Promise<((quantity: number) => LineItem) | null> {
  const [row] = await readProductPrices(db.$client, [run.toProductId]);
  if (!row || row.status !== 'active') return null;
  const variants = JSON.parse(row.variants) as ProductVariant[];
  const variant = run.toVariantSku === null ? null : (variants.find((v) => v.sku === run.toVariantSku) ?? null);
  if ((run.toVariantSku === null) !== (variants.length === 0) || (run.toVariantSku !== null && !variant)) return null;
  const product = { id: row.id, name: row.name, price: toCents(row.price), sku: row.sku, itemNumber: row.itemNumber, taxCode: row.taxCode };
  return (quantity) => catalogueLine(product, variant, quantity);
}

const lineWords = ({ productName, quantity }: LineItem) => ({ productName, quantity });

/**
 * One plan: settled once, in the transaction of its change. Answers its outcome, or null when another
 * start of the job settled it already.
 */
async function swapPlan(db: Db, run: BulkSwapRunRow, actor: AuditActor, from: SwapSide, toLine: (quantity: number) => LineItem, id: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    if (!(await lockPendingPlan(tx, run.id, id))) return null;
    let decided: SwapDecision = { outcome: 'skipped-ended' };
    let auditId: number | null = null;
    await changeLockedPlan(
      tx,
      id,
      undefined,
      (plan) => {
        decided = decideSwap(plan, from, toLine);
        return decided.outcome === 'swapped' || decided.outcome === 'merged' ? { ...decided, change: { items: decided.items, amount: decided.amount } } : null;
      },
      async (decision, after) => {
        const [recorded] = await recordAudit(tx, actor, {
          action: 'subscription.bulk_swapped',
          entityType: 'subscription',
          entityId: id,
          before: { items: [...decision.removed, ...(decision.mergedWith ? [decision.mergedWith] : [])].map(lineWords), amount: centsToDecimal(decision.fromAmount) },
          after: { items: [lineWords(decision.added)], amount: centsToDecimal(after.amount), reason: run.reason, bulkSwapRunId: run.id },
        });
        auditId = recorded!;
        await recordOutbox(tx, OUTBOX_TOPICS.subscriptionChangedByStaff, { subscriptionId: id, auditId });
      },
    );
    const outcome = (decided as SwapDecision).outcome;
    await settlePlan(tx, run.id, id, outcome, auditId);
    return outcome;
  });
}

export function createBulkSwapProcessor({ db, log, batchSize = BULK_SWAP_BATCH }: BulkSwapDeps) {
  return async function bulkSwap(job: Pick<Job, 'id' | 'updateProgress'>, { runId }: { runId: string }): Promise<BulkSwapResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'maintenance', runId });
    const run = await startBulkSwapRun(db, runId);
    if (!run) return { outcome: 'skipped', reason: 'run not found' };
    if (run.status === 'completed') return { outcome: 'skipped', reason: 'already completed' };
    const actor: AuditActor = { staffId: run.staffId, email: run.staffEmail, role: run.staffRole, ip: null, userAgent: null, requestId: null };
    const from: SwapSide = { productId: run.fromProductId, variantSku: run.fromVariantSku };
    let settled = 0;
    let failed = 0;
    try {
      let afterId: string | null = null;
      for (;;) {
        const ids = await nextPendingPlans(db, runId, afterId, batchSize);
        if (ids.length === 0) break;
        const toLine = await toLineOf(db, run);
        if (!toLine) {
          await finishBulkSwapRun(db, runId, 'failed', BULK_SWAP_STOPPED.toGone);
          jobLog.warn('bulk swap stopped: the product to swap to is no longer sold');
          return { outcome: 'failed', reason: 'product to swap to no longer sold' };
        }
        for (const id of ids) {
          try {
            if ((await swapPlan(db, run, actor, from, toLine, id)) !== null) settled++;
          } catch (error) {
            // One plan's error does not stop the others; it is counted and logged. (A database that is
            // gone fails this write too, and with it the job, which is tried again.)
            jobLog.error({ err: error, subscriptionId: id }, 'bulk swap: plan not swapped');
            await settlePlan(db, runId, id, 'failed');
            failed++;
          }
        }
        afterId = ids[ids.length - 1]!;
        void job.updateProgress({ settled, failed, total: run.total }).catch(() => {});
      }
      await finishBulkSwapRun(db, runId, 'completed');
      jobLog.info({ settled, failed, total: run.total }, 'bulk swap completed');
      return { outcome: 'completed', settled, failed };
    } catch (error) {
      await finishBulkSwapRun(db, runId, 'failed', BULK_SWAP_STOPPED.failed).catch(() => {});
      jobLog.error({ err: error }, 'bulk swap failed');
      throw error;
    }
  };
}

export const bulkSwapJob = defineJob({
  name: 'bulk-swap',
  queue: 'maintenance',
  payload: z.object({ runId: z.string().uuid() }),
  options: () => ({ attempts: 3, backoff: { type: 'exponential', delay: 5000 } }),
  topics: { [OUTBOX_TOPICS.bulkSwapRequested]: ({ runId }) => ({ runId }) },
  handler: ({ db, log }) => createBulkSwapProcessor({ db, log }),
});
