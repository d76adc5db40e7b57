/**
 * Bulk swaps (issue 21): which plans carry a product (or one size of it), the run's row and its plans.
 * The API counts and lists the plans for a dry run and records a run; the job (workers/src/bulk-swap/)
 * records the run's plans once, then settles each in the transaction of its plan change (changes.ts
 * changeLockedPlan), so a run killed and started again changes no plan twice.
 */
import { and, asc, count, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bulkSwapPlans, bulkSwapRuns, subscriptions } from '../../db/schema';

/** The plans a swap changes (shared contract BULK_SWAP_STATUSES): active, in dunning or not, and paused. */
const SWAPPED_STATUSES = ['active', 'paused'] as const;

/** A product, or one size (variant SKU) of it, as plan lines name it. */
export interface SwapSide {
  productId: number;
  /** null: every line of the product, whatever its size. */
  variantSku: string | null;
}

/** The plan has a line of `from` (jsonb containment: a line with that product id, and that size when given). */
const carries = (from: SwapSide): SQL => {
  const line: Record<string, unknown> = { productId: from.productId };
  if (from.variantSku !== null) line.variantSku = from.variantSku;
  return sql`${subscriptions.items} @> ${JSON.stringify([line])}::jsonb`;
};

const swappable = (from: SwapSide): SQL => and(inArray(subscriptions.status, [...SWAPPED_STATUSES]), carries(from))!;

/** How many plans a swap of `from` would change now, and the first `limit` of them (by plan id). */
export async function findSwapPlans(
  db: DbOrTx,
  from: SwapSide,
  limit: number,
): Promise<{ count: number; plans: Array<{ id: string; customerName: string; customerEmail: string; status: (typeof SWAPPED_STATUSES)[number] }> }> {
  const where = swappable(from);
  const [plans, [counted]] = await Promise.all([
    db
      .select({ id: subscriptions.id, customerName: subscriptions.customerName, customerEmail: subscriptions.customerEmail, status: subscriptions.status })
      .from(subscriptions)
      .where(where)
      .orderBy(asc(subscriptions.id))
      .limit(limit),
    db.select({ n: count() }).from(subscriptions).where(where),
  ]);
  return { count: counted?.n ?? 0, plans: plans as Array<{ id: string; customerName: string; customerEmail: string; status: 'active' | 'paused' }> };
}

/** Some plan (of any status) has a line of this product in this size: a size no longer sold may still be swapped away. */
export async function anyPlanCarries(db: DbOrTx, from: SwapSide): Promise<boolean> {
  const [row] = await db.select({ id: subscriptions.id }).from(subscriptions).where(carries(from)).limit(1);
  return row !== undefined;
}

export type BulkSwapRunRow = typeof bulkSwapRuns.$inferSelect;

export interface NewBulkSwapRun {
  from: SwapSide;
  to: SwapSide;
  reason: string;
  staffId: string | null;
  staffEmail: string;
  staffRole: BulkSwapRunRow['staffRole'];
}

/** A queued run (the caller writes its outbox row and audit row in the same transaction). */
export async function insertBulkSwapRun(tx: DbOrTx, run: NewBulkSwapRun): Promise<BulkSwapRunRow> {
  const [row] = await tx
    .insert(bulkSwapRuns)
    .values({
      fromProductId: run.from.productId,
      fromVariantSku: run.from.variantSku,
      toProductId: run.to.productId,
      toVariantSku: run.to.variantSku,
      reason: run.reason,
      staffId: run.staffId,
      staffEmail: run.staffEmail,
      staffRole: run.staffRole,
    })
    .returning();
  return row!;
}

/** A run with its plans counted by outcome. */
export interface BulkSwapRunProgress {
  run: BulkSwapRunRow;
  /** Settled plans by outcome, and `pending`. */
  outcomes: Record<string, number>;
}

async function withOutcomes(db: DbOrTx, runs: BulkSwapRunRow[]): Promise<BulkSwapRunProgress[]> {
  if (runs.length === 0) return [];
  const counts = await db
    .select({ runId: bulkSwapPlans.runId, outcome: bulkSwapPlans.outcome, n: count() })
    .from(bulkSwapPlans)
    .where(inArray(bulkSwapPlans.runId, runs.map((r) => r.id)))
    .groupBy(bulkSwapPlans.runId, bulkSwapPlans.outcome);
  return runs.map((run) => ({ run, outcomes: Object.fromEntries(counts.filter((c) => c.runId === run.id).map((c) => [c.outcome, c.n])) }));
}

