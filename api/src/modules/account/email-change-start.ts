/**
 * Starting an email change (issue 23; docs/decisions/admin.md, "Changing a customer's email"), the one
 * flow whoever starts it: staff for a customer (admin/customers/email-change.ts) or the shopper from
 * their account (`startOwnEmailChange`, POST /api/account/email). The new address gets the single-use
 * link (the outbox's customer.email-change-requested); nothing about the account changes until it is
 * confirmed, and the confirmation tells the old address (customer.email-changed). Audited either way.
 */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { emailUsedByAnotherAccount, insertEmailChange } from '@nh/server/queries/email-change';
import { recordOutbox } from '@nh/server/queries/outbox';
import { findUserForSignIn } from '@nh/server/queries/shopper-accounts';
import { decoyHash, verifyPassword } from '@nh/server/passwords';
import { EMAIL_CHANGE_MESSAGES, EMAIL_CHANGE_TTL_MS, FRESH_SIGN_IN_MS, type EmailChangeStarted } from '@nh/shared/contracts/email-change';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { AppError } from '../../lib/errors';

export interface EmailChangeAccount {
  userId: string;
  /** The audit row's entity (the customer id: an account's is its users.id). */
  customerId: string;
  currentEmail: string;
}

/** Who the audit row names for a change the shopper started: the customer, not by address (anonymising keeps the actor). */
export const OWN_EMAIL_CHANGE_ACTOR = 'the customer (their account)';

/** Who started it, in the words the refusals use: staff about "the customer", the shopper about "you". */
type StartedBy = 'staff' | 'customer';

/** The link to the new address, its outbox row and the audit row, in one transaction. */
export async function beginEmailChange(db: Db, account: EmailChangeAccount, email: string, actor: AuditActor, startedBy: StartedBy): Promise<EmailChangeStarted> {
  if (email === account.currentEmail.toLowerCase()) {
    throw new AppError('CUSTOMER_EMAIL_SAME', startedBy === 'staff' ? EMAIL_CHANGE_MESSAGES.sameEmail : EMAIL_CHANGE_MESSAGES.ownSameEmail);
  }
  if (await emailUsedByAnotherAccount(db, email, account.userId)) {
    throw new AppError('CUSTOMER_EMAIL_TAKEN', startedBy === 'staff' ? EMAIL_CHANGE_MESSAGES.taken : EMAIL_CHANGE_MESSAGES.ownTaken);
  }
  const expiresAt = new Date(Date.now() + EMAIL_CHANGE_TTL_MS);
  await db.transaction(async (tx) => {
    const row = await insertEmailChange(tx, { userId: account.userId, email, expiresAt });
    await recordOutbox(tx, OUTBOX_TOPICS.customerEmailChangeRequested, { tokenId: row.id });
    await recordAudit(tx, actor, {
      action: 'customer.email_change_started',
      entityType: 'customer',
      entityId: account.customerId,
      before: { email: account.currentEmail },
      after: { email, tokenId: row.id, expiresAt: expiresAt.toISOString(), startedBy },
    });
  });
  return { message: startedBy === 'staff' ? EMAIL_CHANGE_MESSAGES.started : EMAIL_CHANGE_MESSAGES.ownStarted, email, expiresAt: expiresAt.toISOString() };
}

/**
 * The shopper proves it is them before the link goes out: their current password when the account has
 * one, else (a passwordless account, signed in with emailed codes) a sign-in of the last 10 minutes.
 * Either way the change still needs the link sent to the new address.
 */
export async function startOwnEmailChange(
  db: Db,
  user: { id: string; email: string },
  input: { email: string; password?: string | undefined },
  signedInAt: number | undefined,
  actor: AuditActor,
): Promise<EmailChangeStarted> {
  const account = await findUserForSignIn(db, user.email);
  if (!account || account.id !== user.id) throw new AppError('NOT_SIGNED_IN', EMAIL_CHANGE_MESSAGES.signInAgain);
  if (account.passwordHash) {
    if (!input.password) throw new AppError('EMAIL_CHANGE_PASSWORD', EMAIL_CHANGE_MESSAGES.passwordRequired);
    if (!(await verifyPassword(input.password, account.passwordHash))) throw new AppError('EMAIL_CHANGE_PASSWORD', EMAIL_CHANGE_MESSAGES.passwordWrong);
  } else {
    // The same scrypt time as a password check, so the answer's timing does not say which kind of account this is.
    if (input.password) await verifyPassword(input.password, await decoyHash());
    if (!signedInAt || Date.now() - signedInAt > FRESH_SIGN_IN_MS) throw new AppError('EMAIL_CHANGE_SIGN_IN_AGAIN', EMAIL_CHANGE_MESSAGES.signInAgain);
  }
  return beginEmailChange(db, { userId: account.id, customerId: account.id, currentEmail: account.email }, input.email, actor, 'customer');
}
