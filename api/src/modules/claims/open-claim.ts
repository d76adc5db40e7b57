/**
 * The one way a claim is opened (docs/decisions/claims.md), for staff's claim on an order and a
 * shopper's report alike: the order row locked (two claims of one order take turns), the
 * Idempotency-Key replayed (the same claim again is answered, a key reused for another claim refused),
 * the order checked claimable, the lines checked against what is left to claim, the claimed lines'
 * value computed, then the claim row written awaiting review. What differs between the two callers
 * (staff's resolution and its refusals, the owner's rule) is theirs, before and after.
 */
import { parseCents, type Cents } from '@nh/shared';
import { CLAIM_MESSAGES, type ClaimReason, type ClaimResolution } from '@nh/shared/contracts/claims';
import type { DbOrTx } from '@nh/server/db/client';
import type { ClaimLine, ClaimRow, LineItem, OrderRow } from '@nh/server/db/schema';
import { claimedQuantities, findClaimByKey, insertClaim, lockOrderForClaim } from '@nh/server/queries/claims';
import { AppError } from '../../lib/errors';
import type { IdempotencyMessages } from '../../lib/idempotency';

/** The Idempotency-Key messages of a claim, staff's or a shopper's. */
export const CLAIM_IDEMPOTENCY_MESSAGES: IdempotencyMessages = {
  missing: CLAIM_MESSAGES.idempotencyKeyMissing,
  invalid: CLAIM_MESSAGES.idempotencyKeyInvalid,
  reused: CLAIM_MESSAGES.idempotencyKeyReused,
  inProgress: CLAIM_MESSAGES.idempotencyInProgress,
};

export interface ClaimInput {
  lines: ClaimLine[];
  reason: ClaimReason;
  note: string;
}

export const lineItems = (order: OrderRow): LineItem[] => (Array.isArray(order.items) ? order.items : []);

/**
 * What the claimed lines were paid: each line's share of what the order's goods cost after discounts,
 * with their tax (the total less shipping, shared by the lines' undiscounted prices), in cents.
 */
export function claimValue(order: Pick<OrderRow, 'items' | 'subtotal' | 'total' | 'shipping'>, lines: readonly ClaimLine[]): Cents {
  const items = Array.isArray(order.items) ? order.items : [];
  const goods = order.total - order.shipping;
  if (order.subtotal <= 0 || goods <= 0) return 0;
  const claimed = lines.reduce((sum, l) => sum + (parseCents(items[l.line]?.price ?? '0') ?? 0) * l.quantity, 0);
  return Math.min(goods, Math.round((claimed * goods) / order.subtotal));
}

/** Refuses lines the order does not have, or more than is left to claim of them (earlier claims counted). */
export async function checkLines(tx: DbOrTx, order: OrderRow, lines: readonly ClaimLine[]): Promise<void> {
  const items = lineItems(order);
  const claimed = await claimedQuantities(tx, order.id);
  for (const l of lines) {
    const item = items[l.line];
    if (!item) throw new AppError('VALIDATION_FAILED', CLAIM_MESSAGES.noSuchLine(l.line, items.length), { fields: { lines: CLAIM_MESSAGES.noSuchLine(l.line, items.length) } });
    const left = Math.max(0, item.quantity - (claimed.get(l.line) ?? 0));
    if (l.quantity > left) throw new AppError('CLAIM_OVER_CLAIMED', CLAIM_MESSAGES.overClaimed(item.productName, left), { line: l.line, claimable: left });
  }
}

/** Only an order that was paid (or is a replacement) and not cancelled can be claimed on. */
export function checkClaimable(order: OrderRow): void {
  if (order.status === 'pending' || order.status === 'cancelled') throw new AppError('CLAIM_NOT_CLAIMABLE', CLAIM_MESSAGES.notShippable);
}

/** The same claim again (a second click)? A key reused for another claim is refused. */
export function sameClaim(row: ClaimRow, input: ClaimInput & { resolution?: ClaimResolution }): boolean {
  const sorted = (lines: readonly ClaimLine[]) => JSON.stringify([...lines].sort((a, b) => a.line - b.line).map((l) => [l.line, l.quantity]));
  return sorted(row.lines) === sorted(input.lines) && row.reason === input.reason && (input.resolution === undefined || row.resolution === input.resolution || row.status === 'awaiting_review');
}

export interface OpenClaimRequest {
  orderId: string;
  /** Staff name the store; a shopper's order was already shown to be theirs. */
  storeCode?: string;
  key: string;
  input: ClaimInput & { resolution?: ClaimResolution };
  source: ClaimRow['source'];
  staffId: string | null;
  photoKey?: string | null;
  /** The 404's words when the order is not there (staff and shoppers are told differently). */
  notFound: string;
  /** The caller's own refusals, once the order is locked and the claim's value known, before anything is written. */
  beforeWriting?: (order: OrderRow, amount: Cents) => Promise<void>;
}

export interface OpenedClaim {
  order: OrderRow;
  claim: ClaimRow;
  /** The key's earlier claim, answered again: nothing was written. */
  replayed: boolean;
}

/** Opens a claim inside the caller's transaction (the order stays locked until it ends). */
export async function openClaim(tx: DbOrTx, request: OpenClaimRequest): Promise<OpenedClaim> {
  const { orderId, key, input } = request;
  const order = await lockOrderForClaim(tx, orderId, request.storeCode);
  if (!order) throw new AppError('NOT_FOUND', request.notFound);
  const earlier = await findClaimByKey(tx, orderId, key);
  if (earlier) {
    if (!sameClaim(earlier, input)) throw new AppError('IDEMPOTENCY_KEY_REUSED', CLAIM_MESSAGES.idempotencyKeyReused);
    return { order, claim: earlier, replayed: true };
  }
  checkClaimable(order);
  await checkLines(tx, order, input.lines);
  const amount = claimValue(order, input.lines);
  await request.beforeWriting?.(order, amount);
  const claim = await insertClaim(tx, {
    orderId,
    idempotencyKey: key,
    source: request.source,
    lines: input.lines,
    reason: input.reason,
    note: input.note || null,
    photoKey: request.photoKey ?? null,
    status: 'awaiting_review',
    resolution: input.resolution ?? null,
    amountCents: amount,
    staffId: request.staffId,
    decisionNote: null,
    decidedAt: null,
  });
  return { order, claim, replayed: false };
}
