/**
 * The customer confirms a new email address (issue 23; docs/decisions/admin.md, "Changing a customer's
 * email"): the emailed link opens /account/confirm-email/<token>, whose page shows the change
 * (`showEmailChange`, which spends nothing: mail scanners and link previews open links) and confirms it
 * on the customer's click (`confirmEmailChange`). Only then does the account's email change; the old
 * address is told (an email from the outbox). The token is looked up by its hash only.
 */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { applyEmailChange, emailUsedByAnotherAccount, lockAccountEmail, lockEmailChangeByHash, newerEmailChangeExists } from '@nh/server/queries/email-change';
import { recordOutbox } from '@nh/server/queries/outbox';
import { findShopperToken, type ShopperTokenRow } from '@nh/server/queries/shopper-self-service';
import { hashSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { EMAIL_CHANGE_MESSAGES, type EmailChangeConfirmed, type EmailChangeView } from '@nh/shared/contracts/email-change';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { AppError } from '../../lib/errors';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../lib/db-errors';

/** A token as the link carries it (base64url); anything else is no link of ours. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,200}$/;

const invalid = () => new AppError('EMAIL_CHANGE_LINK_INVALID', EMAIL_CHANGE_MESSAGES.linkInvalid);

/** The link's row when it can still be confirmed, or the refusal that says why not. */
async function usable(db: Db, row: ShopperTokenRow | null): Promise<ShopperTokenRow & { userId: string }> {
  if (!row || !row.userId) throw invalid();
  if (row.usedAt) {
    if (row.previousEmail) throw new AppError('EMAIL_CHANGE_LINK_USED', EMAIL_CHANGE_MESSAGES.linkUsed);
    // Spent without being confirmed: a newer link replaced it (or another change was confirmed).
    throw new AppError('EMAIL_CHANGE_LINK_INVALID', (await newerEmailChangeExists(db, row)) ? EMAIL_CHANGE_MESSAGES.linkReplaced : EMAIL_CHANGE_MESSAGES.linkInvalid);
  }
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError('EMAIL_CHANGE_LINK_EXPIRED', EMAIL_CHANGE_MESSAGES.linkExpired);
  return { ...row, userId: row.userId };
}

const hashOf = (token: string): string => {
  if (!TOKEN_PATTERN.test(token)) throw invalid();
  return hashSingleUseToken(token);
};

/** What the link would do (the new address), without spending it. */
export async function showEmailChange(db: Db, token: string): Promise<EmailChangeView> {
  const row = await usable(db, await findShopperToken(db, hashOf(token), 'email_change'));
  return { email: row.email, expiresAt: row.expiresAt.toISOString() };
}

/** Confirms: the account's email becomes the link's address, once; refused when another account took it meanwhile. */
/** Who the audit row names for the confirmation: the customer, not by address (an anonymised customer's audit keeps its actor). */
export const EMAIL_CHANGE_ACTOR = 'the customer (emailed link)';

export async function confirmEmailChange(db: Db, token: string, actor: AuditActor): Promise<EmailChangeConfirmed> {
  const tokenHash = hashOf(token);
  try {
    return await db.transaction(async (tx) => {
      const row = await usable(db, await lockEmailChangeByHash(tx, tokenHash));
      const previous = await lockAccountEmail(tx, row.userId);
      if (previous === null) throw invalid();
      if (await emailUsedByAnotherAccount(tx, row.email, row.userId)) throw new AppError('CUSTOMER_EMAIL_TAKEN', EMAIL_CHANGE_MESSAGES.taken);
      await applyEmailChange(tx, row.id, row.userId, row.email, previous);
      await recordOutbox(tx, OUTBOX_TOPICS.customerEmailChanged, { tokenId: row.id });
      await recordAudit(tx, actor, {
        action: 'customer.email_changed',
        entityType: 'customer',
        entityId: row.userId,
        before: { email: previous },
        after: { email: row.email, tokenId: row.id },
      });
      return { message: EMAIL_CHANGE_MESSAGES.confirmed, email: row.email };
    });
  } catch (error) {
    // Two accounts confirming the same address at once: the second meets the unique index.
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('CUSTOMER_EMAIL_TAKEN', EMAIL_CHANGE_MESSAGES.taken);
    throw error;
  }
}
