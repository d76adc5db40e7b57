/**
 * Damage claims (issue 23; docs/decisions/claims.md).
 *
 * A claim names lines of an order and how many of each (never more than ordered less earlier claims not
 * declined), a reason, and how it is resolved:
 * - `replace`: a $0 replacement order through the normal pipeline, in the claim's own transaction: the
 *   stock taken by the one stock rule, the order inserted as paid, its `order.placed` outbox row (the
 *   confirmation email and the NetSuite sync, whose sales order names the original), the audit row.
 * - `refund`: the existing refund flow (refunds.ts) for the claimed lines' value, keyed by the claim.
 * - `credit`: the existing refund-to-credit flow (the store-credit ledger), keyed by the claim; a guest's
 *   order has no ledger: 409 before anything is written.
 * Staff's claims are resolved at once; a shopper's wait in the queue unless the owner's rule approves
 * them. The Idempotency-Key makes a second click the same claim: the order row is locked while the claim
 * is made, so a second request with the key waits, then finds the claim and answers it.
 */
import { centsToDecimal, parseCents, stockByProduct, type Cents } from '@nh/shared';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { can } from '@nh/shared/contracts/staff';
import {
  CLAIM_MESSAGES,
  CLAIM_REASON_LABELS,
  CLAIM_RESOLUTION_LABELS,
  CLAIM_STATUS_LABELS,
  type AdminClaim,
  type ClaimReason,
  type ClaimResolution,
} from '@nh/shared/contracts/claims';
import type { Db, DbOrTx } from '@nh/server/db/client';
import type { ClaimLine, ClaimRow, LineItem, OrderRow } from '@nh/server/db/schema';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import {
  claimedQuantities,
  findClaim,
  findClaimByKey,
  findClaimRow,
  insertClaim,
  insertReplacementOrder,
  lockClaim,
  lockOrderForClaim,
  updateClaim,
  type ClaimListRow,
} from '@nh/server/queries/claims';
import { recordOutbox } from '@nh/server/queries/outbox';
import { takeStock } from '@nh/server/queries/stock';
import { orderAccount } from '@nh/server/queries/store-credit';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { AppError } from '../../../lib/errors';
import type { IdempotencyMessages } from '../../../lib/idempotency';
import { grantLimitOf } from '../credit/service';
import { refundOrder, type RefundDeps } from '../orders/refunds';
import { refundToCredit } from '../orders/refund-to-credit';
import { creditOverLimitMessage } from '@nh/shared/contracts/store-credit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const CLAIM_IDEMPOTENCY_MESSAGES: IdempotencyMessages = {
  missing: CLAIM_MESSAGES.idempotencyKeyMissing,
  invalid: CLAIM_MESSAGES.idempotencyKeyInvalid,
  reused: CLAIM_MESSAGES.idempotencyKeyReused,
  inProgress: CLAIM_MESSAGES.idempotencyInProgress,
};

export interface ClaimDeps extends RefundDeps {
  /** The most store credit a support agent gives at once (SUPPORT_CREDIT_LIMIT). */
  supportCreditLimit: Cents;
}

export interface ClaimInput {
  lines: ClaimLine[];
  reason: ClaimReason;
  note: string;
}

const lineItems = (order: OrderRow): LineItem[] => (Array.isArray(order.items) ? order.items : []);

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

/** Refusals of a resolution before anything is written: the role's limits, a guest's credit, nothing paid. */
async function checkResolution(tx: DbOrTx, deps: ClaimDeps, order: OrderRow, resolution: ClaimResolution, amount: Cents, actor: AuditActor | null): Promise<void> {
  if (resolution === 'replace') return;
  if (resolution === 'refund' && actor?.role && !can(actor.role, 'orders.refund')) {
    throw new AppError('STAFF_FORBIDDEN', 'Your role cannot refund orders: resolve the claim with a replacement or store credit, or ask a manager.');
  }
  if (resolution === 'credit') {
    if (!(await orderAccount(tx, order.id))) throw new AppError('CLAIM_NO_ACCOUNT', CLAIM_MESSAGES.noAccount);
    const limit = actor ? grantLimitOf(actor.role, deps.supportCreditLimit) : null;
    if (limit !== null && amount > limit) throw new AppError('CREDIT_OVER_LIMIT', creditOverLimitMessage(limit), { limit: centsToDecimal(limit) });
  }
  if (amount <= 0) throw new AppError('CLAIM_NOT_CLAIMABLE', CLAIM_MESSAGES.nothingToRefund);
}

/**
 * The replacement, inside the caller's transaction (the order row already locked): stock taken, the $0
 * order inserted as paid, its `order.placed` row, the claim resolved and audited.
 */
