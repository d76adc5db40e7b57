/**
 * Bulk swap (issue 21): one product, or one size of it, replaced by another on every active or paused
 * plan that has it. The dry run counts the plans and names the first of them; the real run records the
 * run (who, why, from, to), its audit row and the outbox row that queues its job (workers/src/bulk-swap/),
 * which changes the plans one by one, each through changeLockedPlan with its own audit row and email.
 * A size is a product variant's SKU (a plan line's `variantSku`). docs/decisions/subscriptions.md ("Bulk swap").
 */
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { recordOutbox } from '@nh/server/queries/outbox';
import {
  anyPlanCarries,
  findBulkSwapRun,
  findSwapPlans,
  insertBulkSwapRun,
  listBulkSwapRuns,
  type BulkSwapRunProgress,
  type SwapSide,
} from '@nh/server/queries/subscriptions/bulk-swap';
import type { Db } from '@nh/server/db/client';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import {
  BULK_SWAP_DRY_RUN_LIST,
  BULK_SWAP_MESSAGES as MSG,
  type BulkSwapDryRun,
  type BulkSwapRun,
  type BulkSwapRunStatus,
  type BulkSwapStarted,
} from '@nh/shared/contracts/bulk-swap';
import type { z } from 'zod';
import type { bulkSwapRequestSchema } from '@nh/shared/contracts/bulk-swap';
import type { PricedProduct } from '../../catalog';
import { AppError } from '../../../lib/errors';
import { isUuid } from '../../../lib/validation';

/** The catalogue, read fresh (a product just retired or re-priced counts). */
export type ProductLookup = (ids: number[]) => Promise<Map<number, PricedProduct>>;

type Request = z.output<typeof bulkSwapRequestSchema>;

/** "Product" or "Product - Size" (a size no longer sold by its SKU); a product gone since by its number. */
function sideName(products: Map<number, PricedProduct>, side: SwapSide): string {
  const product = products.get(side.productId);
  if (!product) return `Product #${side.productId}${side.variantSku ? ` (size ${side.variantSku})` : ''}`;
  if (side.variantSku === null) return product.name;
  const variant = product.variants.find((v) => v.sku === side.variantSku);
  return variant ? `${product.name} - ${variant.label}` : `${product.name} (size ${side.variantSku})`;
}

/** The refusals: the same product and size on both sides (400), an unknown product or size, or a product to swap to not on sale (409). */
async function checkSides(db: Db, lookUp: ProductLookup, from: SwapSide, to: SwapSide): Promise<Map<number, PricedProduct>> {
  if (from.productId === to.productId && from.variantSku === to.variantSku) throw new AppError('BULK_SWAP_SAME_PRODUCT', MSG.sameProduct);
  const products = await lookUp([...new Set([from.productId, to.productId])]);
  const fromProduct = products.get(from.productId);
  const toProduct = products.get(to.productId);
  if (!fromProduct) throw new AppError('BULK_SWAP_UNKNOWN_PRODUCT', MSG.unknownFrom, { productId: from.productId });
  if (!toProduct) throw new AppError('BULK_SWAP_UNKNOWN_PRODUCT', MSG.unknownTo, { productId: to.productId });
  // A size no longer sold may still be swapped away, as long as some plan has it.
  if (from.variantSku !== null && !fromProduct.variants.some((v) => v.sku === from.variantSku) && !(await anyPlanCarries(db, from)))
    throw new AppError('BULK_SWAP_UNKNOWN_PRODUCT', MSG.unknownFromSize, { productId: from.productId, size: from.variantSku });
  if (to.variantSku === null && toProduct.variants.length > 0) throw new AppError('BULK_SWAP_UNKNOWN_PRODUCT', MSG.toNeedsSize, { productId: to.productId });
  if (to.variantSku !== null && toProduct.variants.length === 0) throw new AppError('BULK_SWAP_UNKNOWN_PRODUCT', MSG.toHasNoSizes, { productId: to.productId });
  if (to.variantSku !== null && !toProduct.variants.some((v) => v.sku === to.variantSku))
    throw new AppError('BULK_SWAP_UNKNOWN_PRODUCT', MSG.unknownToSize, { productId: to.productId, size: to.variantSku });
  if (toProduct.status !== 'active') throw new AppError('BULK_SWAP_PRODUCT_NOT_ACTIVE', MSG.toNotActive, { productId: to.productId });
  return products;
}