/** The newest runs, newest first, each with its progress. */
export async function listBulkSwapRuns(db: DbOrTx, limit: number): Promise<BulkSwapRunProgress[]> {
  const runs = await db.select().from(bulkSwapRuns).orderBy(desc(bulkSwapRuns.createdAt), desc(bulkSwapRuns.id)).limit(limit);
  return withOutcomes(db, runs);
}

/** One run with its progress, or null. */
export async function findBulkSwapRun(db: DbOrTx, id: string): Promise<BulkSwapRunProgress | null> {
  const runs = await db.select().from(bulkSwapRuns).where(eq(bulkSwapRuns.id, id));
  return (await withOutcomes(db, runs))[0] ?? null;
}

// ---- The job ----

/**
 * The job starts (or starts again): the run row locked, and on its first start every plan the swap
 * changes recorded as pending (one statement) with the total, the run marked running. Later starts find
 * them recorded and change nothing but the status. Answers the run, or null when there is no such run.
 */
export async function startBulkSwapRun(db: DbOrTx, runId: string): Promise<BulkSwapRunRow | null> {
  return db.transaction(async (tx) => {
    const [run] = await tx.select().from(bulkSwapRuns).where(eq(bulkSwapRuns.id, runId)).for('update');
    if (!run) return null;
    if (run.status === 'completed') return run;
    let total = run.total;
    if (total === null) {
      const from = { productId: run.fromProductId, variantSku: run.fromVariantSku };
      const inserted = await tx.execute(sql`
        insert into ${bulkSwapPlans} (run_id, subscription_id)
        select ${runId}::uuid, ${subscriptions.id} from ${subscriptions} where ${swappable(from)}
        on conflict do nothing`);
      total = inserted.rowCount ?? 0;
    }
    const [row] = await tx
      .update(bulkSwapRuns)
      .set({ status: 'running', total, startedAt: run.startedAt ?? sql`now()`, error: null })
      .where(eq(bulkSwapRuns.id, runId))
      .returning();
    return row!;
  });
}

/** The next `limit` pending plans of the run after `afterId` (keyset, by plan id: the primary key's order). */
export async function nextPendingPlans(db: DbOrTx, runId: string, afterId: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: bulkSwapPlans.subscriptionId })
    .from(bulkSwapPlans)
    .where(and(eq(bulkSwapPlans.runId, runId), eq(bulkSwapPlans.outcome, 'pending'), afterId === null ? undefined : gt(bulkSwapPlans.subscriptionId, afterId)))
    .orderBy(asc(bulkSwapPlans.subscriptionId))
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Locks the run's row of one plan, in the transaction of its change: true while it is pending. Taken
 * before the plan's own lock, and never held by anything else that locks plans, so no deadlock.
 */
export async function lockPendingPlan(tx: DbOrTx, runId: string, subscriptionId: string): Promise<boolean> {
  const [row] = await tx
    .select({ outcome: bulkSwapPlans.outcome })
    .from(bulkSwapPlans)
    .where(and(eq(bulkSwapPlans.runId, runId), eq(bulkSwapPlans.subscriptionId, subscriptionId)))
    .for('update');
  return row?.outcome === 'pending';
}

/** The plan's outcome, in the transaction of its change (a failure in a transaction of its own). */
export async function settlePlan(tx: DbOrTx, runId: string, subscriptionId: string, outcome: string, auditId: number | null = null): Promise<void> {
  await tx
    .update(bulkSwapPlans)
    .set({ outcome, auditId, settledAt: sql`now()` })
    .where(and(eq(bulkSwapPlans.runId, runId), eq(bulkSwapPlans.subscriptionId, subscriptionId), eq(bulkSwapPlans.outcome, 'pending')));
}

/** The run is over: completed, or failed with the words staff see. */
export async function finishBulkSwapRun(db: DbOrTx, runId: string, status: 'completed' | 'failed', error: string | null = null): Promise<void> {
  await db
    .update(bulkSwapRuns)
    .set({ status, error, finishedAt: sql`now()` })
    .where(eq(bulkSwapRuns.id, runId));
}