export async function replaceInTx(tx: DbOrTx, order: OrderRow, claim: ClaimRow, actor: AuditActor): Promise<ClaimRow> {
  const items = lineItems(order);
  const replacement: LineItem[] = claim.lines.map((l) => ({ ...items[l.line]!, quantity: l.quantity, price: '0.00', oneTime: undefined, oneTimeLineId: undefined }));
  const { productIds, quantities } = stockByProduct(replacement);
  const short = await takeStock(
    tx,
    productIds.map((productId, i) => ({ productId, quantity: quantities[i]! })),
  );
  if (short.length) throw new AppError('NOT_ENOUGH_STOCK', CLAIM_MESSAGES.stock(short[0]!.name ?? 'a product', short[0]!.available), { productId: short[0]!.productId });
  const replacementId = await insertReplacementOrder(tx, order, replacement.map((l) => JSON.parse(JSON.stringify(l)) as LineItem));
  await recordOutbox(tx, OUTBOX_TOPICS.orderPlaced, { orderId: replacementId }, actor.requestId);
  const resolved = await updateClaim(tx, claim.id, { status: 'resolved', resolution: 'replace', replacementOrderId: replacementId, staffId: actor.staffId ?? claim.staffId, decidedAt: new Date() });
  await audit(tx, actor, resolved, order.id);
  return resolved;
}

async function audit(tx: DbOrTx, actor: AuditActor, claim: ClaimRow, orderId: string): Promise<void> {
  await recordAudit(tx, actor, {
    action: claim.status === 'declined' ? 'order.claim_declined' : 'order.claim_resolved',
    entityType: 'order',
    entityId: orderId,
    before: { claim: claim.id, status: 'awaiting_review' },
    after: {
      claim: claim.id,
      status: CLAIM_STATUS_LABELS[claim.status],
      resolution: claim.resolution ? CLAIM_RESOLUTION_LABELS[claim.resolution] : null,
      reason: CLAIM_REASON_LABELS[claim.reason as ClaimReason] ?? claim.reason,
      lines: claim.lines,
      amount: centsToDecimal(claim.amountCents),
      replacementOrderId: claim.replacementOrderId,
      note: claim.decisionNote ?? claim.note,
    },
  });
}

/**
 * A refund or credit for a claim already written (awaiting review with its resolution chosen): the
 * existing flows, keyed by the claim (a retry never gives twice), then the claim resolved and audited.
 */
async function refundForClaim(deps: ClaimDeps, storeCode: string, claim: ClaimRow, resolution: 'refund' | 'credit', actor: AuditActor): Promise<ClaimRow> {
  const key = `claim-${claim.id}`;
  const reason = `Damage claim: ${CLAIM_REASON_LABELS[claim.reason as ClaimReason] ?? claim.reason}${claim.note ? ` (${claim.note})` : ''}`.slice(0, 500);
  // The customer is told, as by any refund staff make with "Notify the customer" ticked.
  const request = { storeCode, amount: claim.amountCents, reason, restock: false, notify: true, method: resolution === 'refund' ? ('card' as const) : ('credit' as const) };
  if (resolution === 'refund') await refundOrder(deps, storeCode, claim.orderId, request, key, actor);
  else await refundToCredit(deps.db, storeCode, claim.orderId, request, key, actor);
  return deps.db.transaction(async (tx) => {
    const locked = (await lockClaim(tx, claim.id))!;
    if (locked.status !== 'awaiting_review') return locked;
    const resolved = await updateClaim(tx, claim.id, { status: 'resolved', resolution, staffId: actor.staffId ?? locked.staffId, decidedAt: new Date() });
    await audit(tx, actor, resolved, claim.orderId);
    return resolved;
  });
}

export interface ClaimAnswer {
  claim: AdminClaim;
  replayed: boolean;
}