const SKIPPED = ['skipped-changed', 'skipped-ended', 'skipped-busy', 'skipped-quantity'];

function runView({ run, outcomes }: BulkSwapRunProgress, products: Map<number, PricedProduct>): BulkSwapRun {
  const n = (outcome: string) => outcomes[outcome] ?? 0;
  const done = Object.entries(outcomes).reduce((sum, [outcome, count]) => (outcome === 'pending' ? sum : sum + count), 0);
  return {
    id: run.id,
    status: run.status as BulkSwapRunStatus,
    from: sideName(products, { productId: run.fromProductId, variantSku: run.fromVariantSku }),
    to: sideName(products, { productId: run.toProductId, variantSku: run.toVariantSku }),
    reason: run.reason,
    total: run.total,
    done,
    changed: n('swapped') + n('merged'),
    skipped: SKIPPED.reduce((sum, outcome) => sum + n(outcome), 0),
    failed: n('failed'),
    outcomes: Object.fromEntries(Object.entries(outcomes).filter(([outcome]) => outcome !== 'pending')),
    staffEmail: run.staffEmail,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    error: run.error,
  };
}

async function runViews(lookUp: ProductLookup, runs: BulkSwapRunProgress[]): Promise<BulkSwapRun[]> {
  const products = await lookUp([...new Set(runs.flatMap(({ run }) => [run.fromProductId, run.toProductId]))]);
  return runs.map((run) => runView(run, products));
}

/** POST /api/admin/subscriptions/bulk-swap: a dry run's count and customers, or the run started. */
export async function bulkSwap(db: Db, lookUp: ProductLookup, input: Request, actor: AuditActor): Promise<BulkSwapDryRun | BulkSwapStarted> {
  const from: SwapSide = { productId: input.fromProductId, variantSku: input.fromSize ?? null };
  const to: SwapSide = { productId: input.toProductId, variantSku: input.toSize ?? null };
  const products = await checkSides(db, lookUp, from, to);
  const names = { from: sideName(products, from), to: sideName(products, to) };
  if (input.dryRun) {
    const { count, plans } = await findSwapPlans(db, from, BULK_SWAP_DRY_RUN_LIST);
    return { dryRun: true, count, plans, ...names };
  }
  const run = await db.transaction(async (tx) => {
    const row = await insertBulkSwapRun(tx, { from, to, reason: input.reason, staffId: actor.staffId, staffEmail: actor.email, staffRole: actor.role });
    await recordOutbox(tx, OUTBOX_TOPICS.bulkSwapRequested, { runId: row.id });
    await recordAudit(tx, actor, {
      action: 'subscription.bulk_swap_started',
      entityType: 'bulk_swap',
      entityId: row.id,
      before: null,
      after: { from: { ...from, name: names.from }, to: { ...to, name: names.to }, reason: input.reason },
    });
    return row;
  });
  return { dryRun: false, ...runView({ run, outcomes: {} }, products) };
}

export async function bulkSwapRuns(db: Db, lookUp: ProductLookup, limit: number): Promise<{ runs: BulkSwapRun[] }> {
  return { runs: await runViews(lookUp, await listBulkSwapRuns(db, limit)) };
}

export async function bulkSwapRun(db: Db, lookUp: ProductLookup, id: string): Promise<BulkSwapRun> {
  const found = isUuid(id) ? await findBulkSwapRun(db, id) : null;
  if (!found) throw new AppError('NOT_FOUND', MSG.runNotFound);
  return (await runViews(lookUp, [found]))[0]!;
}
