/**
 * A shopper reports a problem with an order (issue 23; docs/decisions/claims.md): signed in on their own
 * order, or a guest through the emailed order link. The claim lands in the staff queue awaiting review,
 * unless the owner's rule approves it at once: rule on, the claim worth at most its amount, and the
 * customer's first claim (not declined) in its window: then a $0 replacement, as staff's would be (a
 * replacement short of stock stays in the queue for staff). The Idempotency-Key makes a second click
 * the same report.
 */
import { centsToDecimal } from '@nh/shared/money';
import {
  CLAIM_RESOLUTION_LABELS,
  CLAIM_STATUS_LABELS,
  type ClaimResolution,
  type ClaimStatus,
  type ShopperClaimRequest,
} from '@nh/shared/contracts/claims';
import type { Db } from '@nh/server/db/client';
import type { AuditActor } from '@nh/server/queries/audit';
import { earlierCustomerClaims, readClaimSettings, updateClaim } from '@nh/server/queries/claims';
import { AppError } from '../../lib/errors';
import { replaceInTx } from './replacement';
import { openClaim } from './open-claim';
import { attachedPhotoKey } from './photos';
import type { FileStorage } from '@nh/server/storage';

/** Who approves under the owner's rule: no staff member; the audit row says so. */
const RULE_ACTOR: AuditActor = { staffId: null, email: 'Auto-approval rule', role: null, ip: null, userAgent: null, requestId: null };

export interface ShopperClaimView {
  id: string;
  status: ClaimStatus;
  statusLabel: string;
  resolution: ClaimResolution | null;
  resolutionLabel: string | null;
  /** What happens next, in the shopper's words. */
  message: string;
}

export const SHOPPER_CLAIM_WORDS = {
  awaiting: 'Thank you for telling us. Our team will look at your report within one working day and email you.',
  replaced: 'We are sending you a free replacement. You will get its order confirmation by email shortly.',
  notFound: 'We could not find that order.',
} as const;

export interface ShopperClaimAnswer {
  claim: ShopperClaimView;
  replayed: boolean;
}

/** `orderId` is one the caller already showed to be the shopper's (their account's, or the guest link's). */
export async function reportProblem(
  { db, photos }: { db: Db; photos: FileStorage },
  orderId: string,
  input: ShopperClaimRequest,
  key: string,
  requestId: string | null,
): Promise<ShopperClaimAnswer> {
  // A photo uploaded for this order (its key is under the order): one for another order is not found.
  const photoKey = await attachedPhotoKey(photos, orderId, input.photo);
  const done = await db.transaction(async (tx) => {
    const opened = await openClaim(tx, { orderId, key, input, source: 'shopper', staffId: null, photoKey, notFound: SHOPPER_CLAIM_WORDS.notFound });
    if (opened.replayed) return opened;
    const { order, claim } = opened;
    const amount = claim.amountCents;
    const rule = await readClaimSettings(tx);
    if (!rule.autoApprove || amount > rule.maxAmountCents) return { claim, replayed: false };
    const since = new Date();
    since.setUTCMonth(since.getUTCMonth() - rule.windowMonths);
    if ((await earlierCustomerClaims(tx, order.customerId, order.customerEmail, since, claim.id)) > 0) return { claim, replayed: false };
    const noted = await updateClaim(tx, claim.id, {
      decisionNote: `Approved by the owner's rule: first claim in ${rule.windowMonths} months, worth at most $${centsToDecimal(rule.maxAmountCents)}.`,
    });
    try {
      // A savepoint (a nested transaction): a replacement refused rolls back to here only.
      const replaced = await tx.transaction((sp) => replaceInTx(sp, order, noted, { ...RULE_ACTOR, requestId }));
      return { claim: replaced, replayed: false };
    } catch (error) {
      // Not enough stock for a replacement: the claim waits for staff instead.
      if (!(error instanceof AppError) || error.code !== 'NOT_ENOUGH_STOCK') throw error;
      return { claim: await updateClaim(tx, claim.id, { decisionNote: null }), replayed: false };
    }
  });
  const { claim } = done;
  return {
    replayed: done.replayed,
    claim: {
      id: claim.id,
      status: claim.status,
      statusLabel: CLAIM_STATUS_LABELS[claim.status],
      resolution: claim.status === 'resolved' ? claim.resolution : null,
      resolutionLabel: claim.status === 'resolved' && claim.resolution ? CLAIM_RESOLUTION_LABELS[claim.resolution] : null,
      message: claim.status === 'resolved' && claim.resolution === 'replace' ? SHOPPER_CLAIM_WORDS.replaced : SHOPPER_CLAIM_WORDS.awaiting,
    },
  };
}