/** Staff make a claim and resolve it at once (POST /api/admin/orders/{id}/claims). */
export async function createStaffClaim(
  deps: ClaimDeps,
  storeCode: string,
  orderId: string,
  input: ClaimInput & { resolution: ClaimResolution },
  key: string,
  actor: AuditActor,
): Promise<ClaimAnswer> {
  const { db } = deps;
  if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  const made = await db.transaction(async (tx) => {
    const order = await lockOrderForClaim(tx, orderId, storeCode);
    if (!order) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
    const earlier = await findClaimByKey(tx, orderId, key);
    if (earlier) {
      if (!sameClaim(earlier, input)) throw new AppError('IDEMPOTENCY_KEY_REUSED', CLAIM_MESSAGES.idempotencyKeyReused);
      return { claim: earlier, replayed: true };
    }
    checkClaimable(order);
    await checkLines(tx, order, input.lines);
    const amount = claimValue(order, input.lines);
    await checkResolution(tx, deps, order, input.resolution, amount, actor);
    const claim = await insertClaim(tx, {
      orderId,
      idempotencyKey: key,
      source: 'staff',
      lines: input.lines,
      reason: input.reason,
      note: input.note || null,
      photoKey: null,
      status: 'awaiting_review',
      resolution: input.resolution,
      amountCents: amount,
      staffId: actor.staffId,
      decisionNote: null,
      decidedAt: null,
    });
    if (input.resolution === 'replace') return { claim: await replaceInTx(tx, order, claim, actor), replayed: false };
    return { claim, replayed: false };
  });
  let claim = made.claim;
  // Refund or credit: the money moves after the claim is on record (a retry with the key finishes it).
  if (claim.status === 'awaiting_review' && claim.source === 'staff' && (claim.resolution === 'refund' || claim.resolution === 'credit')) {
    claim = await refundForClaim(deps, storeCode, claim, claim.resolution, actor);
  }
  return { claim: await claimView(db, claim.id), replayed: made.replayed };
}

/** Staff approve a claim of the queue with the resolution they chose (POST /api/admin/claims/{id}/approve). */
export async function approveClaim(deps: ClaimDeps, claimId: string, resolution: ClaimResolution, note: string, actor: AuditActor): Promise<AdminClaim> {
  const { db } = deps;
  if (!UUID.test(claimId)) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
  const { claim, storeCode } = await db.transaction(async (tx) => {
    const row = await findClaimRow(tx, claimId);
    if (!row) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
    // The order first, then the claim: the order every claim write locks in.
    const order = (await lockOrderForClaim(tx, row.orderId))!;
    const locked = (await lockClaim(tx, claimId))!;
    if (locked.status !== 'awaiting_review') throw new AppError('CLAIM_ALREADY_DECIDED', CLAIM_MESSAGES.notAwaiting);
    checkClaimable(order);
    await checkResolution(tx, deps, order, resolution, locked.amountCents, actor);
    const chosen = await updateClaim(tx, claimId, { resolution, decisionNote: note || null, staffId: actor.staffId });
    return { claim: resolution === 'replace' ? await replaceInTx(tx, order, chosen, actor) : chosen, storeCode: order.storeCode };
  });
  const done = claim.status === 'awaiting_review' && resolution !== 'replace' ? await refundForClaim(deps, storeCode, claim, resolution, actor) : claim;
  return claimView(db, done.id);
}

/** Staff decline a claim of the queue, saying why (POST /api/admin/claims/{id}/decline). */
export async function declineClaim(db: Db, claimId: string, note: string, actor: AuditActor): Promise<AdminClaim> {
  if (!UUID.test(claimId)) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
  await db.transaction(async (tx) => {
    const row = await lockClaim(tx, claimId);
    if (!row) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
    if (row.status !== 'awaiting_review') throw new AppError('CLAIM_ALREADY_DECIDED', CLAIM_MESSAGES.notAwaiting);
    const declined = await updateClaim(tx, claimId, { status: 'declined', resolution: null, decisionNote: note, staffId: actor.staffId, decidedAt: new Date() });
    await audit(tx, actor, declined, row.orderId);
  });
  return claimView(db, claimId);
}

/** A claim as staff see it. */
export function toAdminClaim(row: ClaimListRow): AdminClaim {
  const { claim } = row;
  const items = Array.isArray(row.orderItems) ? row.orderItems : [];
  const reason = claim.reason as ClaimReason;
  return {
    id: claim.id,
    orderId: claim.orderId,
    customerEmail: row.customerEmail,
    customerName: row.customerName,
    source: claim.source,
    lines: claim.lines.map((l) => ({ line: l.line, quantity: l.quantity, productName: items[l.line]?.productName ?? `Line ${l.line + 1}` })),
    reason,
    reasonLabel: CLAIM_REASON_LABELS[reason] ?? claim.reason,
    note: claim.note,
    hasPhoto: claim.photoKey !== null,
    status: claim.status,
    statusLabel: CLAIM_STATUS_LABELS[claim.status],
    resolution: claim.resolution,
    resolutionLabel: claim.resolution ? CLAIM_RESOLUTION_LABELS[claim.resolution] : null,
    amount: centsToDecimal(claim.amountCents),
    replacementOrderId: claim.replacementOrderId,
    staffEmail: row.staffEmail,
    decisionNote: claim.decisionNote,
    decidedAt: claim.decidedAt?.toISOString() ?? null,
    createdAt: claim.createdAt.toISOString(),
  };
}

export async function claimView(db: Db, id: string): Promise<AdminClaim> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
  const row = await findClaim(db, id);
  if (!row) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
  return toAdminClaim(row);
}
