/**
 * Bulk swap (issue 21): staff replace one product, or one size of it, with another on every plan that
 * has it (a product reformulated, renamed or retired). POST /api/admin/subscriptions/bulk-swap with
 * `dryRun: true` answers how many plans and which customers would change; with `dryRun: false` it starts
 * a run (a queued job) whose progress GET /api/admin/subscriptions/bulk-swap/runs shows. A size is a
 * product variant's SKU, as a plan line's `variantSku`. docs/decisions/subscriptions.md ("Bulk swap").
 */
import { z } from 'zod';
import { textField } from './fields';
import { SUBSCRIPTION_STATUSES } from './subscriptions';

/** The plans a swap changes: active (in dunning or not) and paused. Ended plans never. */
export const BULK_SWAP_STATUSES = ['active', 'paused'] as const;

/** Customers a dry run names (the count is of every plan). */
export const BULK_SWAP_DRY_RUN_LIST = 50;

export const BULK_SWAP_MESSAGES = {
  productId: 'Choose a product.',
  size: 'Choose a size from the list.',
  reason: 'Please say why the product is swapped.',
  reasonTooLong: 'The reason can be at most 500 characters.',
  dryRun: 'Say whether this is a dry run (true) or the real swap (false).',
  /** 400 BULK_SWAP_SAME_PRODUCT */
  sameProduct: 'Choose a different product or size to swap to: it is the same as the one swapped away.',
  /** 409 BULK_SWAP_UNKNOWN_PRODUCT */
  unknownFrom: 'The product to swap away does not exist.',
  unknownTo: 'The product to swap to does not exist.',
  unknownFromSize: 'The product to swap away has no such size, and no plan has it.',
  unknownToSize: 'The product to swap to has no such size.',
  toNeedsSize: 'The product to swap to comes in sizes: choose one.',
  toHasNoSizes: 'The product to swap to has no sizes: leave the size empty.',
  /** 409 BULK_SWAP_PRODUCT_NOT_ACTIVE */
  toNotActive: 'The product to swap to is not on sale (not active), so plans cannot get it.',
  runNotFound: 'Bulk swap not found',
  pageLimit: 'Limit must be a whole number from 1 to 100',
  // Toasts.
  started: 'Bulk swap started',
} as const;

const productId = z.number({ error: BULK_SWAP_MESSAGES.productId }).int(BULK_SWAP_MESSAGES.productId).positive(BULK_SWAP_MESSAGES.productId);
const size = z.preprocess((v) => (v === '' || v === null ? undefined : v), textField({ max: 100, required: BULK_SWAP_MESSAGES.size, tooLong: BULK_SWAP_MESSAGES.size }).optional());

/** POST /api/admin/subscriptions/bulk-swap. `fromSize` omitted: every line of the product, whatever its size. */
export const bulkSwapRequestSchema = z.object({
  fromProductId: productId,
  fromSize: size,
  toProductId: productId,
  toSize: size,
  dryRun: z.boolean({ error: BULK_SWAP_MESSAGES.dryRun }),
  /** Kept in every plan's audit row; not sent to the customers. */
  reason: textField({ max: 500, required: BULK_SWAP_MESSAGES.reason, tooLong: BULK_SWAP_MESSAGES.reasonTooLong }).min(1, BULK_SWAP_MESSAGES.reason),
});
export type BulkSwapRequest = z.input<typeof bulkSwapRequestSchema>;

export const bulkSwapPlanSchema = z.object({
  id: z.string().uuid(),
  customerName: z.string(),
  customerEmail: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
});

/** The dry run's answer: how many plans, and the first BULK_SWAP_DRY_RUN_LIST of them (by plan id). */
export const bulkSwapDryRunSchema = z.object({
  dryRun: z.literal(true),
  count: z.number().int(),
  plans: z.array(bulkSwapPlanSchema),
  from: z.string(),
  to: z.string(),
});
export type BulkSwapDryRun = z.infer<typeof bulkSwapDryRunSchema>;

export const BULK_SWAP_RUN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type BulkSwapRunStatus = (typeof BULK_SWAP_RUN_STATUSES)[number];
export const BULK_SWAP_RUN_STATUS_LABELS: Record<BulkSwapRunStatus, string> = {
  queued: 'Waiting to start',
  running: 'Running',
  completed: 'Finished',
  failed: 'Stopped with an error',
};

/** What happened to one plan of a run. */
export const BULK_SWAP_OUTCOMES = ['pending', 'swapped', 'merged', 'skipped-changed', 'skipped-ended', 'skipped-busy', 'skipped-quantity', 'failed'] as const;
export type BulkSwapOutcome = (typeof BULK_SWAP_OUTCOMES)[number];
export const BULK_SWAP_OUTCOME_LABELS: Record<BulkSwapOutcome, string> = {
  pending: 'Not done yet',
  swapped: 'Swapped',
  merged: 'Swapped, added to the same item already on the plan',
  'skipped-changed': 'Skipped: the plan no longer has the product (changed meanwhile)',
  'skipped-ended': 'Skipped: the plan ended meanwhile',
  'skipped-busy': 'Skipped: a charge for its next delivery was under way (run the swap again for these)',
  'skipped-quantity': 'Skipped: the merged quantity would be over the most a line may have',
  failed: 'Failed (see the worker log)',
};

export const bulkSwapRunSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(BULK_SWAP_RUN_STATUSES),
  from: z.string(),
  to: z.string(),
  reason: z.string(),
  /** Plans of the run (null until the job has recorded them). */
  total: z.number().int().nullable(),
  /** Settled (any outcome but pending). */
  done: z.number().int(),
  /** Swapped or merged. */
  changed: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  /** Plans by outcome (settled only). */
  outcomes: z.record(z.string(), z.number().int()),
  staffEmail: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type BulkSwapRun = z.infer<typeof bulkSwapRunSchema>;

export const bulkSwapStartedSchema = bulkSwapRunSchema.extend({ dryRun: z.literal(false) });
export type BulkSwapStarted = z.infer<typeof bulkSwapStartedSchema>;

export const bulkSwapRunsSchema = z.object({ runs: z.array(bulkSwapRunSchema) });
export type BulkSwapRuns = z.infer<typeof bulkSwapRunsSchema>;

/** GET /api/admin/subscriptions/bulk-swap/runs: newest first. */
export const bulkSwapRunsQuerySchema = z.object({
  limit: z.coerce.number({ error: BULK_SWAP_MESSAGES.pageLimit }).int(BULK_SWAP_MESSAGES.pageLimit).min(1, BULK_SWAP_MESSAGES.pageLimit).max(100, BULK_SWAP_MESSAGES.pageLimit).default(20),
});
