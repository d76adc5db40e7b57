/**
 * A claim resolved with a replacement: a $0 order through the normal pipeline (stock taken, `order.placed`
 * for the emails and NetSuite), shared by staff's decisions and the owner's auto-approve rule.
 */
import { centsToDecimal, stockByProduct } from '@nh/shared';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { CLAIM_MESSAGES, CLAIM_REASON_LABELS, CLAIM_RESOLUTION_LABELS, CLAIM_STATUS_LABELS, type ClaimReason } from '@nh/shared/contracts/claims';
import type { DbOrTx } from '@nh/server/db/client';
import type { ClaimRow, LineItem, OrderRow } from '@nh/server/db/schema';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { insertReplacementOrder, updateClaim } from '@nh/server/queries/claims';
import { recordOutbox } from '@nh/server/queries/outbox';
import { takeStock } from '@nh/server/queries/stock';
import { AppError } from '../../lib/errors';
import { lineItems } from './open-claim';

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
  await auditClaimDecision(tx, actor, resolved, order.id);
  return resolved;
}

/** The audit row of a claim's decision (resolved or declined), in words. */
export async function auditClaimDecision(tx: DbOrTx, actor: AuditActor, claim: ClaimRow, orderId: string): Promise<void> {
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
