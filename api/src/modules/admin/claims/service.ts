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
import { centsToDecimal, type Cents } from '@nh/shared';
import { can } from '@nh/shared/contracts/staff';
import {
  CLAIM_MESSAGES,
  CLAIM_PHOTO_MESSAGES,
  CLAIM_REASON_LABELS,
  CLAIM_RESOLUTION_LABELS,
  CLAIM_STATUS_LABELS,
  type AdminClaim,
  type ClaimReason,
  type ClaimResolution,
} from '@nh/shared/contracts/claims';
import type { Db, DbOrTx } from '@nh/server/db/client';
import type { ClaimRow, OrderRow } from '@nh/server/db/schema';
import type { AuditActor } from '@nh/server/queries/audit';
import { findClaim, findClaimRow, lockClaim, lockOrderForClaim, updateClaim, type ClaimListRow } from '@nh/server/queries/claims';
import { orderAccount } from '@nh/server/queries/store-credit';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { AppError } from '../../../lib/errors';
import { grantLimitOf } from '../credit/service';
import { refundOrder, type RefundDeps } from '../orders/refunds';
import { refundToCredit } from '../orders/refund-to-credit';
import { creditOverLimitMessage } from '@nh/shared/contracts/store-credit';
import { checkClaimable, openClaim, type ClaimInput } from '../../claims/open-claim';
import { attachedPhotoKey } from '../../claims/photos';
import { auditClaimDecision, replaceInTx } from '../../claims/replacement';
import type { FileStorage } from '@nh/server/storage';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ClaimDeps extends RefundDeps {
  /** The most store credit a support agent gives at once (SUPPORT_CREDIT_LIMIT). */
  supportCreditLimit: Cents;
  /** The private store of claims' photos. */
  photos: FileStorage;
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
    await auditClaimDecision(tx, actor, resolved, claim.orderId);
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
  input: ClaimInput & { resolution: ClaimResolution; photo?: string },
  key: string,
  actor: AuditActor,
): Promise<ClaimAnswer> {
  const { db } = deps;
  if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  const photoKey = await attachedPhotoKey(deps.photos, orderId, input.photo);
  const made = await db.transaction(async (tx) => {
    const opened = await openClaim(tx, {
      orderId,
      storeCode,
      key,
      input,
      source: 'staff',
      staffId: actor.staffId,
      photoKey,
      notFound: ADMIN_MESSAGES.orderNotFound,
      beforeWriting: (order, amount) => checkResolution(tx, deps, order, input.resolution, amount, actor),
    });
    if (!opened.replayed && input.resolution === 'replace') return { claim: await replaceInTx(tx, opened.order, opened.claim, actor), replayed: false };
    return opened;
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
    await auditClaimDecision(tx, actor, declined, row.orderId);
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

/** The stored photo of a claim (its key), for staff to read; 404 when the claim has none. */
export async function claimPhotoKeyOf(db: Db, id: string): Promise<string> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
  const row = await findClaimRow(db, id);
  if (!row) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
  if (!row.photoKey) throw new AppError('NOT_FOUND', CLAIM_PHOTO_MESSAGES.none);
  return row.photoKey;
}

export async function claimView(db: Db, id: string): Promise<AdminClaim> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
  const row = await findClaim(db, id);
  if (!row) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
  return toAdminClaim(row);
}
